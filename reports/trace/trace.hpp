// A counterexample as data and as words. This header is the only place that says how a
// counterexample is written down; every renderer and every command draws from it:
//
// - the one JSON shape of a counterexample (to_json(Counterexample), counterexample_from_json):
//   the trace file holds it at its top level, `check --json` lists it per scenario, and the gate
//   reads it back from the trace files;
// - the trace document, what `interleave check` writes when it finds a violation and what `replay`
//   and `show` read: self-contained, it carries the scenario it came from, so it can be replayed
//   and rendered without anything else (schema: reports/trace/trace.schema.json, format_version 1);
// - the sentences that describe a violation and its steps (trace_sentences.cpp), in a report
//   wording (text timeline, Mermaid, DOT, Markdown) and a console wording (check, replay).
//
// The engine (explorer/) keeps its C++ structs (Counterexample, TraceStep, ExplorationResult) and
// serializes none of them; their to_json overloads are declared here, in the engine's namespace so
// that argument-dependent lookup finds them.
#pragma once

#include "explorer/search/explorer.hpp"
#include "explorer/core/json_reader.hpp"
#include "explorer/search/stats.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace interleave {

/// The one JSON shape of a counterexample (docs/reports.md, "JSON"):
///
///   {"violation": {"invariant": "x == y", "message": "...", "step": 7, "actor": "Auditor"},
///    "preemptions": 1,
///    "schedule": {"format_version": 1, "seed": 0, "steps": ["Writer1", "Auditor", ...]},
///    "steps": [{"index": 0, "actor": "Writer1", "label": "lock",
///               "accesses": [{"object": "m", "access": "acquire"}], "what": ""}, ...],
///    "state": {...} or null}
///
/// violation.step is the index of the violating step, or the number of steps when the violation
/// was detected after the last one; violation.actor is "" when no actor's step raised it.
nlohmann::json to_json(const Counterexample& c);
/// One element of "steps" above.
nlohmann::json to_json(const TraceStep& s);
/// An exploration's result: verdict, strategy, detail, covered, stats, and "counterexamples" in
/// the shape above. with_timing = false leaves out wall time (byte-identical for identical runs).
nlohmann::json to_json(const ExplorationResult& r, bool with_timing);
/// A timed program's windows (ExplorationResult::windows): per name, executions, missing,
/// least_us and greatest_us (null: unbounded; both absent when no execution ran both steps), and
/// the bounds in words.
nlohmann::json windows_to_json(const std::map<std::string, WindowBounds>& windows);

}  // namespace interleave

namespace interleave::reports {

/// The keys of the counterexample shape, for callers that check the keys of an object holding it.
const std::vector<std::string>& counterexample_keys();

/// Reads the counterexample shape from the object `r` (its other keys are the caller's) and checks
/// it against itself: the readable steps are the steps the schedule runs, numbered from 0, and the
/// violation names a step (and the actor of that step) that exists. Throws InputError naming the
/// file and the JSON path.
Counterexample counterexample_from_json(const JsonReader& r);

/// The race of a counterexample: two dependent steps of different actors that nothing but their
/// conflict orders (no other happens-before path joins them), such that the execution with the
/// two reversed (the steps that do not depend on the earlier one first, then the later step, then
/// the earlier, then the rest in their recorded order as far as they can run) completes with
/// every property holding. Found by replaying the reversed orders (reports/race.hpp).
struct Race {
  std::size_t first = 0;             ///< index of the earlier step
  std::size_t second = 0;            ///< index of the later step (invariant: first < second)
  std::vector<std::string> objects;  ///< the objects whose accesses conflict, in access order
  /// What the reversed order gave, e.g. "the execution completes and every property holds (36
  /// steps)".
  std::string reversed;
  friend bool operator==(const Race&, const Race&) = default;
};

nlohmann::json to_json(const Race& race);

struct TraceDocument {
  static constexpr int kFormatVersion = 1;

