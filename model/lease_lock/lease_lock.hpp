// The lease-lock model: a lock service granting leases, clients writing to a storage service
// under the lock, and a process pause that outlives the lease (M. Kleppmann, "How to do
// distributed locking", 2016); the fix is his fencing tokens (Chubby's sequencers). Walked
// through in docs/writing-a-model.md. This header holds the configuration, the table of knobs
// (driver.cpp) and the table of properties and goals; the services, the actors and the
// program are in lease_lock.cpp, the ModelDriver driver.cpp.
#pragma once

#include "explorer/model_api/model_catalog.hpp"
#include "explorer/model_api/model_driver.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::lease_lock {

/// A scenario's configuration; every default is the unfixed system of Kleppmann's figure.
struct Config {
  int clients = 2;         ///< client1..clientN, each acquires, writes once, releases
  int lease_expiries = 1;  ///< leases the lock service may let expire
  bool fencing_tokens = false;
  bool check_lease_before_write = false;
  bool plain_delete = false;  ///< release is DEL, not compare-and-delete
};

/// The knobs of the section "lease_lock" (engine type: explorer/model_api/model_catalog.hpp): the parser,
/// `list` and the schema test derive from the table (driver.cpp).
const std::vector<Knob>& knobs();
/// The presets: named designs of the locking scheme (the knobs fencing_tokens,
/// check_lease_before_write and release); a scenario names one with "preset", the first is the
/// default, and `--preset` and `matrix` use them.
const std::vector<Preset>& presets();

/// A property or a coverage goal: its name, where it is checked, what it means.
struct Fact {
  std::string_view name, checked, description;
};
inline constexpr Fact kStaleWriteOverwroteNewer{
    "stale_write_overwrote_newer", "after every step (an invariant that reads: storage)",
    "the storage holds data written under an older lease than data it accepted before"};
inline constexpr Fact kReleasedAnotherClientsLock{
    "released_another_clients_lock", "in a client's release step (Actor::violation)",
    "a client deleted the lock while another client's lease held it"};
inline constexpr Fact kTwoClientsHoldTheLock{
    "two_clients_hold_the_lock", "at a client's acquire",
    "a lease was granted while a client whose lease expired had not released it (it still "
    "believes it holds the lock): the dangerous overlap"};
inline constexpr Fact kStaleWriteAfterNewerWrite{
    "stale_write_after_newer_write", "at a client's write",
    "a write under an expired lease reached the storage after a write under a newer lease"};
inline constexpr Fact kProperties[] = {kStaleWriteOverwroteNewer, kReleasedAnotherClientsLock};
inline constexpr Fact kCoverageGoals[] = {kTwoClientsHoldTheLock, kStaleWriteAfterNewerWrite};

/// The lines the services log (explorer/evidence/log_pattern.hpp), the one table their notes are rendered
/// from: the lock service's grant and expiry, the storage's write and rejection. Hypothetical, as
/// the model is: it follows a figure, not a program's source, so the loggers are the model's
/// services and the lines their steps' order.
const LogPatternTable& log_patterns();

/// The program of a configuration: the objects, the clients, the lease clock, the properties.
Program make_program(const Config& cfg);
/// The ModelDriver "lease-lock", owning the scenario section "lease_lock".
std::unique_ptr<ModelDriver> make_lease_lock_driver();

}  // namespace interleave::lease_lock
