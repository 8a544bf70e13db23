// Requantization of integer tensors: fixed-point (TVM UPWARD, TFLite
// TONEAREST) and float32 (ONNX Runtime, TONEAREST_EVEN) modes, as scalar
// functions for fused kernels and as a tensor kernel.
#ifndef QNNC_KERNELS_REQUANTIZE_REQUANTIZE_H_
#define QNNC_KERNELS_REQUANTIZE_REQUANTIZE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "kernels/requantize/fixed_point.h"
#include "kernels/requantize/rounding.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::requantize {

// x * m rounded, before the output zero point is added; x = acc - input_zp.
// With m = {M, s} (s in [-31, 30], M in [2^30, 2^31) or 0; other values are
// clamped into range but give meaningless results), l = max(s, 0), r = max(-s, 0):
//  - kUpward (TVM's FixedPointMultiply lowering, rounding "UPWARD"):
//      t = 31 + r,  result = (x * 2^l * M + (1 << (t - 1))) >> t
//    with an arithmetic shift, i.e. floor(x * M * 2^(s-31) + 1/2): one
//    rounding, ties toward +infinity (-2.5 -> -2, 2.5 -> 3). Computed exactly
//    in 128 bits; TVM uses int64 (which overflows only when l > 0 and
//    |x| * 2^l * M >= 2^63) and then wraps to int32, here nothing wraps.
//  - kToNearest (TFLite's MultiplyByQuantizedMultiplier):
//      s <= 0: RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x, M), r)
//      s > 0:  floor((x * 2^l * M + 2^30) / 2^31), computed exactly
//    The s > 0 branch equals SaturatingRoundingDoublingHighMul(x * 2^l, M)
//    whenever x * 2^l fits int32 (beyond that TFLite's scalar code overflows
//    and its NEON code saturates; here the product is exact).
//    s >= 0 is one rounding with ties up (-5 * 0.5 -> -2). s < 0 is TFLite's
//    double rounding: the high-mul rounds (ties up) to r fraction bits, then
//    the shift rounds ties away from zero (-10 * 0.25 -> -3). A product within
//    2^-(r+1) of a tie can thus round as the tie, 1 away from the correctly
//    rounded value: 5 * 0.25 = 1.25 -> 2, 8 * 0.3 = 2.4 -> 3. For multipliers
//    in [0.25, 0.5) that is about 1 result in 4; for typical conv multipliers
//    (r around 10) about 1 in 2^(r+1).
//  - kFloatToNearestEven: RequantizeValueFloat(x, float(m.ToDouble())).
int64_t RequantizeValue(int32_t acc_minus_zp, FixedPointMultiplier m, Rounding r);

// nearbyint(float(x) * multiplier) in float32, ties to even (ONNX Runtime);
// NaN (0 * inf) gives 0, values beyond int64 saturate.
int64_t RequantizeValueFloat(int32_t acc_minus_zp, float multiplier);

// The fixed-point multiplier of each of `channels` channels:
//   QuantizeMultiplier(double(input_scale[c]) / double(output_scale[c])).
// Each scale is f32 or f16 with 1 element (broadcast) or `channels`; scales
// must be finite, output scales nonzero, and each ratio in [0, 2^30).
absl::StatusOr<std::vector<FixedPointMultiplier>> ComputeMultipliers(
    const tensor::Tensor& input_scale, const tensor::Tensor& output_scale, int64_t channels);
// The float32 multipliers of the TONEAREST_EVEN mode,
//   float(input_scale[c]) / float(output_scale[c]) (any sign; may be inf).
absl::StatusOr<std::vector<float>> ComputeFloatMultipliers(const tensor::Tensor& input_scale,
                                                           const tensor::Tensor& output_scale,
                                                           int64_t channels);

// Maps integers x (any integer dtype) of (input_scale, input_zero_point) to
// out_dtype integers of (output_scale, output_zero_point). Each parameter has
// one element or one per index of `axis` (negative counts from the end;
// ignored when every parameter has one element). For channel c:
//   d = x - input_zero_point[c]                           (exact)
//   fixed-point modes: q = RequantizeValue(sat_int32(d), m[c], rounding),
//     m = ComputeMultipliers(...) (d is saturated to the int32 accumulator
//     range; TVM and TFLite compute it in int32)
//   TONEAREST_EVEN: q = nearbyint(float(d) * mf[c]) in float32, NaN -> 0,
//     mf = ComputeFloatMultipliers(...) (negative scales allowed)
//   out = clamp(q + output_zero_point[c],                 (exact)
//               max(clamp_min, min(out_dtype)), min(clamp_max, max(out_dtype)))
// TONEAREST_EVEN is bit-identical to reference::Requantize except where the
// reference's double addition q + zp is inexact, i.e. only when |q| or |zp|
// is >= 2^53 and the sum is inside the clamp range (i64 outputs or zero
// points); this kernel is exact there.
absl::StatusOr<tensor::Tensor> Requantize(const tensor::Tensor& input,
                                          const tensor::Tensor& input_scale,
                                          const tensor::Tensor& input_zero_point,
                                          const tensor::Tensor& output_scale,
                                          const tensor::Tensor& output_zero_point, int64_t axis,
                                          tensor::DType out_dtype, Rounding rounding,
                                          std::optional<int64_t> clamp_min = std::nullopt,
                                          std::optional<int64_t> clamp_max = std::nullopt);

}  // namespace qnnc::kernels::requantize

#endif  // QNNC_KERNELS_REQUANTIZE_REQUANTIZE_H_
