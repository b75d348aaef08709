// The derived views of the property and goal table (properties.hpp), and the reporting: found()
// at a step, the end-of-execution checks in kEndOfExecutionOrder.
#include "model/starrocks/properties.hpp"

#include <stdexcept>

namespace interleave::model {

namespace {

std::vector<std::string> names(const std::vector<const Fact*>& facts) {
  std::vector<std::string> v;
  for (const Fact* f : facts)
    v.emplace_back(f->name);
  return v;
}

constexpr bool end_order_is_complete() {
  std::size_t at_end = 0;
  for (const Fact* f : kFacts)
    if (f->kind == FactKind::kFoundAtStep || f->kind == FactKind::kAtEnd) ++at_end;
  for (const Fact* f : kEndOfExecutionOrder)
    if (f->kind != FactKind::kFoundAtStep && f->kind != FactKind::kAtEnd) return false;
  return at_end == kEndOfExecutionOrder.size();
}
static_assert(end_order_is_complete(),
              "kEndOfExecutionOrder lists exactly the properties reported at the end");

}  // namespace

std::vector<const Fact*> properties() {
  std::vector<const Fact*> v;
  for (const Fact* f : kFacts)
    if (f->kind != FactKind::kGoal) v.push_back(f);
  return v;
}

std::vector<const Fact*> coverage_goals() {
  std::vector<const Fact*> v;
  for (const Fact* f : kFacts)
    if (f->kind == FactKind::kGoal) v.push_back(f);
  return v;
}

std::vector<std::string> invariant_names() {
  return names(properties());
}

std::vector<std::string> coverage_goal_names() {
  return names(coverage_goals());
}

nlohmann::json fact_catalog(const std::vector<const Fact*>& facts) {
  nlohmann::json v = nlohmann::json::array();
  for (const Fact* f : facts)
    v.push_back({{"name", f->name}, {"description", f->description}, {"checked", f->checked}});
  return v;
}

void Properties::install(Execution& ex,
                         std::vector<std::pair<const Fact*, std::function<Check()>>> at_end) {
  for (const Fact* property : kEndOfExecutionOrder) {
    if (property->kind == FactKind::kFoundAtStep) {
      ex.deferred_check(std::string(property->name), [this, property]() -> std::optional<Finding> {
        for (const Found& f : found_)
          if (f.property == property) return Finding{f.message, f.step};
        return std::nullopt;
      });
      continue;
    }
    for (auto& [p, check] : at_end)
      if (p == property) ex.final_check(std::string(property->name), std::move(check));
  }
}

void Properties::found(Actor& a, const Fact& property, std::string message, std::string subject) {
  if (property.kind == FactKind::kAtStep) a.violation(property.name, std::move(message));
  if (property.kind != FactKind::kFoundAtStep)
    throw std::logic_error("found() of '" + std::string(property.name) +
                           "', which is not checked at a step");
  found_.push_back({&property, std::move(message), std::move(subject),
                    a.execution().current_step().value_or(0)});
}

void Properties::fingerprint(StateHasher& h) const {
  for (const Fact* property : kEndOfExecutionOrder) {
    if (property->kind != FactKind::kFoundAtStep) continue;
    const Found* first = nullptr;
    for (const Found& f : found_)
      if (f.property == property) {
        first = &f;
        break;
      }
    h << (first != nullptr);
    if (first != nullptr) h << first->subject;
  }
}

}  // namespace interleave::model
