#include "tensor/rounding.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qnnc::tensor {

const char* RoundingName(Rounding rounding) {
  switch (rounding) {
    case Rounding::kUpward:
      return "UPWARD";
    case Rounding::kToNearest:
      return "TONEAREST";
    case Rounding::kFloatToNearestEven:
      return "TONEAREST_EVEN";
  }
  return "?";
}

absl::StatusOr<Rounding> ParseRounding(absl::string_view name) {
  for (Rounding r : {Rounding::kUpward, Rounding::kToNearest, Rounding::kFloatToNearestEven}) {
    if (name == RoundingName(r)) return r;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown rounding '", name, "' (expected UPWARD, TONEAREST or TONEAREST_EVEN)"));
}

}  // namespace qnnc::tensor
