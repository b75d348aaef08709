// The timed model's durations (scenario section "timing"; docs/model.md, "Time"): per kind of
// work, how long it lasts by default and what that rests on: a StarRocks source, a workload
// parameter the scenario sets, or a hypothesis (an order of magnitude read in no source). A
// scenario with a "timing" section runs timed: every actor gives these durations
// (explorer/time/timing.hpp). Without one no actor gives any, and every verdict is the untimed one.
#pragma once

#include "explorer/time/timing.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace interleave::model {

enum class Work : std::uint8_t {
  kCleanerInterval,  ///< the fixed delay between the end of a pass and the next pass
  kCleanerLocal,     ///< a cleaner step on the leader's memory (C1, C3, C4)
  kListSessionsRpc,  ///< C2: the listSessions RPC to one FE
  kCatalogWrite,     ///< a catalog or manager change with its journal entry (E2, E6b, D2, ...)
  kDispatch,         ///< the TaskRunScheduler's poll of PEND and its map updates (S1, S2b, S3)
  kDispatchPoll,     ///< the dispatcher's poll period (a run waits in PEND for the next poll)
  kThreadStart,      ///< S2a: handing the executor to its thread, up to the executor's E1
  kStatement,        ///< an executor or client statement's FE work (E1, E3/E4 planning, E5, U*)
  kAnchorInsert,     ///< the anchor insert's load on a CN, up to its finish (workload)
  kIteration,        ///< one iteration insert's load on a CN, up to its finish (workload)
  kSinkFinish,       ///< a CN sink's finish and report (N3, N4)
  kReplayLag,        ///< a follower's replay of one journal entry
};

struct WorkFact {
  Work work;
  std::string_view key;    ///< e.g. "thread_start"
  std::string_view what;   ///< what the work is, in the model's step names
  Duration duration;       ///< the default
  std::string_view basis;  ///< the source (path@commit), "workload: ..." or "hypothetical: ..."
};

/// Every kind of work, in enum order.
std::span<const WorkFact> work_facts();
const WorkFact& work_fact(Work w);

}  // namespace interleave::model
