#include "explorer/evidence/explain.hpp"

#include "explorer/core/happens_before.hpp"
#include "explorer/search/readable_steps.hpp"
#include "explorer/search/runner.hpp"
#include "explorer/strategies/dfs.hpp"
#include "explorer/strategies/dpor.hpp"
#include "explorer/strategies/replay.hpp"
#include "explorer/time/virtual_time.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace interleave {

namespace {

// A hole whose value relates two lines: an int or uuid, not a database id.
bool relating(const PatternPiece& p) {
  return p.hole && (p.type == HoleType::int_ || p.type == HoleType::uuid) && p.name != "db";
}

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// Whether what a record prints besides its message allows `p`: the level, the logging class, or
// for a source-file logger (glog) the file.
bool record_fits(const LogRecord& r, const LogPattern& p) {
  if (!r.level.empty() && r.level != p.level) return false;
  if (!r.logger.empty() && r.logger != p.logger) return false;
  if (p.method.empty() && !r.source_file.empty() && base_name(r.source_file) != p.logger)
    return false;
  return true;
}

bool is_failure_level(const std::string& level) {
  return level == "WARN" || level == "ERROR" || level == "FATAL";
}

using Identity = std::pair<std::string, std::string>;

std::vector<Identity> identities(const IncidentLine& l, const CompiledLogPattern& p) {
  std::vector<Identity> out;
  std::size_t v = 0;
  for (const PatternPiece& piece : p.pieces()) {
    if (!piece.hole) continue;
    if (relating(piece) && v < l.values.size()) out.push_back(l.values[v]);
    ++v;
  }
  return out;
}

// The least linearisation of items 0..n-1: repeatedly the item, among those no unplaced item
// must precede (`before(j, i)`: j must come before i), that `less` puts first (the lower index on
// ties). Items caught in a cycle of `before` follow by `less`.
template <class Before, class Less>
std::vector<std::size_t> least_linearisation(std::size_t n, Before before, Less less) {
  std::vector<char> placed(n, 0);
  std::vector<std::size_t> order;
  for (std::size_t step = 0; step < n; ++step) {
    std::optional<std::size_t> pick;
    for (std::size_t i = 0; i < n; ++i) {
      if (placed[i]) continue;
      bool ready = true;
      for (std::size_t j = 0; j < n && ready; ++j)
        if (!placed[j] && j != i && before(j, i)) ready = false;
      if (ready && (!pick || less(i, *pick))) pick = i;
    }
    if (!pick) {
      for (std::size_t i = 0; i < n; ++i)
        if (!placed[i] && (!pick || less(i, *pick))) pick = i;
    }
    placed[*pick] = 1;
    order.push_back(*pick);
  }
  return order;
}

}  // namespace

std::string Incident::where(std::size_t line) const {
  const IncidentLine& l = lines[line];
  return base_name(files[l.file].path) + ":" + std::to_string(files[l.file].records[l.record].line);
}

