// The output size of a sliding window (convolution, pooling) along one
// axis, said once: the IR's type relations, the reference kernels and the
// native kernels all take it from here.
#ifndef QNNC_TENSOR_WINDOW_H_
#define QNNC_TENSOR_WINDOW_H_

#include <array>
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

// The window of a 2-D convolution or pooling besides its kernel's size: the
// fields the IR's views (ir/op_views.h) and every kernel's parameters
// (reference, spatial pack, XNNPACK) share. They derive from it, so the
// geometry is copied as one (`params.geometry() = view.geometry()`).
struct ConvGeometry {
  std::array<int64_t, 2> strides{1, 1};     // h, w
  std::array<int64_t, 4> pads{0, 0, 0, 0};  // top, left, bottom, right
  std::array<int64_t, 2> dilation{1, 1};    // h, w
  int64_t groups = 1;

  bool unpadded() const { return pads == std::array<int64_t, 4>{0, 0, 0, 0}; }
  // The output's height and width for a kernel of kh x kw over an input of
  // h x w (WindowOutputSize on each axis).
  absl::StatusOr<std::array<int64_t, 2>> OutputSize(int64_t h, int64_t w, int64_t kh, int64_t kw,
                                                    bool ceil_mode = false) const;
  const ConvGeometry& geometry() const { return *this; }
  ConvGeometry& geometry() { return *this; }
};

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_WINDOW_H_
