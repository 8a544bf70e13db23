// Binary elementwise ops with numpy broadcasting, and BiasAdd.
#ifndef QNNC_KERNELS_REFERENCE_ELEMENTWISE_H_
#define QNNC_KERNELS_REFERENCE_ELEMENTWISE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// a and b have the same dtype (f32 or any integer) and broadcastable shapes;
// the result has that dtype and the broadcast shape. Integer Add, Subtract and
// Multiply wrap modulo 2^bits; Divide truncates toward zero (min / -1 wraps to
// min) and fails on a zero divisor. f32 follows IEEE (x / 0 = inf).
absl::StatusOr<tensor::Tensor> Add(const tensor::Tensor& a, const tensor::Tensor& b);
absl::StatusOr<tensor::Tensor> Subtract(const tensor::Tensor& a, const tensor::Tensor& b);
absl::StatusOr<tensor::Tensor> Multiply(const tensor::Tensor& a, const tensor::Tensor& b);
absl::StatusOr<tensor::Tensor> Divide(const tensor::Tensor& a, const tensor::Tensor& b);
absl::StatusOr<tensor::Tensor> Maximum(const tensor::Tensor& a, const tensor::Tensor& b);
absl::StatusOr<tensor::Tensor> Minimum(const tensor::Tensor& a, const tensor::Tensor& b);

// x + bias broadcast along `axis` (negative counts from the end); bias is 1-D
// of size x.dim(axis) with x's dtype (f32 or integer, integers wrap).
absl::StatusOr<tensor::Tensor> BiasAdd(const tensor::Tensor& x, const tensor::Tensor& bias,
                                       int64_t axis);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_ELEMENTWISE_H_
