#include "target/config.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

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

}  // namespace qnnc::target
