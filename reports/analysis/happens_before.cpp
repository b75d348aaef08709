#include "reports/analysis/happens_before.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace interleave::reports {

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

struct IndexedStep {
  std::size_t actor = 0;
  std::vector<Access> accesses;
};

}  // namespace

std::vector<HbEdge> happens_before_edges(const std::vector<TraceStep>& steps) {
  const std::size_t n = steps.size();
  // Actors and objects numbered in order of first appearance (names are only unique per document).
  std::map<std::string, std::size_t> actor_ids;
  std::map<std::string, ObjectId> object_ids;
  std::vector<std::string> object_names;
  std::vector<IndexedStep> indexed(n);
  for (std::size_t s = 0; s < n; ++s) {
    indexed[s].actor = actor_ids.emplace(steps[s].actor, actor_ids.size()).first->second;
    for (const TraceAccess& a : steps[s].accesses) {
      auto [it, fresh] = object_ids.emplace(a.object, static_cast<ObjectId>(object_names.size()));
      if (fresh) object_names.push_back(a.object);
      indexed[s].accesses.push_back(Access{it->second, a.kind});
    }
  }
  const std::size_t actors = actor_ids.size();

  std::map<std::size_t, std::size_t> position_of;  // TraceStep::index -> position
  for (std::size_t s = 0; s < n; ++s)
    position_of.emplace(steps[s].index, s);

  std::vector<HbEdge> edges;
  // clock[s][y]: the latest step of actor y that happens before s or is s (kNone if none).
  std::vector<std::vector<std::size_t>> clock(n);
  std::vector<std::size_t> last_of_actor(actors, kNone);
  for (std::size_t s = 0; s < n; ++s) {
    const std::size_t x = indexed[s].actor;
    std::vector<std::size_t> vc(actors, kNone);
    if (last_of_actor[x] != kNone) {
      vc = clock[last_of_actor[x]];
      edges.push_back(HbEdge{last_of_actor[x], s, HbEdge::Kind::kProgramOrder, {}});
    }
    last_of_actor[x] = s;
    if (steps[s].after) {
      const auto it = position_of.find(*steps[s].after);
      if (it != position_of.end() && it->second < s) {
        const std::size_t from = it->second;
        for (std::size_t a = 0; a < actors; ++a)
          if (clock[from][a] != kNone && (vc[a] == kNone || clock[from][a] > vc[a]))
            vc[a] = clock[from][a];
        edges.push_back(HbEdge{from, s, HbEdge::Kind::kEnabling, {}});
      }
    }

    std::vector<HbEdge> into_s;  // conflict edges, in order of first appearance
    for (const Access& b : indexed[s].accesses) {
      // The latest earlier step of each other actor with an access conflicting with b.
      std::vector<std::size_t> sources;
      std::vector<bool> found(actors, false);
      for (std::size_t k = s; k-- > 0;) {
        const std::size_t y = indexed[k].actor;
        if (y == x || found[y]) continue;
        const auto& acc = indexed[k].accesses;
        if (std::any_of(acc.begin(), acc.end(), [&](const Access& a) { return conflicts(a, b); })) {
          found[y] = true;
          sources.push_back(k);
        }
      }
      for (std::size_t k : sources) {
        // Left out when it happens before another source: the order follows through that one.
        const std::size_t y = indexed[k].actor;
        if (std::any_of(sources.begin(), sources.end(), [&](std::size_t other) {
              return other != k && clock[other][y] != kNone && clock[other][y] >= k;
            }))
          continue;
        auto it = std::find_if(into_s.begin(), into_s.end(),
                               [k](const HbEdge& e) { return e.from == k; });
        if (it == into_s.end())
          it = into_s.insert(into_s.end(), HbEdge{k, s, HbEdge::Kind::kConflict, {}});
        for (const Access& a : indexed[k].accesses) {
          if (!conflicts(a, b)) continue;
          ConflictingAccess pair{object_names[a.object], a.kind, b.kind};
          if (std::find(it->accesses.begin(), it->accesses.end(), pair) == it->accesses.end())
            it->accesses.push_back(std::move(pair));
        }
      }
    }
    for (HbEdge& e : into_s) {
      for (std::size_t a = 0; a < actors; ++a)
        if (clock[e.from][a] != kNone && (vc[a] == kNone || clock[e.from][a] > vc[a]))
          vc[a] = clock[e.from][a];
      edges.push_back(std::move(e));
    }
    vc[x] = s;
    clock[s] = std::move(vc);
  }
  std::sort(edges.begin(), edges.end(), [](const HbEdge& a, const HbEdge& b) {
    return std::tie(a.to, a.kind, a.from) < std::tie(b.to, b.kind, b.from);
  });
  return edges;
}

