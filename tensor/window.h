// The output size of a sliding window (convolution, pooling) along one
// axis, said once: the IR's type relations, the reference kernels and the
// native kernels all take it from here.
#ifndef QNNC_TENSOR_WINDOW_H_
#define QNNC_TENSOR_WINDOW_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace qnnc::tensor {

// Output positions of a window of `kernel` taps, `dilation` apart, moved by
// `stride` over an input of `in` padded by `pad_begin` and `pad_end`:
//   floor((in + pad_begin + pad_end - dilation * (kernel - 1) - 1) / stride) + 1,
// rounded up instead with `ceil_mode` (ONNX, PyTorch), whose last window must
// start inside the input or its left padding. An error names a window that
// is invalid, overflows int64 or is larger than the padded input.
absl::StatusOr<int64_t> WindowOutputSize(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin,
                                         int64_t pad_end, int64_t dilation, bool ceil_mode);

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_WINDOW_H_
