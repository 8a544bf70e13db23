// 2-D pooling on NCHW tensors.
#ifndef QNNC_KERNELS_REFERENCE_POOL_H_
#define QNNC_KERNELS_REFERENCE_POOL_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"
#include "tensor/window.h"

namespace qnnc::kernels::reference {

// The window's strides, pads and dilation (ConvGeometry; groups unused).
struct Pool2DParams : tensor::ConvGeometry {
  std::array<int64_t, 2> kernel{1, 1};
  bool ceil_mode = false;
  bool count_include_pad = false;  // AvgPool2D only
};

// Output size per spatial axis (as ONNX / PyTorch), with e = dilation * (k - 1) + 1:
//   floor mode: (size + pad_begin + pad_end - e) / stride + 1
//   ceil mode:  ceil((size + pad_begin + pad_end - e) / stride) + 1, minus one
//               if the last window would start at or after size + pad_begin.

// Max over the window positions inside the input (padding never wins); f32
// and integer dtypes. A window with no position inside gives the lowest value
// of the dtype (-inf for f32).
absl::StatusOr<tensor::Tensor> MaxPool2D(const tensor::Tensor& x, const Pool2DParams& params);

// The output size of one spatial axis by the rule above. InvalidArgument on
// an invalid window (non-positive kernel, stride or dilation, negative pads,
// values past 2^31, a window larger than the padded input).
absl::StatusOr<int64_t> PoolOutputSize(int64_t size, int64_t kernel, int64_t stride,
                                       int64_t dilation, int64_t pad_begin, int64_t pad_end,
                                       bool ceil_mode);

// Average over the window: the divisor counts the window positions inside the
// input, or with count_include_pad those inside the padded input (the ceil
// mode overhang past the end padding never counts). f32 sums in float in
// window order; integers sum exactly and divide rounding half to even, into
// the input dtype. Windows with nothing to count give 0.
absl::StatusOr<tensor::Tensor> AvgPool2D(const tensor::Tensor& x, const Pool2DParams& params);

// Average over H and W -> [N, C, 1, 1]; f32 sums in float in row-major order,
// integers as AvgPool2D.
absl::StatusOr<tensor::Tensor> GlobalAvgPool2D(const tensor::Tensor& x);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_POOL_H_
