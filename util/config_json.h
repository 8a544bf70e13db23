// An implementation's config (named integer knobs: tile sizes, ...) and its
// canonical JSON text, {"tile_co":16,"tile_ow":8}. The one reader and writer
// of that text: decisions store it on ops (ir::DecisionView::Store), kernels
// read it at plan load (runtime), records and reports carry it. A leaf, so
// every layer may use it.
#ifndef QNNC_UTIL_CONFIG_JSON_H_
#define QNNC_UTIL_CONFIG_JSON_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qnnc::util {

using Config = std::map<std::string, int64_t>;

// Sorted keys, no spaces; "{}" when empty.
std::string ConfigToJson(const Config& config);
// An error unless `json` is an object of integers.
absl::StatusOr<Config> ConfigFromJson(absl::string_view json);

}  // namespace qnnc::util

#endif  // QNNC_UTIL_CONFIG_JSON_H_
