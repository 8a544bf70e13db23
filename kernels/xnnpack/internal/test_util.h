// Test helpers: random tensors, the reference pipeline the XNNPACK kernels
// must reproduce (QnnConv2D/QnnDense -> BiasAdd -> Requantize float mode ->
// clamp) and an element-wise comparison.
#ifndef QNNC_KERNELS_XNNPACK_INTERNAL_TEST_UTIL_H_
#define QNNC_KERNELS_XNNPACK_INTERNAL_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <string>

#include "absl/status/statusor.h"
#include "kernels/xnnpack/conv2d.h"
#include "kernels/xnnpack/dense.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::xnnpack::internal {

// Uniform integers in [lo, hi] (clipped to the dtype's range).
tensor::Tensor RandomInts(tensor::DType dtype, tensor::Shape shape, int64_t lo, int64_t hi,
                          std::mt19937& rng);
inline tensor::Tensor RandomInts(tensor::DType dtype, tensor::Shape shape, std::mt19937& rng) {
  return RandomInts(dtype, std::move(shape), tensor::DTypeMin(dtype), tensor::DTypeMax(dtype),
                    rng);
}

// The reference result for Conv2D::Run: input NHWC, weight OIHW, bias i32 [O]
// or undefined; requantization input scale float(input_scale * kernel_scale[c]).
absl::StatusOr<tensor::Tensor> ReferenceConv(Variant variant, const ConvParams& params,
                                             const tensor::Tensor& input_nhwc,
                                             const tensor::Tensor& weight_oihw,
                                             const tensor::Tensor& bias);

// The reference result for Dense::Run.
absl::StatusOr<tensor::Tensor> ReferenceDense(Variant variant, const DenseParams& params,
                                              const tensor::Tensor& input,
                                              const tensor::Tensor& weight,
                                              const tensor::Tensor& bias);

struct Diff {
  int64_t elements = 0;
  int64_t differing = 0;
  int64_t max_abs = 0;  // largest |a - b|
  std::string ToString() const;
};
// Compares two integer tensors of one shape element by element.
Diff Compare(const tensor::Tensor& a, const tensor::Tensor& b);

}  // namespace qnnc::kernels::xnnpack::internal

#endif  // QNNC_KERNELS_XNNPACK_INTERNAL_TEST_UTIL_H_
