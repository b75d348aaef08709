// Explaining an incident: which executions of a program produce the lines of its logs, and what
// must have happened between them.
//
// An incident is read from log files (explorer/evidence/log_reader.hpp) against a model's pattern table
// (explorer/evidence/log_pattern.hpp). Each record that a pattern matches is a *matched line*; a record
// that no pattern matches is listed and set aside. Of the matched lines, the *related* ones are
// those the search must explain:
//
//   - the focus: by default every matched line at level WARN, ERROR or FATAL (the failure), or
//     the lines that carry the identities named by hand (IncidentOptions::focus);
//   - then, to a fixed point, every matched line that shares an identity with a related line.
//     An identity is a hole's name and the value it took ("table" = "52300"), for the holes of
//     type int or uuid, except those named "db": every table of a database shares its id, so a
//     database id alone relates nothing;
//   - every matched line of a logger named complete (IncidentOptions::complete).
//
// A matched line that is not related is *unrelated*: listed, never explained, never an error.
//
// The related lines are ordered: two lines of one file in file order; two lines of different
// files when the later one's timestamp is more than the clock skew after the earlier one's (closer
// than that, either order is possible). An execution *explains* the incident when an injective map
// from the related lines to the lines its steps logged exists such that
//   - each line maps to a line of the same pattern;
//   - the values bind consistently: per hole name, one log value to one model value and back
//     (one UUID, one session);
//   - some execution equivalent to it (the same steps, reordered only where they commute) logs
//     them in an order that respects the incident's order: the union of the execution's
//     happens-before order and the incident's order between the mapped lines has no cycle;
//   - for each complete logger, every line the execution logs from that logger is mapped.
// Since the last condition is checked on the happens-before order, whether an execution explains
// the incident is the same for every execution of its Mazurkiewicz trace: a search that explores
// one execution per trace (DPOR) finds every explanation, and the number of explanations is the
// number of distinct traces among the explaining executions (counted by their canonical form).
//
// Time: in a timed program (explorer/time/timing.hpp) an explaining execution must also fit the
// incident's times. A line prints during its step's work: at or after the step, within the most
// that work may last, and at or before its actor's next step. Each file reads one clock, which
// may be off from the model's origin by any amount and from another file's by at most the clock
// skew; a printed time stands for the interval its precision leaves (a second for "05:10:32", a
// millisecond for fe.log). These are difference constraints added to the execution's timing graph
// (one node per file's clock and per line), satisfiable or not; since the graph depends only on
// the execution's partial order, the check is a property of its Mazurkiewicz trace and DPOR stays
// exact. ExplainResult::time_rejected counts the executions that produce the lines in order but
// not at those times: the incident's times contradict the model's durations.
//
// Cutting: with a complete logger, an execution that has logged more lines of one of its patterns
// than the incident holds can explain nothing however it goes on. Under exhaustive DFS, which
// enumerates every schedule prefix by prefix, the search abandons such an execution at once (its
// extensions are all refused). Under DPOR abandoning it would hide the races of the steps it did
// not run, and with them executions DPOR must reach: the execution runs on to its end untraced
// (Execution::stop_tracing: no notes, no state dumps) and is not matched. Tests compare both
// cutting searches with the search that filters only at the end.
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/search/explorer.hpp"
#include "explorer/evidence/log_pattern.hpp"
#include "explorer/evidence/log_reader.hpp"
#include "explorer/core/schedule.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace interleave {

struct IncidentOptions {
  /// How far apart the clocks of two files may be: lines of different files closer than this in
  /// time may have happened in either order. Also the most a file's timestamps may go back.
  std::int64_t clock_skew_micros = 1'000'000;
  /// Loggers (a pattern's logger: an FE class, a source file) every line of which the incident
  /// holds: the execution may log no line of them that the incident does not have.
  std::vector<std::string> complete;
  /// Identities (hole name, value) to start relatedness from, instead of the failure lines.
  std::vector<std::pair<std::string, std::string>> focus;
  /// The model's identity rules (LogPatternTable::rules): lines that contradict one are bad input.
  std::vector<IdentityRule> rules;
};

/// A record of the incident that a pattern matched.
struct IncidentLine {
  std::size_t file = 0;     ///< index in Incident::files
  std::size_t record = 0;   ///< index in that file's records
  std::size_t pattern = 0;  ///< index in the pattern table
  std::vector<LogBinding> values;
  bool related = false;
};

struct Incident {
  std::vector<LogFile> files;
  std::vector<IncidentLine> lines;  ///< every matched record, file by file, in file order
  /// Records no pattern matched: (file, record).
  std::vector<std::pair<std::size_t, std::size_t>> unmatched;
  /// The related lines (indices into `lines`) in the incident's order: a topological order of
  /// `before`, ties by time then file then line.
  std::vector<std::size_t> related;
  /// before[i][j]: related[i] must come before related[j] (file order, or time beyond the skew).
  std::vector<std::vector<char>> before;
  std::vector<std::string> complete;  ///< IncidentOptions::complete
  std::int64_t clock_skew_micros = 0;  ///< IncidentOptions::clock_skew_micros
  /// "fe.log:2": the file's base name and the record's first line.
  std::string where(std::size_t line) const;
  const LogRecord& record(std::size_t line) const {
    return files[lines[line].file].records[lines[line].record];
  }
};

