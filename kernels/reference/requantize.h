// Requantization of integer tensors (float multiplier, as ONNX Runtime/MLAS).
#ifndef QNNC_KERNELS_REFERENCE_REQUANTIZE_H_
#define QNNC_KERNELS_REFERENCE_REQUANTIZE_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// Maps integers x of (input_scale, input_zero_point) to out_dtype integers of
// (output_scale, output_zero_point). Each of the four parameters has one
// element or one per index of `axis` (negative counts from the end; ignored
// when every parameter has one element). For channel c:
//   m = float(input_scale[c]) / float(output_scale[c])            (float32)
//   v = float(x - input_zero_point[c]) * m                         (float32)
//   q = nearbyint(v) + output_zero_point[c]   (half to even, exact add)
//   out = clamp(q, max(clamp_min, min(out_dtype)), min(clamp_max, max(out_dtype)))
// Scales must be finite and output scales nonzero. Never overflows.
absl::StatusOr<tensor::Tensor> Requantize(const tensor::Tensor& input,
                                          const tensor::Tensor& input_scale,
                                          const tensor::Tensor& input_zero_point,
                                          const tensor::Tensor& output_scale,
                                          const tensor::Tensor& output_zero_point, int64_t axis,
                                          tensor::DType out_dtype,
                                          std::optional<int64_t> clamp_min = std::nullopt,
                                          std::optional<int64_t> clamp_max = std::nullopt);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_REQUANTIZE_H_
