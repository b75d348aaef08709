#include "explorer/core/constraints.hpp"

#include "explorer/core/input_error.hpp"

#include <algorithm>
#include <limits>

namespace interleave {

namespace {

std::string ordinal(std::uint32_t n) {
  const std::uint32_t tens = n % 100;
  const char* suffix = "th";
  if (tens < 11 || tens > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items)
    s += (s.empty() ? "'" : ", '") + i + "'";
  return s;
}

StepSelector selector_from_json(const JsonReader& r, const ConstraintVocabulary& vocabulary) {
  r.expect_keys({"actor", "label", "occurrence"});
  StepSelector s;
  const JsonReader actor = r.at("actor");
  s.actor = actor.as_string();
  if (!vocabulary.actors.empty() &&
      std::find(vocabulary.actors.begin(), vocabulary.actors.end(), s.actor) ==
          vocabulary.actors.end())
    actor.fail("unknown actor '" + s.actor + "'" + did_you_mean(s.actor, vocabulary.actors) +
               "; this scenario's program can create: " + quoted_list(vocabulary.actors));
  const JsonReader label = r.at("label");
  s.label = label.as_string();
  if (s.label.empty()) label.fail("must not be empty: a step label such as 'C2'");
  if (!vocabulary.labels.empty() &&
      std::find(vocabulary.labels.begin(), vocabulary.labels.end(), s.label) ==
          vocabulary.labels.end())
    label.fail("unknown step label '" + s.label + "'" + did_you_mean(s.label, vocabulary.labels) +
               "; this scenario's model has: " + quoted_list(vocabulary.labels));
  s.occurrence = static_cast<std::uint32_t>(
      r.uint_or("occurrence", 1, 1, std::numeric_limits<std::uint32_t>::max()));
  return s;
}

// Whether `to` is reachable from `from` in the order the constraints so far and program order
// (an actor's n-th step with a label precedes its m-th with that label for n < m) impose.
bool ordered(const std::vector<StepSelector>& nodes,
             const std::vector<std::pair<std::size_t, std::size_t>>& edges, std::size_t from,
             std::size_t to) {
  std::vector<bool> seen(nodes.size(), false);
  std::vector<std::size_t> stack{from};
  seen[from] = true;
  while (!stack.empty()) {
    const std::size_t n = stack.back();
    stack.pop_back();
    if (n == to) return true;
    auto visit = [&](std::size_t m) {
      if (!seen[m]) {
        seen[m] = true;
        stack.push_back(m);
      }
    };
    for (const auto& [a, b] : edges)
      if (a == n) visit(b);
    for (std::size_t m = 0; m < nodes.size(); ++m)
      if (nodes[m].actor == nodes[n].actor && nodes[m].label == nodes[n].label &&
          nodes[m].occurrence > nodes[n].occurrence)
        visit(m);
  }
  return false;
}

}  // namespace

std::string to_string(const StepSelector& s) {
  return s.actor + "'s " + ordinal(s.occurrence) + " " + s.label;
}

std::string to_string(const OrderConstraint& c) {
  return to_string(c.after) + " after " + to_string(c.before);
}

std::vector<OrderConstraint> order_constraints_from_json(const JsonReader& r,
                                                         const ConstraintVocabulary& vocabulary) {
  std::vector<OrderConstraint> out;
  std::vector<StepSelector> nodes;
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  auto node = [&](const StepSelector& s) {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i] == s) return i;
    nodes.push_back(s);
    return nodes.size() - 1;
  };
  for (const JsonReader& item : r.items()) {
    item.expect_keys({"before", "after"});
    OrderConstraint c;
    c.before = selector_from_json(item.at("before"), vocabulary);
    c.after = selector_from_json(item.at("after"), vocabulary);
    if (c.before == c.after)
      item.fail("orders " + to_string(c.before) +
                " after itself: 'before' and 'after' must name two different steps");
    const std::size_t b = node(c.before);
    const std::size_t a = node(c.after);
    if (ordered(nodes, edges, a, b))
      item.fail("orders " + to_string(c.after) + " after " + to_string(c.before) +
                ", which the constraints before it (or the actor's own order of its steps) "
                "already place after it: a cycle no execution can satisfy");
    edges.emplace_back(b, a);
    out.push_back(std::move(c));
  }
  return out;
}

OrderGates::OrderGates(std::vector<OrderConstraint> constraints, ObjectId first_object)
    : constraints_(std::move(constraints)),
      first_object_(first_object),
      done_(constraints_.size(), false) {}

void OrderGates::actor_added(ActorId id, std::string_view name) {
  if (actors_.size() <= id) actors_.resize(static_cast<std::size_t>(id) + 1);
  ActorState& st = actors_[id];
  st = ActorState{};
  st.name = std::string(name);
  for (std::size_t k = 0; k < constraints_.size(); ++k) {
    const auto add = [&](const StepSelector& s, bool before) {
      if (s.actor != name) return;
      st.watches.push_back(Watch{static_cast<std::uint32_t>(k), before, s.occurrence, s.label});
      const bool counted = std::any_of(st.counts.begin(), st.counts.end(),
                                       [&](const auto& c) { return c.first == s.label; });
      if (!counted) st.counts.emplace_back(s.label, 0);
    };
    add(constraints_[k].before, true);
    add(constraints_[k].after, false);
  }
}

void OrderGates::announced(ActorId id, std::string_view label, std::vector<Access>& extra) {
  if (id >= actors_.size()) return;
  ActorState& st = actors_[id];
  st.fulfils.clear();
  st.awaits.clear();
  st.pending_count = nullptr;
  if (st.watches.empty()) return;
  for (auto& [l, n] : st.counts)
    if (l == label) st.pending_count = &n;
  if (st.pending_count == nullptr) return;
  const std::uint32_t occurrence = *st.pending_count + 1;
  for (const Watch& w : st.watches) {
    if (w.occurrence != occurrence || w.label != label) continue;
    const ObjectId object = first_object_ + w.constraint;
    if (w.before) {
      st.fulfils.push_back(w.constraint);
      extra.push_back(Access{object, AccessKind::kWrite});
    } else {
      st.awaits.push_back(w.constraint);
      extra.push_back(Access{object, AccessKind::kWait});
    }
  }
}

bool OrderGates::held(ActorId id) const {
  if (id >= actors_.size()) return false;
  for (const std::uint32_t k : actors_[id].awaits)
    if (!done_[k]) return true;
  return false;
}

void OrderGates::executed(ActorId id) {
  if (id >= actors_.size()) return;
  ActorState& st = actors_[id];
  if (st.pending_count != nullptr) ++*st.pending_count;
  for (const std::uint32_t k : st.fulfils)
    done_[k] = true;
  st.fulfils.clear();
  st.awaits.clear();
  st.pending_count = nullptr;
}

std::string OrderGates::infeasible_message(ActorSet actors) const {
  std::string msg = "infeasible under the ordering constraints:";
  bool first = true;
  actors.for_each([&](ActorId id) {
    if (!held(id)) return;
    for (const std::uint32_t k : actors_[id].awaits) {
      if (done_[k]) continue;
      msg += std::string(first ? " " : "; ") + to_string(constraints_[k].after) +
             " is held until " + to_string(constraints_[k].before) + ", which cannot run now";
      first = false;
    }
  });
  return msg;
}

}  // namespace interleave
