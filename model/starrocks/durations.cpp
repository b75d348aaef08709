#include "model/starrocks/durations.hpp"

namespace interleave::model {

namespace {

constexpr Micros us(Micros x) {
  return x;
}

const WorkFact kFacts[] = {
    {Work::kCleanerInterval, "cleaner_interval",
     "the cleaner's fixed delay: its next pass starts this long after a pass ends",
     Duration::exactly(seconds(30)),
     "fe/fe-core/src/main/java/com/starrocks/common/util/Daemon.java@"
     "023e7497eed95b4f5bbcdeb968a6597598cb7ea4 (DEFAULT_INTERVAL_SECONDS, runOneCycle then "
     "await(intervalMs)); server/TemporaryTableCleaner.java@"
     "39acbe94b417951e60b55fd9422c5384924d30be passes no interval"},
    {Work::kCleanerLocal, "cleaner_local", "a cleaner step on the leader's memory (C1, C3, C4)",
     Duration::between(us(10), milliseconds(1)),
     "hypothetical: an order of magnitude (map reads under a lock), read in no source"},
    {Work::kListSessionsRpc, "list_sessions_rpc", "C2: the listSessions RPC to one FE",
     Duration::between(milliseconds(1), milliseconds(20)),
     "hypothetical: an order of magnitude of an intra-cluster Thrift RPC, read in no source"},
    {Work::kCatalogWrite, "catalog_write",
     "a catalog or manager change and its journal entry (E2, E2a..E2c, E6a..E6c, D1..D4, U2, U3)",
     Duration::between(milliseconds(1), milliseconds(10)),
     "hypothetical: an order of magnitude of a BDB journal write, read in no source"},
    {Work::kDispatch, "dispatch", "the TaskRunScheduler's map updates and journal (S1, S2b, S3)",
     Duration::between(us(100), milliseconds(5)),
     "hypothetical: an order of magnitude (map updates, one journal write), read in no source"},
    {Work::kDispatchPoll, "dispatch_poll",
     "the dispatcher's poll period: a run already in PEND waits for the next poll, at the "
     "scenario's timing.dispatch_phase_s (0 by default, or free in [0, period))",
     Duration::exactly(seconds(1)),
     "hypothetical: a poll every second, an order of magnitude; the dispatcher's period was read "
     "in no StarRocks source at a commit"},
    {Work::kThreadStart, "thread_start",
     "S2a: handing the executor to its thread pool, up to the executor's E1 (the S2a..S3 window "
     "is this plus S2b)",
     Duration::between(us(20), us(500)),
     "hypothetical: an order of magnitude of a thread-pool submit and wake-up, read in no source"},
    {Work::kStatement, "statement",
     "an executor's or a client's statement on the FE (E1, E3/E4 planning, E5, E7, Y*, U*)",
     Duration::between(milliseconds(1), milliseconds(20)),
     "hypothetical: an order of magnitude of parsing and planning, read in no source"},
    {Work::kAnchorInsert, "anchor_insert",
     "the anchor insert's load on a CN, from the sink's open to its finish (N3)",
     Duration::exactly(seconds(1)),
     "workload: the scenario's actors.task_runs[].anchor_insert_s (the seed report: more than "
     "30 s for the failure to be certain)"},
    {Work::kIteration, "iteration",
     "one iteration insert's load on a CN, from the sink's open to its finish (N3)",
     Duration::exactly(seconds(1)), "workload: the scenario's actors.task_runs[].iteration_s"},
    {Work::kSinkFinish, "sink_finish", "a CN sink's finish and its report (N2, N3, N4)",
     Duration::between(milliseconds(1), milliseconds(10)),
     "hypothetical: an order of magnitude of a segment flush and an RPC, read in no source"},
    {Work::kReplayLag, "replay_lag", "a follower's replay of one journal entry (R)",
     Duration::between(milliseconds(1), milliseconds(100)),
     "hypothetical: the replayer's wait for new entries and its apply, read in no source"},
};

}  // namespace

std::span<const WorkFact> work_facts() {
  return kFacts;
}

const WorkFact& work_fact(Work w) {
  return kFacts[static_cast<std::size_t>(w)];
}

}  // namespace interleave::model
