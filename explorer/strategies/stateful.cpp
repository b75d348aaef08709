#include "explorer/strategies/stateful.hpp"

#include "explorer/core/execution.hpp"
#include "explorer/strategies/determinism.hpp"

#include <cstdio>

namespace interleave {

namespace {

std::string hex(const Fingerprint& f) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(f.hi),
                static_cast<unsigned long long>(f.lo));
  return buf;
}

std::string decision_text(const Decision& d) {
  return d.kind == Decision::Kind::kActor ? "actor " + std::to_string(d.value)
                                          : "choice " + std::to_string(d.value);
}

}  // namespace

bool StatefulStrategy::begin_execution() {
  decisions_ = 0;
  configured_ = false;
  sleep_ = ActorSet();
  opened_.clear();
  trail_.clear();
  audit_ = nullptr;
  abandon_reason_.clear();
  if (!started_) {
    started_ = true;
    return true;
  }
  // The next alternative of the deepest node that has one: an enabled actor neither asleep nor
  // explored there.
  const auto advanced = path_.backtrack([](Node& n) {
    n.done.insert(n.actor());
    return n.enabled().minus(n.sleep | n.done).first();
  });
  if (advanced) return true;
  exhausted_ = true;
  return false;
}

ActorSet StatefulStrategy::child_sleep(const Node& node, const SchedulingPoint& point) const {
  const Op& taken = *point.pending[node.actor()];
  ActorSet child;
  (node.sleep | node.done).for_each([&](ActorId b) {
    if (b != node.actor() && !dependency_.dependent(*point.pending[b], taken)) child.insert(b);
  });
  return child;
}

ActorId StatefulStrategy::next_actor(const SchedulingPoint& point) {
  if (!configured_) [[unlikely]] {
    // The relation covers the invariants (the same in every execution).
    if (!dependency_.configure(point.invariants)) throw nondeterminism::invariants();
    configured_ = true;
  }
  if (const Node* n = path_.replay(point)) {
    ++decisions_;
    sleep_ = child_sleep(*n, point);
    return n->actor();
  }
  const Fingerprint fp = point.state->state_fingerprint();
  // An audited state was first visited earlier in this execution: its recording needs this one.
  if (!opened_.empty()) trail_.emplace_back(decisions_, fp);
  if (audit_ != nullptr) return audit_next_actor(point, fp);

  const bool audited = options_.audit_period != 0 && fp.hi % options_.audit_period == 0;
  const ActorSet sleep = sleep_ & point.enabled;
  switch (visited_.visit(fp, sleep)) {
    case VisitedStates::Seen::kCovered: {
      const auto rec = audited ? recordings_.find(Key{fp.hi, fp.lo}) : recordings_.end();
      if (rec != recordings_.end()) {
        // Replay what followed the first visit, and compare.
        ++audits_;
        audit_ = &rec->second;
        audit_state_ = fp;
        audit_decision_ = 0;
        audit_point_ = 0;
        return audit_next_actor(point, fp);
      }
      ++pruned_;
      abandon_reason_ = "state explored before";
      return kNoActor;
    }
    case VisitedStates::Seen::kReopened:
      ++reopened_;
      break;
    case VisitedStates::Seen::kNew:
      if (audited) opened_.emplace_back(decisions_, fp);
      break;
    case VisitedStates::Seen::kUnstored:
      break;
  }
  const ActorId first = point.enabled.minus(sleep).first();
  if (first == kNoActor) {
    abandon_reason_ = "sleep-set blocked";
    return kNoActor;
  }
  Node node;
  node.kind = Decision::Kind::kActor;
  node.options = point.enabled.bits();
  node.chosen = first;
  node.sleep = sleep;
  const Node& pushed = path_.push(node);
  ++decisions_;
  sleep_ = child_sleep(pushed, point);
  return first;
}

