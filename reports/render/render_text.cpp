// render_text: the counterexample as a timeline with one column per actor (or, past
// TextOptions::max_columns actors, one line per step).
#include "reports/analysis/causal_slice.hpp"
#include "reports/render/render.hpp"
#include "reports/render/text_util.hpp"
#include "reports/render/wall_clock.hpp"
#include "reports/trace/trace_view.hpp"

#include <algorithm>
#include <map>

namespace interleave::reports {

namespace {

constexpr std::string_view kMarker = "=> ";  // marks the violating step
constexpr std::string_view kNoMarker = "   ";

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t w = text::display_width(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  const std::size_t w = text::display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

void rtrim(std::string& s) {
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
}

}  // namespace

std::string render_text(const TraceDocument& doc) {
  return render_text(doc, TextOptions{});
}

std::string render_text(const TraceDocument& doc, const TextOptions& options) {
  const Counterexample& c = doc.counterexample;
  const std::vector<std::string> actors = actors_in_order(c);
  std::map<std::string, std::size_t> column_of;
  for (std::size_t i = 0; i < actors.size(); ++i)
    column_of.emplace(actors[i], i);
  const std::optional<std::size_t> violating = violating_position(c);
  const std::size_t max_width = std::max<std::size_t>(options.max_column_width, 8);

  // A timed trace's step: its offset from the origin ("t+0.025s", from describe_step), or, when
  // the program gave the origin's wall-clock time, the local time as fe.log prints it first.
  auto step_text = [&c](const TraceStep& step) {
    if (!c.wall_clock || !step.time) return describe_step(step, Wording::kReport);
    TraceStep bare = step;
    bare.time.reset();
    return format_wall_clock(*c.wall_clock, *step.time) + " (t+" +
           interleave::format_seconds(*step.time) + ") " + describe_step(bare, Wording::kReport);
  };
  // Cells: the wrapped "label: what" of each step.
  std::vector<std::vector<std::string>> cells(c.steps.size());
  std::vector<std::size_t> width(actors.size(), 0);
  for (std::size_t i = 0; i < actors.size(); ++i)
    width[i] = text::display_width(text::printable(actors[i]));  // names are never cut
  for (std::size_t s = 0; s < c.steps.size(); ++s) {
    const TraceStep& step = c.steps[s];
    cells[s] = text::wrap(text::printable(step_text(step)), max_width);
    std::size_t& w = width[column_of.at(step.actor)];
    for (const std::string& line : cells[s])
      w = std::max(w, text::display_width(line));
  }
  std::size_t index_width = 4;  // "step"
  for (const TraceStep& step : c.steps)
    index_width = std::max(index_width, std::to_string(step.index).size());

  std::string out;
  auto emit = [&out](std::string line) {
    rtrim(line);
    out += line;
    out += '\n';
  };

  emit(text::printable(counterexample_headline(c)));
  if (!doc.scenario_file.empty()) emit(text::printable("Scenario: " + doc.scenario_file));
  if (!doc.strategy.empty()) emit(text::printable("Strategy: " + doc.strategy));
  if (doc.scenario.is_object() && doc.scenario.contains("description") &&
      doc.scenario["description"].is_string()) {
    const std::string description = doc.scenario["description"].get<std::string>();
    if (!description.empty()) {
      emit("");
      for (const std::string& line : text::wrap(text::printable(description), 100))
        emit(line);
    }
  }
  emit("");

  std::string header = std::string(kNoMarker) + pad_left("step", index_width);
  std::string rule = std::string(kNoMarker.size() + index_width + 1, '-');
  for (std::size_t i = 0; i < actors.size(); ++i) {
    header += " | " + pad_right(text::printable(actors[i]), width[i]);
    rule += "+" + std::string(width[i] + 2, '-');
  }
  const bool as_list = actors.size() > options.max_columns;
  if (as_list) {
    // The list: one step per line, the actor named on it, the text wrapped under its own column.
    std::size_t actor_width = 5;  // "actor"
    for (const std::string& a : actors)
      actor_width = std::max(actor_width, text::display_width(text::printable(a)));
    const std::string indent(kNoMarker.size() + index_width + 3 + actor_width + 3, ' ');
    emit(std::string(kNoMarker) + pad_left("step", index_width) + " | " +
         pad_right("actor", actor_width) + " | label: what happened");
    emit(std::string(kNoMarker.size() + index_width + 1, '-') + "+" +
         std::string(actor_width + 2, '-') + "+" + std::string(24, '-'));
    for (std::size_t s = 0; s < c.steps.size(); ++s) {
      const TraceStep& step = c.steps[s];
      const std::vector<std::string> lines =
          text::wrap(text::printable(step_text(step)), 100);
      for (std::size_t line = 0; line < lines.size(); ++line)
        emit(line == 0
                 ? std::string(violating == s ? kMarker : kNoMarker) +
                       pad_left(std::to_string(step.index), index_width) + " | " +
                       pad_right(text::printable(step.actor), actor_width) + " | " + lines[line]
                 : indent + lines[line]);
    }
  } else {
    emit(header);
    emit(rule);
  }
  for (std::size_t s = 0; !as_list && s < c.steps.size(); ++s) {
    const std::size_t column = column_of.at(c.steps[s].actor);
    for (std::size_t line = 0; line < cells[s].size(); ++line) {
      std::string row;
      if (line == 0) {
        row = std::string(violating == s ? kMarker : kNoMarker) +
              pad_left(std::to_string(c.steps[s].index), index_width);
      } else {
        row = std::string(kNoMarker.size() + index_width, ' ');
      }
      for (std::size_t i = 0; i < actors.size(); ++i)
        row += " | " + pad_right(i == column ? cells[s][line] : std::string(), width[i]);
      emit(row);
    }
  }
  emit("");
  emit(text::printable("Violation: " + describe_violation(c, Wording::kReport),
                       /*keep_newlines=*/true));
  if (doc.race) emit(text::printable("The race: " + describe_race(c, *doc.race)));
  const CausalSlice slice = causal_slice(doc);
  if (!slice.complete()) {
    emit("Not involved in the violation (its causal slice: " +
         std::to_string(slice.involved_count()) + " of " + std::to_string(c.steps.size()) +
         " steps):");
    for (const CausalSlice::Folded& f : slice.folded)
      emit(text::printable("  " + describe_folded(f)));
  }
  if (!c.state.is_null()) {
    emit("");
    emit("State at the violation:");
    out += text::printable(c.state.dump(2, ' ', false, nlohmann::json::error_handler_t::replace),
                           /*keep_newlines=*/true);
    out += '\n';
  }
  return out;
}

}  // namespace interleave::reports
