// Configs of an implementation: named integer knobs (tile sizes, loop
// order, unroll), a config space listing each knob's candidate values, and a
// canonical JSON form for records and reports.
#ifndef QNNC_TARGET_CONFIG_H_
#define QNNC_TARGET_CONFIG_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "util/config_json.h"

namespace qnnc::target {

// The knobs of one config and their JSON text (util/config_json.h).
using Config = util::Config;
using util::ConfigFromJson;
using util::ConfigToJson;

struct Knob {
  std::string name;
  std::vector<int64_t> values;
};

struct ConfigSpace {
  std::vector<Knob> knobs;

  int64_t size() const;  // number of configs (1 for an empty space)
  // The i-th config in a fixed order (i in [0, size())).
  Config At(int64_t index) const;
  // An error naming the knob when `config` is not a point of this space.
  absl::Status Validate(const Config& config) const;
};


}  // namespace qnnc::target

#endif  // QNNC_TARGET_CONFIG_H_
