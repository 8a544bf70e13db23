// 2-D resize of f32 NCHW tensors (what the dynamically quantized U-Net keeps
// in float) and nearest resize of 8-bit ones (a QDQ Resize whose dequantize
// and quantize share their parameters runs on the integers): the fast path
// of reference::Resize2D, bit-exact with it. The taps come from
// reference::PlanResize2D and every output is the same float expression (or
// a copy of one element); the speed comes from threads over rows and
// writing the planned output in place.
#ifndef QNNC_KERNELS_RESIZE_RESIZE_H_
#define QNNC_KERNELS_RESIZE_RESIZE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/reference/resize.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::resize {

// x: f32, u8 or i8 (8-bit: nearest only) [N, C, H, W] -> out [N, C, out_h,
// out_w] of x's dtype, or a channel-blocked [N, C/k, H, W, k] -> [N, C/k,
// out_h, out_w, k] (each lane resized as its channel would be). Writes `out`
// in place when it already has that dtype and shape, else replaces it.
// Fails as the reference does on bad parameters.
absl::Status Resize(const tensor::Tensor& x, int64_t out_h, int64_t out_w,
                       const reference::ResizeParams& params, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::resize

#endif  // QNNC_KERNELS_RESIZE_RESIZE_H_
