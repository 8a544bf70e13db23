#include "target/implementation.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qnnc::target {

absl::StatusOr<Legalization> ParseLegalization(absl::string_view name) {
  std::vector<std::string> names;
  for (Legalization l : kAllLegalizations) {
    if (name == LegalizationName(l)) return l;
    names.push_back(LegalizationName(l));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown legalization '", name, "' (", absl::StrJoin(names, ", "), ")"));
}

}  // namespace qnnc::target
