// Cast between dtypes (ONNX Cast).
#ifndef QNNC_KERNELS_REFERENCE_CAST_H_
#define QNNC_KERNELS_REFERENCE_CAST_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// Converts every element to `to`:
//   float (f32/f16) -> integer: truncate toward zero, saturate; NaN -> 0.
//   integer -> integer: two's complement wrap (keeps the low bits).
//   anything -> bool: nonzero (including NaN) -> 1; bool -> anything: 0 or 1.
//   integer/float -> f32: nearest float; -> f16: via tensor::FloatToHalf(float).
absl::StatusOr<tensor::Tensor> Cast(const tensor::Tensor& x, tensor::DType to);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_CAST_H_
