#include "util/config_json.h"

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace qnnc::util {

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

}  // namespace qnnc::util
