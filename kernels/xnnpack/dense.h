// Quantized fully connected layer (qnn.dense -> bias_add -> requantize ->
// clip) through XNNPACK's xnn_create_fully_connected_nc_{qu8,qs8}. This
// XNNPACK has no qc8 (per-channel) fully connected operator. Rounding:
// common.h.
#ifndef QNNC_KERNELS_XNNPACK_DENSE_H_
#define QNNC_KERNELS_XNNPACK_DENSE_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernels/xnnpack/common.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::xnnpack {

struct DenseParams {
  int64_t input_channels = 1;   // K
  int64_t output_channels = 1;  // N
  int32_t input_zero_point = 0;
  float input_scale = 1.0f;
  int32_t kernel_zero_point = 0;  // qu8 only; must be 0 for qs8
  float kernel_scale = 1.0f;
  int32_t output_zero_point = 0;
  float output_scale = 1.0f;
  // Quantized clamp, intersected with the output dtype's range.
  int32_t output_min = std::numeric_limits<int32_t>::min();
  int32_t output_max = std::numeric_limits<int32_t>::max();
};

// As CheckSupported of conv2d.h: kQu8 or kQs8 only (kQc8 is Unimplemented),
// channels in [1, 2^31], zero points in range, scales normal, requantization
// scale in [2^-32, 256), output_min < output_max within the dtype.
absl::Status CheckSupported(Variant variant, const DenseParams& params);

class Dense {
 public:
  // weight [N, K] (u8 for qu8, i8 for qs8); bias_i32 i32 [N] or undefined.
  static absl::StatusOr<std::unique_ptr<Dense>> Create(Variant variant, const DenseParams& params,
                                                       const tensor::Tensor& weight,
                                                       const tensor::Tensor& bias_i32);

  // input [..., K] -> output [..., N]; `output` is allocated when undefined,
  // else must have that shape and dtype. Concurrent calls are serialized.
  absl::Status Run(const tensor::Tensor& input, tensor::Tensor* output, pthreadpool_t pool) const;

 private:
  Dense(Variant variant, const DenseParams& params) : variant_(variant), params_(params) {}

  Variant variant_;
  DenseParams params_;
  OperatorPtr op_;
  mutable std::mutex mu_;
};

}  // namespace qnnc::kernels::xnnpack

#endif  // QNNC_KERNELS_XNNPACK_DENSE_H_
