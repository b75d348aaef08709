// The "lease-lock" driver: the knobs table, the scenario section "lease_lock" read from it with
// JsonReader (exact errors, unknown keys rejected), the catalog `interleave list` shows.
#include "explorer/json_reader.hpp"
#include "model/lease_lock/lease_lock.hpp"

namespace interleave::lease_lock {

const std::vector<Knob>& knobs() {
  static const std::vector<std::string> none, releases = {"compare_and_delete", "delete"};
  static const std::vector<Knob> table = {
      {"clients", 2, 2, 3, "client1..clientN: each acquires, writes once, releases",
       "Kleppmann 2016", none},
      {"lease_expiries", 1, 0, 2,
       "leases the lock service may let expire before their holder releases (each a step of the "
       "actor lock_service: every point of a client's pause is explored)",
       "Kleppmann 2016", none},
      {"fencing_tokens", false, 0, 0,
       "every write carries its lease number; the storage rejects one lower than it accepted",
       "Kleppmann 2016, 'Making the lock safe with fencing'; Burrows 2006, 2.4, sequencers", none},
      {"check_lease_before_write", false, 0, 0,
       "a client checks its lease holds before it writes (no fix: the pause can fall between)",
       "Kleppmann 2016", none},
      {"release", "compare_and_delete", 0, 0,
       "delete the lock only if it is the client's own lease, or a plain DEL",
       "Redis docs, Distributed Locks with Redis, 'Correct Implementation with a Single Instance'",
       releases},
  };
  return table;
}

namespace {

// The section read against the table (unknown keys, types, ranges, values: exact errors).
Config parse(const nlohmann::json& scenario, const std::string& file) {
  const std::optional<JsonReader> section = JsonReader(scenario, file).find("lease_lock");
  std::vector<std::string> keys;
  for (const Knob& k : knobs())
    keys.emplace_back(k.key);
  if (section) section->expect_keys(keys);
  nlohmann::json v = nlohmann::json::object();
  for (const Knob& k : knobs()) {
    nlohmann::json& x = v[std::string(k.key)] = k.fallback;
    if (section && x.is_boolean()) x = section->bool_or(k.key, x.get<bool>());
    if (section && x.is_number()) x = section->int_or(k.key, x.get<int>(), k.min, k.max);
    if (section && x.is_string()) x = section->enum_or(k.key, x.get<std::string>(), k.values);
  }
  return {v.at("clients"), v.at("lease_expiries"), v.at("fencing_tokens"),
          v.at("check_lease_before_write"), v.at("release") == "delete"};
}

nlohmann::json facts(const auto& table) {
  nlohmann::json v = nlohmann::json::array();
  for (const Fact& f : table)
    v.push_back({{"name", f.name}, {"checked", f.checked}, {"description", f.description}});
  return v;
}

class LeaseLockDriver final : public ModelDriver {
 public:
  std::string name() const override { return "lease-lock"; }
  std::string description() const override {
    return "a lock with a lease and a client that pauses past it (Kleppmann 2016, on Redlock): "
           "a stale write, and fencing tokens as the fix";
  }
  std::vector<std::string> sections() const override { return {"lease_lock"}; }
  ModelInstance instantiate(const nlohmann::json& scenario,
                            const std::string& file) const override {
    ModelInstance m{make_program(parse(scenario, file)), {}, {}};
    for (const Fact& f : kProperties)
      m.invariants.emplace_back(f.name);
    m.invariants.insert(m.invariants.end(), {std::string(kDeadlock), std::string(kActorFailure)});
    for (const Fact& f : kCoverageGoals)
      m.coverage_goals.emplace_back(f.name);
    return m;
  }
  const LogPatternTable& log_patterns() const override { return lease_lock::log_patterns(); }
  nlohmann::json catalog() const override {
    nlohmann::json list = nlohmann::json::array();
    for (const Knob& k : knobs()) {
      nlohmann::json j = {{"name", k.key}, {"default", k.fallback}, {"source", k.source}};
      j["description"] = k.description;
      if (k.fallback.is_number()) j["range"] = std::to_string(k.min) + ".." + std::to_string(k.max);
      if (!k.values.empty()) j["values"] = k.values;
      list.push_back(std::move(j));
    }
    return {{"knobs", list},
            {"invariants", facts(kProperties)},
            {"coverage_goals", facts(kCoverageGoals)}};
  }
};

}  // namespace

std::unique_ptr<ModelDriver> make_lease_lock_driver() {
  return std::make_unique<LeaseLockDriver>();
}

}  // namespace interleave::lease_lock