Incident read_incident(std::vector<LogFile> files, const std::vector<CompiledLogPattern>& patterns,
                       const IncidentOptions& options) {
  Incident inc;
  inc.complete = options.complete;
  inc.clock_skew_micros = options.clock_skew_micros;
  for (const LogFile& f : files)
    check_log_order(f, options.clock_skew_micros);
  inc.files = std::move(files);
  for (std::size_t f = 0; f < inc.files.size(); ++f) {
    const LogFile& file = inc.files[f];
    for (std::size_t r = 0; r < file.records.size(); ++r) {
      const LogRecord& rec = file.records[r];
      const std::string message = rec.full_message();
      bool matched = false;
      for (std::size_t p = 0; p < patterns.size() && !matched; ++p) {
        if (!record_fits(rec, patterns[p].pattern())) continue;
        if (auto values = patterns[p].match(message)) {
          inc.lines.push_back(IncidentLine{f, r, p, std::move(*values), false});
          matched = true;
        }
      }
      if (!matched) inc.unmatched.emplace_back(f, r);
    }
  }
  // The identity rules: one `whole` per `part`, over every matched line, files in order.
  for (const IdentityRule& rule : options.rules) {
    std::map<std::string, std::pair<std::string, std::size_t>> whole_of;  // part -> whole, line
    for (std::size_t i = 0; i < inc.lines.size(); ++i) {
      const std::string* part = nullptr;
      const std::string* whole = nullptr;
      for (const LogBinding& b : inc.lines[i].values) {
        if (b.first == rule.part) part = &b.second;
        if (b.first == rule.whole) whole = &b.second;
      }
      if (part == nullptr || whole == nullptr) continue;
      const auto [it, fresh] = whole_of.try_emplace(*part, *whole, i);
      if (fresh || it->second.first == *whole) continue;
      const IncidentLine& l = inc.lines[i];
      throw InputError(inc.files[l.file].path,
                       "line " + std::to_string(inc.record(i).line),
                       rule.part + " " + *part + " is under " + rule.whole + " " + *whole +
                           " here and under " + rule.whole + " " + it->second.first + " at " +
                           inc.where(it->second.second) + ": a " + rule.part +
                           " belongs to one " + rule.whole);
    }
  }
  // Relatedness: from the focus (or the failure lines), to a fixed point.
  std::set<Identity> related_ids(options.focus.begin(), options.focus.end());
  const auto is_complete = [&](const IncidentLine& l) {
    const std::string& logger = patterns[l.pattern].pattern().logger;
    return std::find(options.complete.begin(), options.complete.end(), logger) !=
           options.complete.end();
  };
  for (IncidentLine& l : inc.lines) {
    if ((options.focus.empty() && is_failure_level(patterns[l.pattern].pattern().level)) ||
        is_complete(l)) {
      l.related = true;
      for (Identity& id : identities(l, patterns[l.pattern]))
        related_ids.insert(std::move(id));
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (IncidentLine& l : inc.lines) {
      if (l.related) continue;
      const std::vector<Identity> ids = identities(l, patterns[l.pattern]);
      if (std::none_of(ids.begin(), ids.end(),
                       [&](const Identity& id) { return related_ids.contains(id); }))
        continue;
      l.related = true;
      grew = true;
      for (const Identity& id : ids)
        related_ids.insert(id);
    }
  }
  // The incident's order.
  std::vector<std::size_t> rel;
  for (std::size_t i = 0; i < inc.lines.size(); ++i)
    if (inc.lines[i].related) rel.push_back(i);
  const std::size_t k = rel.size();
  const auto must_precede = [&](std::size_t a, std::size_t b) {
    const IncidentLine& la = inc.lines[a];
    const IncidentLine& lb = inc.lines[b];
    if (la.file == lb.file) return la.record < lb.record;
    return micros_between(inc.record(a).time, inc.record(b).time) > options.clock_skew_micros;
  };
  std::vector<std::int64_t> key(k, 0);
  for (std::size_t i = 0; i < k; ++i)
    key[i] = k == 0 ? 0 : micros_between(inc.record(rel[0]).time, inc.record(rel[i]).time);
  // By time; ties by file then line (rel's order); a cycle (clocks that contradict the files)
  // by time.
  const std::vector<std::size_t> order = least_linearisation(
      k, [&](std::size_t j, std::size_t i) { return must_precede(rel[j], rel[i]); },
      [&](std::size_t i, std::size_t j) { return key[i] < key[j]; });
  for (const std::size_t i : order)
    inc.related.push_back(rel[i]);
  inc.before.assign(k, std::vector<char>(k, 0));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      if (i != j) inc.before[i][j] = must_precede(inc.related[i], inc.related[j]) ? 1 : 0;
  return inc;
}

std::vector<std::vector<std::size_t>> related_groups(
    const Incident& incident, const std::vector<CompiledLogPattern>& patterns) {
  const std::size_t k = incident.related.size();
  std::vector<std::size_t> parent(k);
  for (std::size_t i = 0; i < k; ++i)
    parent[i] = i;
  const auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::map<Identity, std::size_t> first_with;  // identity -> the first related line carrying it
  for (std::size_t i = 0; i < k; ++i) {
    const IncidentLine& l = incident.lines[incident.related[i]];
    for (const Identity& id : identities(l, patterns[l.pattern])) {
      const auto [it, fresh] = first_with.try_emplace(id, i);
      if (!fresh) {
        const std::size_t a = find(i), b = find(it->second);
        parent[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  std::map<std::size_t, std::size_t> group_of_root;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < k; ++i) {
    const auto [it, fresh] = group_of_root.try_emplace(find(i), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

namespace {

// The embedding of the incident's related lines into one execution's logged lines.
class Embedding {
 public:
  /// `times`, when set, says whether the execution's durations allow the lines of an image at
  /// the incident's times (a timed program).
  using TimesFit = std::function<bool(const std::vector<std::size_t>& image)>;
  Embedding(const Incident& inc, const std::vector<ExecutionLine>& lines, const HappensBefore& hb,
            const std::vector<CompiledLogPattern>& patterns, std::uint64_t max_nodes,
            TimesFit times = {})
      : inc_(inc),
        lines_(lines),
        hb_(hb),
        patterns_(patterns),
        max_nodes_(max_nodes),
        times_(std::move(times)) {}

  /// Whether the first k related lines embed (with every complete logger's lines mapped when
  /// `whole`). image() is the map found.
  bool embed(std::size_t k, bool whole) {
    k_ = k;
    image_.assign(k, 0);
    used_.assign(lines_.size(), 0);
    fwd_.clear();
    back_.clear();
    if (whole && !complete_counts_match()) return false;
    return assign(0);
  }
  const std::vector<std::size_t>& image() const { return image_; }
  bool ran_out() const { return nodes_ > max_nodes_; }
  /// Some image kept the incident's order but not its times.
  bool time_rejected() const { return time_rejected_; }

 private:
  bool complete_counts_match() const {
    for (const std::string& logger : inc_.complete) {
      std::size_t in_incident = 0, in_execution = 0;
      for (std::size_t r = 0; r < k_; ++r)
        if (patterns_[inc_.lines[inc_.related[r]].pattern].pattern().logger == logger)
          ++in_incident;
      for (const ExecutionLine& l : lines_)
        if (patterns_[l.pattern].pattern().logger == logger) ++in_execution;
      if (in_incident != in_execution) return false;
    }
    return true;
  }
  // Whether execution line a is logged before line b in every execution equivalent to this one.
  bool precedes(std::size_t a, std::size_t b) const {
    const std::size_t sa = lines_[a].step, sb = lines_[b].step;
    if (sa == sb) return a < b;
    return hb_.before(sa, sb);
  }
  bool bind(const std::vector<LogBinding>& log, const std::vector<LogBinding>& model,
            std::vector<std::pair<std::string, std::string>>& undo_fwd,
            std::vector<std::pair<std::string, std::string>>& undo_back) {
    for (std::size_t v = 0; v < log.size() && v < model.size(); ++v) {
      const std::string& name = log[v].first;
      auto& f = fwd_[name];
      auto& b = back_[name];
      const auto fi = f.find(log[v].second);
      const auto bi = b.find(model[v].second);
      if (fi != f.end() || bi != b.end()) {
        if (fi == f.end() || bi == b.end() || fi->second != model[v].second) return false;
        continue;
      }
      f.emplace(log[v].second, model[v].second);
      b.emplace(model[v].second, log[v].second);
      undo_fwd.emplace_back(name, log[v].second);
      undo_back.emplace_back(name, model[v].second);
    }
    return true;
  }
  void unbind(const std::vector<std::pair<std::string, std::string>>& undo_fwd,
              const std::vector<std::pair<std::string, std::string>>& undo_back) {
    for (const auto& [name, value] : undo_fwd)
      fwd_[name].erase(value);
    for (const auto& [name, value] : undo_back)
      back_[name].erase(value);
  }
  bool acyclic() const {
    // Edges u -> v: the incident orders them, or the execution does.
    std::vector<int> colour(k_, 0);
    std::function<bool(std::size_t)> visit = [&](std::size_t u) {
      colour[u] = 1;
      for (std::size_t v = 0; v < k_; ++v) {
        if (v == u || !(inc_.before[u][v] || precedes(image_[u], image_[v]))) continue;
        if (colour[v] == 1) return false;
        if (colour[v] == 0 && !visit(v)) return false;
      }
      colour[u] = 2;
      return true;
    };
    for (std::size_t u = 0; u < k_; ++u)
      if (colour[u] == 0 && !visit(u)) return false;
    return true;
  }
  bool assign(std::size_t r) {
    if (r == k_) {
      if (!acyclic()) return false;
      if (times_ && !times_(image_)) {
        time_rejected_ = true;
        return false;
      }
      return true;
    }
    const IncidentLine& want = inc_.lines[inc_.related[r]];
    for (std::size_t c = 0; c < lines_.size(); ++c) {
      if (used_[c] || lines_[c].pattern != want.pattern) continue;
      if (++nodes_ > max_nodes_) return false;
      bool fits = true;
      for (std::size_t q = 0; q < r && fits; ++q) {
        if (inc_.before[q][r] && precedes(c, image_[q])) fits = false;
        if (inc_.before[r][q] && precedes(image_[q], c)) fits = false;
      }
      if (!fits) continue;
      std::vector<std::pair<std::string, std::string>> undo_fwd, undo_back;
      if (bind(want.values, lines_[c].values, undo_fwd, undo_back)) {
        used_[c] = 1;
        image_[r] = c;
        if (assign(r + 1)) return true;
        used_[c] = 0;
      }
      unbind(undo_fwd, undo_back);
      if (nodes_ > max_nodes_) return false;
    }
    return false;
  }

  const Incident& inc_;
  const std::vector<ExecutionLine>& lines_;
  const HappensBefore& hb_;
  const std::vector<CompiledLogPattern>& patterns_;
  std::uint64_t max_nodes_;
  std::uint64_t nodes_ = 0;
  std::size_t k_ = 0;
  std::vector<std::size_t> image_;
  std::vector<char> used_;
  std::map<std::string, std::map<std::string, std::string>> fwd_, back_;
  TimesFit times_;
  bool time_rejected_ = false;
};

// The resolution of a printed time: what its fraction's digits leave out.
std::int64_t resolution_micros(const LogTime& t) {
  return t.fraction_digits >= 6 ? 1 : t.fraction_digits >= 3 ? 1000 : 1'000'000;
}

// The strategy the search runs under: the inner one, but an execution that has logged more lines
// of a complete logger's pattern than the incident holds is abandoned (when cutting).
class Guide final : public Strategy {
 public:
  /// `cutting`: watch for a line the incident cannot hold; `abandon`: then abandon the execution
  /// (DFS), else run it on untraced (DPOR).
  Guide(Strategy& inner, const ExecutionBuffers& buffers,
        const std::vector<CompiledLogPattern>& patterns, std::vector<std::size_t> allowed,
        bool cutting, bool abandon)
      : inner_(inner),
        buffers_(buffers),
        patterns_(patterns),
        allowed_(std::move(allowed)),
        cutting_(cutting),
        abandon_(abandon) {}
  /// The execution about to run (for stop_tracing).
  void attach(Execution* execution) { execution_ = execution; }
  std::string name() const override { return inner_.name(); }
  bool begin_execution() override {
    seen_ = 0;
    cut_ = false;
    counts_.assign(allowed_.size(), 0);
    return inner_.begin_execution();
  }
  ActorId next_actor(const SchedulingPoint& point) override {
    if (cutting_ && !cut_) {  // once cut, nothing more is read (and nothing more is noted)
      for (; seen_ < point.trace.size(); ++seen_) {
        if (seen_ >= buffers_.notes.size() || buffers_.notes[seen_].empty()) continue;
        for (const LoggedLine& l : logged_lines(patterns_, buffers_.notes[seen_]))
          if (allowed_[l.pattern] != kUnlimited && ++counts_[l.pattern] > allowed_[l.pattern])
            cut_ = true;
      }
      if (cut_) {
        // DFS enumerates every schedule: no extension of this one can explain. DPOR must still
        // see the rest of the execution's steps (their races lead to other executions): it runs
        // on, untraced and unmatched.
        if (abandon_) return kNoActor;
        if (execution_ != nullptr) execution_->stop_tracing();
      }
    }
    return inner_.next_actor(point);
  }
  std::optional<std::uint32_t> next_choice(const ChoicePoint& point) override {
    return inner_.next_choice(point);
  }
  void end_execution(const ExecutionRecord& record) override { inner_.end_execution(record); }
  Coverage coverage() const override { return inner_.coverage(); }
  std::string abandon_reason() const override {
    return cut_ ? "it logs a line of a complete logger that the incident does not hold"
                : inner_.abandon_reason();
  }
  bool cut() const { return cut_; }
  static constexpr std::size_t kUnlimited = static_cast<std::size_t>(-1);

 private:
  Strategy& inner_;
  const ExecutionBuffers& buffers_;
  const std::vector<CompiledLogPattern>& patterns_;
  std::vector<std::size_t> allowed_;
  bool cutting_;
  bool abandon_;
  Execution* execution_ = nullptr;
  std::size_t seen_ = 0;
  bool cut_ = false;
  std::vector<std::size_t> counts_;
};

struct InferredAcc {
  std::uint64_t seen = 0;
  std::vector<char> after, before;  // over related lines
  std::string what;
  std::size_t first_index = 0;  // in the first explanation, for the order of the report
};

}  // namespace

ExplainResult explain_incident(const Program& program, const Incident& incident,
                               const std::vector<CompiledLogPattern>& patterns,
                               const ExplainOptions& options) {
  ExplainResult result;
  const std::size_t k = incident.related.size();
  std::vector<std::size_t> allowed(patterns.size(), Guide::kUnlimited);
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    const std::string& logger = patterns[p].pattern().logger;
    if (std::find(incident.complete.begin(), incident.complete.end(), logger) ==
        incident.complete.end())
      continue;
    allowed[p] = 0;
    for (const std::size_t r : incident.related)
      if (incident.lines[r].pattern == p) ++allowed[p];
  }
  // Each related line's printed time after the first related line's (its clock's reading).
  std::vector<Micros> offset;
  for (const std::size_t line : incident.related)
    offset.push_back(micros_between(incident.record(incident.related.front()).time,
                                    incident.record(line).time));
  RunLimits limits = options;
  if (options.only) limits.max_executions = 0;  // one execution, below
  Runner runner(program, limits);
  const ExecutionBuffers& buffers = runner.buffers();
  DfsStrategy dfs;
  DporStrategy dpor;
  ReplayStrategy replay(options.only.value_or(Schedule{}));
  Strategy& inner = options.only ? static_cast<Strategy&>(replay)
                    : options.dfs ? static_cast<Strategy&>(dfs)
                                  : static_cast<Strategy&>(dpor);
  Guide guide(inner, buffers, patterns, allowed, !options.filter_only_at_end && !options.only,
              options.dfs);
  std::set<std::string> canonical;
  std::map<std::tuple<std::string, std::string, std::string, std::size_t>, InferredAcc> inferred;

  // Each execution, as it ends: does it log the incident's related lines in an order its
  // happens-before allows (and, timed, at times its durations allow)?
  const auto look = [&](Execution& ex, Outcome outcome) {
    ++result.executions;
    if (guide.cut()) {  // abandoned (DFS), or run to its end untraced (DPOR): it explains nothing
      ++result.cut;
      return;
    }
    if (outcome == Outcome::kAbandoned) return;
    if (outcome == Outcome::kStepBound) {
      result.complete = false;
      result.incomplete_why = "the step bound cut some executions";
      return;
    }
    if (outcome == Outcome::kInfeasible) return;
    if (ex.timed() && !ex.timing_feasible()) return;

    std::vector<ExecutionLine> lines;
    for (std::size_t s = 0; s < buffers.trace.size() && s < buffers.notes.size(); ++s) {
      if (buffers.notes[s].empty()) continue;
      for (LoggedLine& l : logged_lines(patterns, buffers.notes[s]))
        lines.push_back(ExecutionLine{s, l.pattern, std::move(l.values)});
    }
    const HappensBefore hb(buffers.trace);
    // A timed program: the incident's times must fit the durations (explain.hpp, "Time").
    Embedding::TimesFit times;
    TimingGraph timed_graph;
    if (ex.timed()) {
      result.timed = true;
      timed_graph.build(buffers.trace, runner.clock().record());
      if (!timed_graph.feasible()) return;
      // Each step's actor's next step (the end of the work in which the step's lines print).
      std::vector<std::int64_t> next_of(buffers.trace.size(), -1);
      {
        std::map<ActorId, std::size_t> last;
        for (std::size_t i = 0; i < buffers.trace.size(); ++i) {
          const auto it = last.find(buffers.trace[i].actor);
          if (it != last.end()) next_of[it->second] = static_cast<std::int64_t>(i);
          last[buffers.trace[i].actor] = i;
        }
      }
      times = [&, next_of](const std::vector<std::size_t>& image) {
        TimingGraph g = timed_graph;
        std::vector<std::int32_t> clock(incident.files.size(), -1);
        for (std::size_t r = 0; r < image.size(); ++r) {
          const std::size_t line = incident.related[r];
          const LogRecord& rec = incident.record(line);
          std::int32_t& c = clock[incident.lines[line].file];
          if (c < 0) c = g.add_node();
          // The line prints during its step's work: at or after the step, within the most the
          // work the step gave may last, and at or before the actor's next step.
          const std::size_t s = lines[image[r]].step;
          const std::int32_t step = TimingGraph::step_node(s);
          const std::int32_t printed = g.add_node();
          g.constrain(printed, step, 0);  // t_step - t_printed <= 0
          if (next_of[s] >= 0)
            g.constrain(TimingGraph::step_node(static_cast<std::size_t>(next_of[s])), printed, 0);
          const std::vector<detail::Work>& work = runner.clock().record().work;
          if (s < work.size() && work[s].given && work[s].d.max != kForever)
            g.constrain(step, printed, work[s].d.max);
          const Micros at = offset[r];
          g.constrain(c, printed, at + resolution_micros(rec.time));  // t - clock <= at + res
          g.constrain(printed, c, -at);                                // clock - t <= -at
        }
        for (std::size_t f = 0; f < clock.size(); ++f)
          for (std::size_t h = f + 1; h < clock.size(); ++h)
            if (clock[f] >= 0 && clock[h] >= 0) {
              g.constrain(clock[f], clock[h], incident.clock_skew_micros);
              g.constrain(clock[h], clock[f], incident.clock_skew_micros);
            }
        return g.feasible();
      };
    }
    Embedding em(incident, lines, hb, patterns, options.max_match_nodes, times);
    const bool explains = em.embed(k, true);
    if (em.ran_out()) {
      ++result.unknown;
      result.complete = false;
      result.incomplete_why = "the embedding search of some executions ran past its bound";
      return;
    }
    const auto make_explanation = [&](const std::vector<std::size_t>& image, std::size_t n) {
      Explanation e;
      for (const Decision& d : buffers.decisions)
        e.schedule.steps.push_back(d.kind == Decision::Kind::kActor
                                       ? ScheduleEntry::run(ex.actor(d.value).name())
                                       : ScheduleEntry::choice(d.value));
      e.steps = readable_steps(ex, buffers);
      for (std::size_t r = 0; r < n; ++r)
        e.step_of.push_back(lines[image[r]].step);
      if (ex.violation()) e.violated = ex.violation()->invariant;
      return e;
    };
    if (!explains) {
      if (em.time_rejected()) ++result.time_rejected;
      if (result.explaining == 0) {
        std::size_t best = result.longest_prefix;
        while (best < k) {
          Embedding probe(incident, lines, hb, patterns, options.max_match_nodes, times);
          if (!probe.embed(best + 1, false)) break;
          ++best;
          if (best > result.longest_prefix || !result.closest) {
            result.longest_prefix = best;
            result.closest = make_explanation(probe.image(), best);
          }
        }
        if (!result.closest) result.closest = make_explanation({}, 0);
      }
      return;
    }
    ++result.explaining;
    result.longest_prefix = k;
    // The canonical form of the execution's trace: its least linearization by actor name.
    const std::size_t n = buffers.trace.size();
    const auto name_of = [&](std::size_t step) -> const std::string& {
      return ex.actor(buffers.trace[step].actor).name();
    };
    std::string key;
    for (const std::size_t step : least_linearisation(
             n, [&](std::size_t t, std::size_t u) { return hb.before(t, u); },
             [&](std::size_t a, std::size_t b) { return name_of(a) < name_of(b); })) {
      key += name_of(step);
      key += '\x1f';
      key += buffers.trace[step].op.label;
      key += '\x1f';
      if (step < buffers.notes.size()) key += buffers.notes[step];
      key += '\x1e';
    }
    if (options.keep_forms) result.forms.insert(key);
    if (!canonical.insert(std::move(key)).second) return;
    ++result.explanations;
    if (!result.first) result.first = make_explanation(em.image(), k);
    // The steps no line maps to, and the related lines before and after each.
    std::vector<char> mapped(n, 0);
    for (std::size_t r = 0; r < k; ++r)
      mapped[lines[em.image()[r]].step] = 1;
    // A step is known across explanations by its actor, label and notes (the notes name the
    // program's objects: "drop temporary table ... table id 52300"), and which of the alike
    // steps of its actor it is.
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> occurrence;
    for (std::size_t s = 0; s < n; ++s) {
      const std::string actor = ex.actor(buffers.trace[s].actor).name();
      const std::string label(buffers.trace[s].op.label);
      const std::string what = s < buffers.notes.size() ? buffers.notes[s] : std::string();
      const std::size_t occ = ++occurrence[{actor, label, what}];
      if (mapped[s]) continue;
      const auto id = std::make_tuple(actor, label, what, occ);
      std::vector<char> after(k, 0), before(k, 0);
      for (std::size_t r = 0; r < k; ++r) {
        const std::size_t at = lines[em.image()[r]].step;
        after[r] = hb.before(at, s) ? 1 : 0;
        before[r] = hb.before(s, at) ? 1 : 0;
      }
      auto [it, fresh] = inferred.try_emplace(id);
      InferredAcc& acc = it->second;
      if (fresh) {
        if (result.explanations != 1) {  // absent from an earlier explanation
          inferred.erase(it);
          continue;
        }
        acc.after = after;
        acc.before = before;
        acc.what = what;
        acc.first_index = s;
      } else {
        for (std::size_t r = 0; r < k; ++r) {
          acc.after[r] = acc.after[r] && after[r];
          acc.before[r] = acc.before[r] && before[r];
        }
      }
      ++acc.seen;
    }
  };
  // The loop's observer: the guide watches the execution's notes as it runs, look() matches.
  class Matching final : public LoopObserver {
   public:
    Matching(Guide& guide, const Runner& runner, bool only, decltype(look)& look)
        : guide_(guide), runner_(runner), only_(only), look_(look) {}
    bool next() override { return !(only_ && runner_.executions() == 1); }
    void before(Execution& ex) override { guide_.attach(&ex); }
    void ended(Execution& ex, Outcome outcome) override {
      guide_.attach(nullptr);
      look_(ex, outcome);
    }
    void progress(std::uint64_t executions) override {
      if (on_progress) on_progress(executions);
    }
    std::function<void(std::uint64_t)> on_progress;

   private:
    Guide& guide_;
    const Runner& runner_;
    const bool only_;
    decltype(look)& look_;
  } matching(guide, runner, options.only.has_value(), look);
  matching.on_progress = options.on_progress;
  LoopObserver* const observers[] = {&matching};
  ExecutionOptions eo;
  eo.tracing = true;
  eo.check_accesses = options.check_accesses;
  switch (runner.loop(guide, eo, observers)) {
    case LoopEnd::kInterrupted:
      result.complete = false;
      result.interrupted = true;
      result.incomplete_why = "interrupted";
      break;
    case LoopEnd::kExecutionBudget:
      result.complete = false;
      result.incomplete_why =
          "the budget of " + std::to_string(options.max_executions) + " executions ran out";
      break;
    case LoopEnd::kTimeBudget:
      result.complete = false;
      result.incomplete_why = "the time budget ran out";
      break;
    case LoopEnd::kSlice:
    case LoopEnd::kExhausted:
    case LoopEnd::kObserver:
      break;
  }
  result.complete = result.complete && (options.only || inner.coverage().complete);
  if (!result.complete && result.incomplete_why.empty())
    result.incomplete_why = "the search did not end";
  std::vector<std::pair<std::size_t, InferredStep>> common;
  for (const auto& [id, acc] : inferred) {
    if (acc.seen != result.explanations || result.explanations == 0) continue;
    InferredStep step;
    step.actor = std::get<0>(id);
    step.label = std::get<1>(id);
    step.occurrence = std::get<3>(id);
    step.what = acc.what;
    for (std::size_t r = 0; r < k; ++r) {
      if (acc.after[r]) step.after_line = r;
      if (acc.before[r] && !step.before_line) step.before_line = r;
    }
    if (!step.after_line || !step.before_line) continue;
    common.emplace_back(acc.first_index, std::move(step));
  }
  std::sort(common.begin(), common.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, step] : common)
    result.inferred.push_back(std::move(step));
  return result;
}

}  // namespace interleave
