// Unary elementwise ops.
#ifndef QNNC_KERNELS_REFERENCE_UNARY_H_
#define QNNC_KERNELS_REFERENCE_UNARY_H_

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// max(x, 0) for f32 and integers (NaN stays NaN).
absl::StatusOr<tensor::Tensor> Relu(const tensor::Tensor& x);
// 1 / (1 + exp(-x)), f32 only.
absl::StatusOr<tensor::Tensor> Sigmoid(const tensor::Tensor& x);
// Round half to even, f32 only.
absl::StatusOr<tensor::Tensor> Round(const tensor::Tensor& x);
// -x and |x|; f32 and integers (integers wrap: -min == min).
absl::StatusOr<tensor::Tensor> Neg(const tensor::Tensor& x);
absl::StatusOr<tensor::Tensor> Abs(const tensor::Tensor& x);
// Clamps to [min, max] (min <= max). f32: bounds are float(min), float(max)
// and NaN stays NaN. Integers: bounds are ceil(min), floor(max) intersected
// with the dtype range.
// f32 activations (ONNX semantics, float arithmetic): tanh; x < 0 ? alpha*x
// : x; max(0, min(1, alpha*x + beta)); x * max(0, min(1, x/6 + 1/2)).
absl::StatusOr<tensor::Tensor> Tanh(const tensor::Tensor& x);
// f32 only: the error function (ONNX Erf; GELU is x/2 * (1 + erf(x/sqrt 2))).
absl::StatusOr<tensor::Tensor> Erf(const tensor::Tensor& x);
absl::StatusOr<tensor::Tensor> LeakyRelu(const tensor::Tensor& x, float alpha);
absl::StatusOr<tensor::Tensor> HardSigmoid(const tensor::Tensor& x, float alpha, float beta);
absl::StatusOr<tensor::Tensor> HardSwish(const tensor::Tensor& x);
absl::StatusOr<tensor::Tensor> Clip(const tensor::Tensor& x, double min, double max);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_UNARY_H_
