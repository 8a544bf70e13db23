#include "target/config.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace qnnc::target {

int64_t ConfigSpace::size() const {
  int64_t n = 1;
  for (const Knob& k : knobs) n *= static_cast<int64_t>(k.values.size());
  return n;
}

Config ConfigSpace::At(int64_t index) const {
  Config c;
  for (const Knob& k : knobs) {
    int64_t n = static_cast<int64_t>(k.values.size());
    c[k.name] = k.values[index % n];
    index /= n;
  }
  return c;
}

absl::Status ConfigSpace::Validate(const Config& config) const {
  if (config.size() != knobs.size()) {
    return absl::InvalidArgumentError(absl::StrCat("config ", ConfigToJson(config), " has ",
                                                   config.size(), " knobs, the space ",
                                                   knobs.size()));
  }
  for (const Knob& k : knobs) {
    auto it = config.find(k.name);
    if (it == config.end()) {
      return absl::InvalidArgumentError(absl::StrCat("config ", ConfigToJson(config), " lacks knob '", k.name, "'"));
    }
    if (std::find(k.values.begin(), k.values.end(), it->second) == k.values.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("knob '", k.name, "' has no value ", it->second));
    }
  }
  return absl::OkStatus();
}

std::string ConfigToJson(const Config& config) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : config) j[k] = v;
  return j.dump();
}

absl::StatusOr<Config> ConfigFromJson(absl::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("config '", text, "' is not a JSON object"));
  }
  Config c;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config knob '", it.key(), "' must be an integer"));
    }
    c[it.key()] = it.value().get<int64_t>();
  }
  return c;
}

}  // namespace qnnc::target