  std::string tool_version;       ///< "interleave X.Y.Z"
  std::string scenario_file;      ///< the path the scenario was read from (informative)
  nlohmann::json scenario;        ///< the scenario document itself
  std::string scenario_hash;      ///< content hash of the scenario (see scenario_hash())
  std::string strategy;           ///< strategy name
  nlohmann::json options;         ///< exploration options as used (strategy parameters, bounds)
  Counterexample counterexample;  ///< violation, schedule, readable steps, state at the violation
  Stats stats;                    ///< of the exploration that found it (wall time included)
  /// The scenario keys set on the command line (`--preset NAME`, `--set PATH=VALUE`), as given,
  /// in order; `scenario` is the document with them applied (what replay runs).
  std::vector<std::string> overrides;
  /// The race, when one was found (the key "race" is absent otherwise).
  std::optional<Race> race;
  /// Indices of the steps found not involved in the violation (reports/analysis/counterfactual.hpp:
  /// postponed past the violating step, the same property is still violated), sorted.
  std::vector<std::size_t> not_involved;
};

/// "fnv1a64:<16 hex digits>" of the scenario's canonical JSON text (keys sorted, no spaces).
std::string scenario_hash(const nlohmann::json& scenario);

/// The document: the counterexample's keys at the top level, with format, format_version,
/// tool_version, scenario_file, scenario_hash, scenario, strategy, options and stats, and when
/// there are some, overrides, race and not_involved.
nlohmann::json to_json(const TraceDocument& doc);
/// Reads and validates a trace document. Throws InputError naming `file` and the JSON path for
/// malformed, truncated or inconsistent documents (e.g. a hash that does not match the scenario).
TraceDocument trace_from_json(const nlohmann::json& j, const std::string& file);
/// The limits of a trace file (docs/scenario-format.md, "Limits"): a scenario's, with one level
/// more (the scenario is embedded one level down) and room for the steps of a long execution.
JsonLimits trace_json_limits();
/// Reads a trace file (malformed JSON, or JSON beyond trace_json_limits(), is an InputError too).
TraceDocument read_trace_file(const std::string& path);

// ---- The sentences (trace_sentences.cpp; docs/reports.md, "Sentences") ----

/// Who reads the words. Both wordings state the same facts; each is pinned by tests and by the
/// golden counterexamples (tests/golden/), so neither may drift.
enum class Wording : std::uint8_t {
  /// Documents (the text timeline, Mermaid, DOT, the gate's Markdown): plain names, step numbers
  /// as in the timeline's step column.
  kReport,
  /// Command output lines (check, replay): quoted names, steps as "#N" like their step lists.
  kConsole,
};

/// The violation in one sentence.
///   kReport:  "x == y violated at step 7 (Auditor): <message>"
///             "counter == 2 violated after the last step: <message>"
///   kConsole: "'x == y' violated at step #7 by Auditor: <message>" ("by" only when an actor's
///             step raised it), "'counter == 2' violated at the end of the execution (after step
///             #3): <message>"
///   both:     "... violated before any step: <message>"
///   found at a step, reported at the end (Counterexample::found_at):
///     kReport:  "x violated at step 28 (Cleaner), reported after the last step: <message>"
///     kConsole: "'x' violated at step #28 by Cleaner (reported at the end of the execution, after
///               step #35): <message>"
/// Raw text: a renderer escapes it for its format.
std::string describe_violation(const Counterexample& c, Wording wording);

/// The first line of a counterexample: "Counterexample: x == y (4 steps, 2 actors, 1 preemption)".
std::string counterexample_headline(const Counterexample& c);

/// A step's label, or "(unlabelled)".
std::string step_label(const TraceStep& step);
/// The declared accesses of a step.
///   kReport:  "read-modify-write CAT, read J" ("" if none)
///   kConsole: "[CAT read-modify-write, J read]" ("" if none)
std::string describe_accesses(const TraceStep& step, Wording wording);
/// What a step did: its notes, or (console) its declared accesses when it noted nothing.
///   kReport:  "write counter = 1" ("" if the step noted nothing)
///   kConsole: "write counter = 1", or "[counter write]" when it noted nothing
std::string describe_what(const TraceStep& step, Wording wording);
/// A step in a few words.
///   kReport:  "W: write counter = 1" (the label, then what happened; a timeline's cell)
///   kConsole: "B W: write counter = 1" (actor, label, what happened or the accesses)
std::string describe_step(const TraceStep& step, Wording wording);

/// One step of a race in a few words: "#22 C3 reads RUN = []" (an observation of a raced object
/// whose value the state after the step shows), else "#29 S3 RUN.put(t1)" (the label and what
/// happened, cut at about 72 characters), else the label and the accesses. When another actor
/// has a step with the same label, the actor is named too: "#0 W0 R reads counter = 0",
/// "#2 W1 W: write counter = 1".
std::string describe_race_step(const Counterexample& c, std::size_t index, const Race& race);
/// The race: "#22 C3 reads RUN = [] before #29 S3 RUN.put(t1)".
std::string describe_race(const Counterexample& c, const Race& race);
/// `s` cut at a word boundary to at most `max` columns, "…" marking the cut.
std::string shortened(std::string_view s, std::size_t max);

}  // namespace interleave::reports
