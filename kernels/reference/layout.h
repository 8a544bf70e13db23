// Data movement: transpose, concatenate, pad, reshape, slice, gather,
// broadcast. Any dtype.
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

// Elements begin[d], begin[d] + strides[d], ... before end[d] of every
// dimension (one value per dimension; strides != 0). Bounds must already be
// clamped as ONNX Slice clamps them: 0 <= begin <= dim, 0 <= end <= dim for a
// positive stride, 0 <= begin < dim, -1 <= end < dim for a negative one.
absl::StatusOr<tensor::Tensor> StridedSlice(const tensor::Tensor& x, const std::vector<int64_t>& begin,
                                            const std::vector<int64_t>& end,
                                            const std::vector<int64_t>& strides);

// ONNX Gather: out[..., j..., ...] = x[..., indices[j...], ...] along `axis`;
// indices (i32 or i64) may be negative (counted from the end), out of range
// is an error. Output shape x[:axis] + indices.shape + x[axis+1:].
absl::StatusOr<tensor::Tensor> Take(const tensor::Tensor& x, const tensor::Tensor& indices,
                                    int64_t axis);

// x broadcast (numpy rules, right-aligned) to `shape`, which must be the
// broadcast of x's shape and itself.
absl::StatusOr<tensor::Tensor> BroadcastTo(const tensor::Tensor& x, const tensor::Shape& shape);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_LAYOUT_H_
