// ONNX QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear.
#ifndef QNNC_KERNELS_REFERENCE_QUANTIZE_H_
#define QNNC_KERNELS_REFERENCE_QUANTIZE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// QuantizeLinear: x (f32, f16 or i32, read as float32) -> out_dtype integers,
//   q = saturate(nearbyint(x / scale[c]) + zero_point[c])
// in float32 with a true division and half-to-even rounding. scale and
// zero_point have one element or one per index of `axis`. NaN maps to the zero
// point, +-inf saturates. Scales must be finite and nonzero; zero points must
// fit out_dtype.
absl::StatusOr<tensor::Tensor> Quantize(const tensor::Tensor& x, const tensor::Tensor& scale,
                                        const tensor::Tensor& zero_point, int64_t axis,
                                        tensor::DType out_dtype);

// DequantizeLinear: integer q (any width) -> f32,
//   y = float(q - zero_point[c]) * scale[c]
// The difference is taken exactly in integers first (as ONNX Runtime); for
// 8/16-bit inputs this equals (float(q) - float(zp)) * scale.
absl::StatusOr<tensor::Tensor> Dequantize(const tensor::Tensor& q, const tensor::Tensor& scale,
                                          const tensor::Tensor& zero_point, int64_t axis);

struct DynamicQuantizeResult {
  tensor::Tensor y;             // u8, shape of x
  tensor::Tensor y_scale;       // f32 scalar
  tensor::Tensor y_zero_point;  // u8 scalar
};

// DynamicQuantizeLinear (u8) on f32 x, in float32:
//   lo = min(0, min(x)), hi = max(0, max(x)),
//   scale = (hi - lo) / 255, or 1 when hi == lo (as ONNX Runtime; avoids 0 / 0),
//   zp = nearbyint(clamp(0 - lo / scale, 0, 255)),
//   y = saturate(nearbyint(x / scale) + zp).
// NaN elements are ignored by min/max and quantize to zp; infinities are an error.
absl::StatusOr<DynamicQuantizeResult> DynamicQuantize(const tensor::Tensor& x);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_QUANTIZE_H_
