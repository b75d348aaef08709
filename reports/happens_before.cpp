#include "reports/happens_before.hpp"

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

  std::vector<HbEdge> edges;
  std::vector<std::size_t> last_of_actor(actors, kNone);
  for (std::size_t s = 0; s < n; ++s) {
    const std::size_t x = indexed[s].actor;
    if (last_of_actor[x] != kNone)
      edges.push_back(HbEdge{last_of_actor[x], s, HbEdge::Kind::kProgramOrder, {}});
    last_of_actor[x] = s;
    // For each access of s, the latest earlier step of another actor conflicting with it.
    std::vector<HbEdge> into_s;  // in order of first appearance among s's accesses
    for (const Access& b : indexed[s].accesses) {
      for (std::size_t k = s; k-- > 0;) {
        if (indexed[k].actor == x) continue;
        HbEdge* edge = nullptr;
        for (const Access& a : indexed[k].accesses) {
          if (!conflicts(a, b)) continue;
          if (edge == nullptr) {
            auto it = std::find_if(into_s.begin(), into_s.end(),
                                   [k](const HbEdge& e) { return e.from == k; });
            if (it == into_s.end())
              it = into_s.insert(into_s.end(), HbEdge{k, s, HbEdge::Kind::kConflict, {}});
            edge = &*it;
          }
          ConflictingAccess pair{object_names[a.object], a.kind, b.kind};
          if (std::find(edge->accesses.begin(), edge->accesses.end(), pair) == edge->accesses.end())
            edge->accesses.push_back(std::move(pair));
        }
        if (edge != nullptr) break;
      }
    }
    for (HbEdge& e : into_s)
      edges.push_back(std::move(e));
  }
  std::sort(edges.begin(), edges.end(), [](const HbEdge& a, const HbEdge& b) {
    return std::tie(a.to, a.kind, a.from) < std::tie(b.to, b.kind, b.from);
  });
  return edges;
}

}  // namespace interleave::reports
