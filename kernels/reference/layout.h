// Data movement: transpose, concatenate, pad, reshape. Any dtype.
#ifndef QNNC_KERNELS_REFERENCE_LAYOUT_H_
#define QNNC_KERNELS_REFERENCE_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// out.dim(i) = x.dim(perm[i]); an empty perm reverses the dimensions.
absl::StatusOr<tensor::Tensor> Transpose(const tensor::Tensor& x, const std::vector<int64_t>& perm);

// Concatenates along `axis` (negative counts from the end) tensors of one
// dtype and rank whose other dimensions agree.
absl::StatusOr<tensor::Tensor> Concat(const std::vector<tensor::Tensor>& inputs, int64_t axis);

// ONNX Pad: pads = [begin_0, ..., begin_{r-1}, end_0, ..., end_{r-1}], all >= 0.
// mode "constant" fills `value` (rounded to nearest for floats, truncated
// toward zero and saturated for integers, value != 0 for bool); "edge" repeats
// the border (a padded dimension must be non-empty); "reflect" mirrors without
// repeating the border (pads must be smaller than the dimension).
absl::StatusOr<tensor::Tensor> Pad(const tensor::Tensor& x, const std::vector<int64_t>& pads,
                                   absl::string_view mode = "constant", double value = 0.0);

// Copy of x with `new_shape` (same element count; one dimension may be -1 and
// is inferred; 0 is a literal zero). Callers that need no copy use
// Tensor::Reshaped.
absl::StatusOr<tensor::Tensor> Reshape(const tensor::Tensor& x, const tensor::Shape& new_shape);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_LAYOUT_H_
