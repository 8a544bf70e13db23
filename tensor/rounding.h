// Rounding modes of integer requantization, with the names the IR uses (the
// two fixed-point modes are TVM's qnn.requantize `rounding` values): the one
// enum and its one to/from-string that the IR's typed views and the
// requantize kernels share.
#ifndef QNNC_TENSOR_ROUNDING_H_
#define QNNC_TENSOR_ROUNDING_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qnnc::tensor {

enum class Rounding {
  kUpward,              // "UPWARD": fixed point, ties toward +infinity (TVM).
  kToNearest,           // "TONEAREST": fixed point as TFLite (gemmlowp).
  kFloatToNearestEven,  // "TONEAREST_EVEN": float32, ties to even (ONNX Runtime).
};

// "UPWARD", "TONEAREST" or "TONEAREST_EVEN".
const char* RoundingName(Rounding rounding);
// Inverse of RoundingName (exact, case-sensitive match); an error otherwise.
absl::StatusOr<Rounding> ParseRounding(absl::string_view name);

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_ROUNDING_H_