/// Reads the incident in `files` against `patterns`. Throws InputError naming the file and line
/// for a file whose timestamps go back by more than the clock skew, and for a matched line that
/// contradicts an identity rule with an earlier one (a tablet under a second table).
Incident read_incident(std::vector<LogFile> files, const std::vector<CompiledLogPattern>& patterns,
                       const IncidentOptions& options);

/// The related lines (Incident::related) in groups that share no identity: two lines are in one
/// group when a chain of related lines, each sharing an identity (a hole's name and value, as
/// relatedness counts them) with the next, joins them. Each group is a list of indices into
/// Incident::related, in the incident's order; the groups are ordered by their first line. A
/// model whose every identity belongs to one owner (a session and what it owns) produces the
/// lines of one group from one owner's objects: what explaining by owner decomposition needs.
std::vector<std::vector<std::size_t>> related_groups(const Incident& incident,
                                                     const std::vector<CompiledLogPattern>& patterns);

/// A line an execution logged: its step, pattern and values.
struct ExecutionLine {
  std::size_t step = 0;
  std::size_t pattern = 0;
  std::vector<LogBinding> values;
};

/// One explaining execution: its schedule, its readable steps and where each related line went.
struct Explanation {
  Schedule schedule;
  std::vector<TraceStep> steps;
  /// step_of[i]: the step that logged the incident's related[i].
  std::vector<std::size_t> step_of;
  /// The property the execution violates, if any (its first failing check).
  std::optional<std::string> violated;
};

/// A step found in every explanation between two lines of the incident: the steps are matched
/// across explanations by actor, label and notes (which name the program's objects), and which
/// of the actor's alike steps it is.
struct InferredStep {
  std::string actor;
  std::string label;
  std::size_t occurrence = 1;  ///< among the actor's steps of that label and notes
  std::string what;            ///< the step's notes
  /// The latest related line (index into Incident::related) that happens before the step in
  /// every explanation, and the earliest that happens after it; nullopt where none does.
  std::optional<std::size_t> after_line;
  std::optional<std::size_t> before_line;
};

/// Explain's limits (explorer/search/runner.hpp: a budget or the stop request makes the answer
/// incomplete) and what it adds.
struct ExplainOptions : RunLimits {
  bool dfs = false;  ///< exhaustive DFS with cutting, instead of DPOR filtering at the end
  /// The checked mode (explorer/core/checked.hpp): a step's use of state it did not declare is
  /// a ProgramError.
  bool check_accesses = false;
  /// Search the embedding of an execution's lines at most this many nodes (an incident of many
  /// alike lines): past it the execution counts as unknown and the result is incomplete.
  std::uint64_t max_match_nodes = 1'000'000;
  /// Test hook: never cut (filter every execution at its end), whatever the strategy.
  bool filter_only_at_end = false;
  /// Run only this schedule (strictly, as replay does) instead of a search: whether that one
  /// execution explains the incident.
  std::optional<Schedule> only;
  /// Keep the canonical form of every explanation in ExplainResult::forms (tests).
  bool keep_forms = false;
  /// Called every `progress_interval` executions with the executions so far.
  std::function<void(std::uint64_t executions)> on_progress;
};

struct ExplainResult {
  bool complete = true;  ///< every execution was searched (no budget, no interruption)
  bool interrupted = false;
  std::string incomplete_why;
  std::uint64_t executions = 0;   ///< executions run (the cut ones included)
  std::uint64_t cut = 0;          ///< abandoned at a line the incident does not have
  std::uint64_t explaining = 0;   ///< executions that explain (before canonical dedup)
  std::uint64_t explanations = 0; ///< distinct Mazurkiewicz traces among them
  std::optional<Explanation> first;
  std::vector<InferredStep> inferred;  ///< common to every explanation
  /// Not explained: the most related lines, in incident order, that some execution produces
  /// (a prefix of Incident::related), and the first execution that produces that many.
  std::size_t longest_prefix = 0;
  std::optional<Explanation> closest;
  std::uint64_t unknown = 0;  ///< executions whose embedding search ran past max_match_nodes
  /// The program is timed: the incident's times were checked against its durations.
  bool timed = false;
  /// Executions that produce the related lines in the incident's order, but whose durations do
  /// not allow the incident's times.
  std::uint64_t time_rejected = 0;
  /// With ExplainOptions::keep_forms: the canonical form of each explanation's trace (its least
  /// linearization by actor name: two executions of one Mazurkiewicz trace have the same form).
  std::set<std::string> forms;
};

/// Searches the executions of `program` for those that explain `incident`.
ExplainResult explain_incident(const Program& program, const Incident& incident,
                               const std::vector<CompiledLogPattern>& patterns,
                               const ExplainOptions& options);

}  // namespace interleave
