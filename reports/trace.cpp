// Placeholder until the trace document lands (issue 5): only the hash for now.
#include "reports/trace.hpp"

#include <cstdio>

namespace interleave::reports {

std::string scenario_hash(const nlohmann::json& scenario) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : scenario.dump()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace interleave::reports
