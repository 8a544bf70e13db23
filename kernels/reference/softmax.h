// Softmax along one axis (ONNX Softmax-13): exp(x - max) / sum(exp(x - max)),
// f32, each slice's max and sum in float, in index order.
#ifndef QNNC_KERNELS_REFERENCE_SOFTMAX_H_
#define QNNC_KERNELS_REFERENCE_SOFTMAX_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// `axis` may be negative (counted from the end).
absl::StatusOr<tensor::Tensor> Softmax(const tensor::Tensor& x, int64_t axis);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_SOFTMAX_H_
