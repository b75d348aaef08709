// The FEs' clocks (clock_fe1..clock_fe3): each FE's own monotonic clock, used for a session's
// createTime (E2a, a follower's replay R1) and a cleaner pass's startTime (C1). A logical clock:
// only its order against the steps that read it matters (docs/model.md, "The leader clock is a
// logical clock"). Promises: a clock changes only by tick(), at a step declaring update_clock().
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/fingerprint.hpp"
#include "model/starrocks/accesses.hpp"
#include "model/starrocks/config.hpp"

#include <cstddef>
#include <vector>

namespace interleave::model {

class FeClocks {
 public:
  /// Registers the clock of FE `fe` (FEs in order), starting at `offset`.
  void declare(Execution& ex, int fe, Tick offset) {
    ex_ = &ex;
    id_.push_back(ex.object("clock_" + frontend_name(fe)));
    now_.push_back(offset);
  }

  Access read_clock(int fe) const { return read(id(fe)); }
  Access update_clock(int fe) const { return read_modify_write(id(fe)); }

  /// Advances FE `fe`'s clock and returns the new time (a step declaring update_clock(fe)).
  Tick tick(int fe) {
    ex_->check_access(id(fe), /*write=*/true);
    return ++now_[static_cast<std::size_t>(fe)];
  }
  /// FE `fe`'s current time (in a step, one declaring an access to the clock).
  Tick now(int fe) const {
    ex_->check_access(id(fe), /*write=*/false);
    return now_[static_cast<std::size_t>(fe)];
  }

  /// The state fingerprint's part: every FE's time (createTimes and startTimes compare them).
  void fingerprint(StateHasher& h) const { h << now_; }

 private:
  ObjectId id(int fe) const { return id_[static_cast<std::size_t>(fe)]; }
  Execution* ex_ = nullptr;  // the checked mode's checks (Execution::check_access)
  std::vector<ObjectId> id_;
  std::vector<Tick> now_;
};

}  // namespace interleave::model
