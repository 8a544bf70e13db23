// Shared pieces of the XNNPACK (QNNPack) kernels: initialization, status
// mapping, operator ownership and the requantization scale XNNPACK computes.
//
// Debian's XNNPACK 0.0~git20220216.ae108ef (create -> setup -> run, no reshape).
//
// Rounding (found from the library's parameter initializers, which are named
// xnn_init_{qs8,qu8}_conv_minmax_fp32_avx512_params here, and by experiment):
// every quantized convolution and fully connected operator (gemm, igemm and
// depthwise, qu8/qs8/qc8) requantizes in float32 ("fp32" mode):
//   s   = input_scale * kernel_scale[c] / output_scale     (float arithmetic)
//   v   = float(acc + bias) * s                             (float32 product)
//   out = clamp(round_half_to_even(v) + output_zero_point, output_min, output_max)
// which is the float mode of //kernels/reference Requantize (ONNX Runtime)
// when its input scale is float(sx * sw): ties go to even (0.5 -> 0,
// 1.5 -> 2, -2.5 -> -2, measured for qs8 and qu8), not up (rndnu) and not
// away from zero (gemmlowp), and non-tie products round as the exact float
// product does. That is x86-64; on AArch64 only qc8 rounds so (variant.h).
#ifndef QNNC_KERNELS_XNNPACK_COMMON_H_
#define QNNC_KERNELS_XNNPACK_COMMON_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "kernels/xnnpack/variant.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "xnnpack.h"

namespace qnnc::kernels::xnnpack {

// XNNPACK reads up to XNN_EXTRA_BYTES past the end of every input.
static_assert(tensor::Tensor::kPaddingBytes >= XNN_EXTRA_BYTES,
              "tensor buffers must be readable XNN_EXTRA_BYTES past their end");

const char* VariantName(Variant variant);   // "qu8", "qs8", "qc8"
tensor::DType DataType(Variant variant);    // kU8 for qu8, kI8 otherwise

// The requantization scales this XNNPACK accepts: [2^-32, 256). Scales of
// 256 or more fail creation; below 2^-32 the qu8/qs8 parameter initializers
// abort the process (an assert left on in Debian's build), so callers must
// check first. qc8 packs its per-channel scales with the weights and only
// enforces the upper bound.
inline constexpr float kMinRequantizationScale = 0x1.0p-32f;
inline constexpr float kMaxRequantizationScale = 256.0f;  // exclusive

// input_scale * kernel_scale / output_scale computed as XNNPACK does.
inline float RequantizationScale(float input_scale, float kernel_scale, float output_scale) {
  return input_scale * kernel_scale / output_scale;
}

// OK when `scale` is positive, finite and normal (XNNPACK rejects zero,
// negative, denormal, infinite and NaN scales); names `what` otherwise.
absl::Status CheckScale(absl::string_view what, float scale);

// Calls xnn_initialize(nullptr) once per process (thread-safe); returns its
// status on every call.
absl::Status InitializeXnnpack();

// "xnn_status_invalid_parameter" etc.
const char* StatusName(xnn_status status);
// OK for xnn_status_success; otherwise an error naming `operation` (e.g.
// "xnn_create_convolution2d_nhwc_qs8") and the status, with a code
// matching it (unsupported_* -> Unimplemented, out_of_memory ->
// ResourceExhausted, invalid_parameter -> InvalidArgument, else Internal).
absl::Status FromXnnStatus(xnn_status status, absl::string_view operation);

struct OperatorDeleter {
  void operator()(xnn_operator_t op) const { xnn_delete_operator(op); }
};
using OperatorPtr = std::unique_ptr<xnn_operator, OperatorDeleter>;

}  // namespace qnnc::kernels::xnnpack

#endif  // QNNC_KERNELS_XNNPACK_COMMON_H_
