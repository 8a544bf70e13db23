// Quantized 2-D convolution, NHWC, through XNNPACK's operator API:
// qnn.conv2d -> nn.bias_add -> qnn.requantize (input scale sx * sw, output
// scale sy, zero point zy) -> clip, as one operator. Rounding: common.h.
#ifndef QNNC_KERNELS_XNNPACK_CONV2D_H_
#define QNNC_KERNELS_XNNPACK_CONV2D_H_

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernels/xnnpack/common.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"
#include "tensor/window.h"

namespace qnnc::kernels::xnnpack {

// The window (strides, pads, dilation, groups): ConvGeometry.
struct ConvParams : tensor::ConvGeometry {
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t group_input_channels = 1;
  int64_t group_output_channels = 1;

  int32_t input_zero_point = 0;
  float input_scale = 1.0f;
  int32_t kernel_zero_point = 0;          // qu8 only; must be 0 for qs8/qc8
  std::vector<float> kernel_scale{1.0f};  // one; or one per output channel (qc8)
  int32_t output_zero_point = 0;
  float output_scale = 1.0f;
  // Quantized clamp (Relu/Clip), intersected with the output dtype's range.
  int32_t output_min = std::numeric_limits<int32_t>::min();
  int32_t output_max = std::numeric_limits<int32_t>::max();

  int64_t output_channels() const { return groups * group_output_channels; }
  int64_t input_channels() const { return groups * group_input_channels; }
};

// OK when this XNNPACK can run the convolution; otherwise an error naming
// the offending value. Checks: geometry positive (pads >= 0) and within
// uint32; zero points in the data type's range (u8 for qu8, i8 otherwise);
// kernel zero point 0 for qs8/qc8; one kernel scale for qu8/qs8, one or
// output_channels() for qc8; every scale positive, finite and normal; each
// requantization scale (RequantizationScale) below 256, and for qu8/qs8 at
// least 2^-32; the clamp, intersected with the dtype range, non-empty with
// output_min < output_max (XNNPACK rejects min == max).
absl::Status CheckSupported(Variant variant, const ConvParams& params);

class Conv2D {
 public:
  // Packs `weight` ([O, I / groups, KH, KW] = OIHW, u8 for qu8, i8 otherwise;
  // transposed to OHWI here) and `bias_i32` (i32 [O], or undefined for no
  // bias) into an XNNPACK operator. Calls CheckSupported first.
  static absl::StatusOr<std::unique_ptr<Conv2D>> Create(Variant variant, const ConvParams& params,
                                                        const tensor::Tensor& weight,
                                                        const tensor::Tensor& bias_i32);

  // input [N, H, W, groups * group_input_channels] -> output [N, OH, OW, O]
  // (the data dtype). `output` is allocated when undefined, else must have
  // that shape and dtype. The operator is set up for these pointers and run
  // on `pool` (null: the calling thread). Concurrent calls are serialized.
  absl::Status Run(const tensor::Tensor& input_nhwc, tensor::Tensor* output_nhwc,
                   pthreadpool_t pool) const;

  // [N, OH, OW, O] for an NHWC input shape, or an error.
  absl::StatusOr<tensor::Shape> OutputShape(const tensor::Shape& input_nhwc) const;

  Variant variant() const { return variant_; }
  const ConvParams& params() const { return params_; }

 private:
  Conv2D(Variant variant, const ConvParams& params) : variant_(variant), params_(params) {}

  Variant variant_;
  ConvParams params_;
  OperatorPtr op_;
  mutable std::mutex mu_;  // setup binds pointers: one Run at a time
};

}  // namespace qnnc::kernels::xnnpack

#endif  // QNNC_KERNELS_XNNPACK_CONV2D_H_
