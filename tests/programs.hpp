// Small programs on the engine's public API shared by several test areas.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/primitives.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace interleave::test {

/// A and B each read `counter` then write it + 1; checked at the end: counter == 2. Without a lock
/// an update can be lost: "counter is 1 after two increments".
inline Program lost_update() {
  return [](Execution& ex) {
    auto& counter = ex.make<Shared<int>>(ex, "counter", 0);
    for (const char* name : {"A", "B"}) {
      ex.spawn(name, [&counter](Actor& a) {
        const int v = counter.read(a, "read");
        counter.write(a, "write", v + 1);
      });
    }
    ex.final_check("counter == 2", [&counter]() -> Check {
      if (counter.peek() == 2) return std::nullopt;
      return "counter is " + std::to_string(counter.peek()) + " after two increments";
    });
    ex.state_dump([&counter] { return nlohmann::json{{"counter", counter.peek()}}; });
  };
}

}  // namespace interleave::test