std::vector<std::vector<bool>> happens_before_closure(std::size_t count,
                                                      const std::vector<HbEdge>& edges) {
  std::vector<std::vector<std::size_t>> into(count);
  for (const HbEdge& e : edges)
    if (e.from < e.to && e.to < count) into[e.to].push_back(e.from);
  std::vector<std::vector<bool>> past(count, std::vector<bool>(count, false));
  for (std::size_t s = 0; s < count; ++s) {  // edges go forward: earlier rows are complete
    past[s][s] = true;
    for (std::size_t from : into[s])
      for (std::size_t q = 0; q <= from; ++q)
        if (past[from][q]) past[s][q] = true;
  }
  return past;
}

std::vector<HbEdge> diagram_edges(const std::vector<TraceStep>& steps,
                                  const std::vector<bool>& shown) {
  const std::size_t n = std::min(steps.size(), shown.size());
  std::vector<HbEdge> among;
  std::map<std::string, std::size_t> last;  // each actor's latest shown step
  for (std::size_t s = 0; s < n; ++s) {
    if (!shown[s]) continue;
    const auto it = last.find(steps[s].actor);
    if (it != last.end()) among.push_back(HbEdge{it->second, s, HbEdge::Kind::kProgramOrder, {}});
    last[steps[s].actor] = s;
  }
  for (HbEdge& e : happens_before_edges(steps))
    if (e.kind != HbEdge::Kind::kProgramOrder && e.to < n && shown[e.from] && shown[e.to])
      among.push_back(std::move(e));
  const std::vector<std::vector<bool>> past = happens_before_closure(n, among);
  std::vector<HbEdge> kept;
  for (HbEdge& e : among) {
    bool implied = false;
    for (std::size_t w = e.from + 1; w < e.to && !implied; ++w)
      implied =
          e.kind != HbEdge::Kind::kProgramOrder && shown[w] && past[w][e.from] && past[e.to][w];
    if (!implied) kept.push_back(std::move(e));
  }
  std::sort(kept.begin(), kept.end(), [](const HbEdge& a, const HbEdge& b) {
    return std::tie(a.to, a.kind, a.from) < std::tie(b.to, b.kind, b.from);
  });
  return kept;
}

bool passes_something(const HbEdge& e) {
  if (e.kind == HbEdge::Kind::kEnabling) return true;
  if (e.kind != HbEdge::Kind::kConflict) return false;
  return std::any_of(e.accesses.begin(), e.accesses.end(), [](const ConflictingAccess& a) {
    using K = AccessKind;
    const bool written = a.from_kind == K::kWrite || a.from_kind == K::kReadModifyWrite;
    const bool released = a.from_kind == K::kRelease || a.from_kind == K::kReleaseShared;
    const bool observed =
        a.to_kind == K::kRead || a.to_kind == K::kReadModifyWrite || a.to_kind == K::kWait;
    const bool acquired = a.to_kind == K::kAcquire || a.to_kind == K::kAcquireShared;
    return (written && observed) || (released && acquired);
  });
}

}  // namespace interleave::reports
