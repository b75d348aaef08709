// The "lease-lock" driver: the tables of knobs and presets, the scenario section "lease_lock" read
// from them with JsonReader (exact errors, unknown keys rejected), the catalog `interleave list`
// shows.
#include "explorer/core/json_reader.hpp"
#include "model/lease_lock/lease_lock.hpp"

namespace interleave::lease_lock {

const std::vector<Knob>& knobs() {
  static const nlohmann::json releases = {"compare_and_delete", "delete"};
  static const std::vector<Knob> table = {
      {.name = "clients",
       .type = "integer",
       .default_value = 2,
       .min = 2,
       .max = 3,
       .description = "client1..clientN: each acquires, writes once, releases",
       .source = "Kleppmann 2016"},
      {.name = "lease_expiries",
       .type = "integer",
       .default_value = 1,
       .min = 0,
       .max = 2,
       .description = "leases the lock service may let expire before their holder releases (each "
                      "a step of the actor lock_service: every point of a client's pause is "
                      "explored)",
       .source = "Kleppmann 2016"},
      {.name = "fencing_tokens",
       .type = "boolean",
       .default_value = false,
       .description =
           "every write carries its lease number; the storage rejects one lower than it accepted",
       .source = "Kleppmann 2016, 'Making the lock safe with fencing'; Burrows 2006, 2.4, "
                 "sequencers"},
      {.name = "check_lease_before_write",
       .type = "boolean",
       .default_value = false,
       .description = "a client checks its lease holds before it writes (no fix: the pause can "
                      "fall between)",
       .source = "Kleppmann 2016"},
      {.name = "release",
       .type = "string",
       .values = releases,
       .default_value = "compare_and_delete",
       .description = "delete the lock only if it is the client's own lease, or a plain DEL",
       .source = "Redis docs, Distributed Locks with Redis, 'Correct Implementation with a "
                 "Single Instance'"},
  };
  return table;
}

const std::vector<Preset>& presets() {
  // The designs of the locking scheme; the world's size (clients, lease_expiries) is not in them.
  const auto design = [](bool fencing, bool check, const char* release) {
    return nlohmann::json{{"fencing_tokens", fencing},
                          {"check_lease_before_write", check},
                          {"release", release}};
  };
  const nlohmann::json kleppmann = nlohmann::json::array({"Kleppmann 2016"});
  static const std::vector<Preset> table = {
      {"lease-only", "the lock alone, as in Kleppmann's figure: a paused client writes after its "
                     "lease expired",
       false, kleppmann, design(false, false, "compare_and_delete")},
      {"check-before-write", "the client checks its lease before writing: the pause can still "
                             "fall between the check and the write",
       false, kleppmann, design(false, true, "compare_and_delete")},
      {"fencing-tokens", "every write carries its lease number, and the storage rejects a lower "
                         "one: the fix",
       false, kleppmann, design(true, false, "compare_and_delete")},
      {"plain-del", "the release is a plain DEL: a client whose lease expired deletes another's "
                    "lock",
       false, nlohmann::json::array({"Redis docs, Distributed Locks with Redis"}),
       design(false, false, "delete")},
  };
  return table;
}

namespace {

// The section read against the table (unknown keys, types, ranges, values: exact errors): a
// preset first, when it names one, then each knob given.
Config read_config(const nlohmann::json& scenario, const std::string& file) {
  const std::optional<JsonReader> section = JsonReader(scenario, file).find("lease_lock");
  std::vector<std::string> keys = {"preset"};
  for (const Knob& k : knobs())
    keys.emplace_back(k.name);
  if (section) section->expect_keys(keys);
  nlohmann::json v = nlohmann::json::object();
  for (const Knob& k : knobs())
    v[k.name] = k.default_value;
  if (section && section->has("preset")) {
    std::vector<std::string> names;
    for (const Preset& p : presets())
      names.push_back(p.name);
    const std::string name = section->enum_or("preset", "", names);
    for (const Preset& p : presets())
      if (p.name == name) v.update(p.knobs);
  }
  for (const Knob& k : knobs()) {
    nlohmann::json& x = v[k.name];
    if (section && x.is_boolean()) x = section->bool_or(k.name, x.get<bool>());
    if (section && x.is_number())
      x = section->int_or(k.name, x.get<int>(), static_cast<int>(k.min), static_cast<int>(k.max));
    if (section && x.is_string())
      x = section->enum_or(k.name, x.get<std::string>(), k.values.get<std::vector<std::string>>());
  }
  return {v.at("clients"), v.at("lease_expiries"), v.at("fencing_tokens"),
          v.at("check_lease_before_write"), v.at("release") == "delete"};
}

std::vector<Property> facts(const auto& table) {
  std::vector<Property> v;
  for (const Fact& f : table)
    v.push_back({std::string(f.name), std::string(f.description), std::string(f.checked)});
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
  std::shared_ptr<const ModelConfig> parse(const nlohmann::json& scenario,
                                           const std::string& file) const override {
    ModelInstance m{make_program(read_config(scenario, file)), {}, {}};
    for (const Fact& f : kProperties)
      m.invariants.emplace_back(f.name);
    for (const Fact& f : kCoverageGoals)
      m.coverage_goals.emplace_back(f.name);
    return std::make_shared<InstanceConfig>(std::move(m));
  }
  const LogPatternTable& log_patterns() const override { return lease_lock::log_patterns(); }
  ModelCatalog catalog() const override {
    ModelCatalog c;
    c.knob_section = "lease_lock";
    c.knobs = knobs();
    c.presets = presets();
    c.default_preset = presets().front().name;
    c.properties = facts(kProperties);
    c.goals = facts(kCoverageGoals);
    return c;
  }
};

}  // namespace

std::unique_ptr<ModelDriver> make_lease_lock_driver() {
  return std::make_unique<LeaseLockDriver>();
}

}  // namespace interleave::lease_lock
