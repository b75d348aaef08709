// The happens-before relation of a counterexample's steps, as render_dot draws it and as
// render_mermaid uses it to pick the other end of a message.
//
// Three kinds of edges, all from an earlier step to a later one:
//  - program order: from each step to the next step of the same actor;
//  - enabling: from the step a step records as `after` (the step that spawned its actor, for
//    the actor's first step, or the last step of the actor it joins) to that step;
//  - conflict: for each step s, each access of s (to object o) and each other actor Y, from the
//    latest earlier step of Y with an access to o conflicting with it (interleave::conflicts on
//    the declared access kinds; object names are mapped to ids per step list). These are the
//    conflicts that ordered the steps: s read what that step wrote, overwrote what it read or
//    wrote, took the lock it released... A source that happens before another source of the same
//    access is left out (the order follows through that one), and two steps linked through
//    several objects get one edge listing them all.
// A read keeps its edge from the write it read even when a chain through a lock also orders the
// two. Pure and deterministic: edges sorted by (to, kind, from).
//
// The relation is the engine's (explorer/core/happens_before.hpp): the three kinds are its three
// sources of direct happens-before (the same actor, Event::hb_pred recorded as `after`, conflicts()
// of the declared accesses), so the transitive closure of these edges is the engine's
// happens-before of the same execution (HappensBefore), as long as distinct objects have distinct
// names and every `after` is a step of the list; tests/reports/test_happens_before.cpp checks it
// pair by pair. The edges are not the engine's direct predecessors (for_each_direct_predecessor,
// every earlier step of the actor and every earlier conflicting step, unlabelled, over Events and
// ids): a drawing needs one program-order edge from the actor's previous step, the access pairs
// behind each conflict, and no conflict edge another source already implies, over TraceSteps and
// names. They are computed here with the engine's conflicts() as the one definition of a conflict.
#pragma once

#include "explorer/search/explorer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace interleave::reports {

/// One pair of accesses that makes two steps conflict.
struct ConflictingAccess {
  std::string object;
  AccessKind from_kind = AccessKind::kRead;  ///< the access of the earlier step
  AccessKind to_kind = AccessKind::kRead;    ///< the access of the later step
  friend bool operator==(const ConflictingAccess&, const ConflictingAccess&) = default;
};

struct HbEdge {
  enum class Kind : std::uint8_t { kProgramOrder, kConflict, kEnabling };
  std::size_t from = 0;  ///< position of the earlier step in the step list
  std::size_t to = 0;    ///< position of the later step (invariant: from < to)
  Kind kind = Kind::kProgramOrder;
  /// kConflict: the access pairs that make `from` a source of `to` (see above), in the order of
  /// `to`'s accesses then `from`'s.
  std::vector<ConflictingAccess> accesses;
  friend bool operator==(const HbEdge&, const HbEdge&) = default;
};

/// The edges of the happens-before graph of `steps` (positions in the vector, not
/// TraceStep::index).
std::vector<HbEdge> happens_before_edges(const std::vector<TraceStep>& steps);

/// past[p][q]: whether step q happens before step p or is p (the reflexive, transitive closure of
/// `edges` over `count` steps).
std::vector<std::vector<bool>> happens_before_closure(std::size_t count,
                                                      const std::vector<HbEdge>& edges);

/// What a diagram draws of `steps`: program order between consecutive shown steps of each actor
/// (always), and the other edges of happens_before_edges between two shown steps, less those that a
/// path through another shown step implies (a transitive reduction of the order between actors).
/// Kinds and accesses are kept. Sorted as happens_before_edges.
std::vector<HbEdge> diagram_edges(const std::vector<TraceStep>& steps,
                                  const std::vector<bool>& shown);

/// Whether something passes from the earlier step to the later along `e`: an enabling edge (an
/// actor started, a join), or a conflict in which the later step observes what the earlier wrote
/// (read, read-modify-write or wait after a write) or takes the lock it released. A read that only
/// came first, or a write overwritten, passes nothing.
bool passes_something(const HbEdge& e);

}  // namespace interleave::reports