ActorId StatefulStrategy::audit_next_actor(const SchedulingPoint& point, const Fingerprint& fp) {
  if (audit_decision_ > 0) {
    if (audit_point_ >= audit_->states.size())
      audit_failure("the execution goes on where the first visit's ended");
    const Fingerprint& then = audit_->states[audit_point_++];
    if (fp != then)
      audit_failure("after " + std::to_string(audit_decision_) +
                    " decisions the state is " + hex(fp) + ", where the first visit reached " +
                    hex(then));
  }
  if (audit_decision_ == audit_->continuation.size()) {
    if (audit_->outcome != Outcome::kAbandoned)
      audit_failure("the first visit's execution ended here (" +
                    std::string(to_string(audit_->outcome)) + "), this one goes on");
    abandon_reason_ = "state explored before (audited)";
    return kNoActor;
  }
  const Decision& d = audit_->continuation[audit_decision_++];
  ++decisions_;
  if (d.kind != Decision::Kind::kActor || !point.enabled.contains(static_cast<ActorId>(d.value)))
    audit_failure("the first visit's decision " + decision_text(d) + " cannot be taken");
  return static_cast<ActorId>(d.value);
}

std::optional<std::uint32_t> StatefulStrategy::next_choice(const ChoicePoint& point) {
  if (const Node* n = path_.replay(point)) {
    ++decisions_;
    return n->chosen;
  }
  if (audit_ != nullptr) {
    if (audit_decision_ == audit_->continuation.size())
      audit_failure("the first visit's execution ended here, this one makes a choice");
    const Decision& d = audit_->continuation[audit_decision_++];
    ++decisions_;
    if (d.kind != Decision::Kind::kChoice || d.value >= point.n)
      audit_failure("the first visit's decision " + decision_text(d) + " cannot be taken");
    return d.value;
  }
  ++decisions_;
  return path_.push_choice(point).chosen;
}

void StatefulStrategy::end_execution(const ExecutionRecord& record) {
  path_.finish();
  if (path_.size() > max_depth_) max_depth_ = path_.size();
  if (audit_ != nullptr) {
    const Recording& then = *audit_;
    if (audit_decision_ != then.continuation.size() || record.outcome != then.outcome)
      audit_failure("the execution ended " + std::string(to_string(record.outcome)) + " after " +
                    std::to_string(audit_decision_) + " decisions; the first visit's ended " +
                    std::string(to_string(then.outcome)) + " after " +
                    std::to_string(then.continuation.size()));
    if (record.property != then.property)
      audit_failure("the execution violated '" + std::string(record.property) +
                    "'; the first visit's violated '" + then.property + "'");
    if (record.state != nullptr && record.state->state_fingerprint() != then.final_state)
      audit_failure("the final state is " + hex(record.state->state_fingerprint()) +
                    ", the first visit's was " + hex(then.final_state));
    audit_ = nullptr;
  }
  for (const auto& [from, fp] : opened_) {
    Recording r;
    r.continuation.assign(record.decisions.begin() + static_cast<std::ptrdiff_t>(from),
                          record.decisions.end());
    for (const auto& [at, later] : trail_)
      if (at > from) r.states.push_back(later);
    r.outcome = record.outcome;
    r.property = std::string(record.property);
    if (record.state != nullptr) r.final_state = record.state->state_fingerprint();
    recordings_.emplace(Key{fp.hi, fp.lo}, std::move(r));
  }
}

void StatefulStrategy::audit_failure(const std::string& what) const {
  throw ProgramError(
      "stateful audit: two executions reached the state " + hex(audit_state_) +
      " and behaved differently under the same decisions from it: " + what +
      ". The fingerprint leaves out something that decides what happens next: a local an actor "
      "did not declare (Actor::declare_locals) or shared state the program's fingerprint "
      "function does not write (Execution::fingerprint)");
}

double StatefulStrategy::collision_bound() const {
  const double n = static_cast<double>(visited_.size());
  return n * n / 6.80564733841876927e38;  // 2^129
}

Coverage StatefulStrategy::coverage() const {
  if (!exhausted_) return {false, "the stateful search stopped before the end"};
  char bound[32];
  std::snprintf(bound, sizeof bound, "%.1e", collision_bound());
  return {true, "every reachable state (DFS with sleep sets and state caching, " +
                    std::to_string(visited_.size()) +
                    " states; 128-bit fingerprints: probability of a collision at most " +
                    bound + ")"};
}

}  // namespace interleave
