// 2-D resize of NCHW tensors (ONNX Resize, opsets 11-13).
#ifndef QNNC_KERNELS_REFERENCE_RESIZE_H_
#define QNNC_KERNELS_REFERENCE_RESIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

struct ResizeParams {
  std::string mode = "nearest";  // "nearest" | "linear" (bilinear)
  // "half_pixel" | "pytorch_half_pixel" | "align_corners" | "asymmetric"
  std::string coordinate_transformation_mode = "half_pixel";
  // "round_prefer_floor" | "round_prefer_ceil" | "floor" | "ceil"
  std::string nearest_mode = "round_prefer_floor";
  // Scales used by the coordinate transforms; 0 means out_size / in_size
  // (ONNX with the `sizes` input). Set them when the model gives `scales`.
  float scale_h = 0.0f;
  float scale_w = 0.0f;
};

// Resizes x [N, C, H, W] to [N, C, out_h, out_w]. For output index i on an
// axis of input length L, output length R and scale s, in float32:
//   half_pixel:         (i + 0.5) / s - 0.5
//   pytorch_half_pixel: R > 1 ? (i + 0.5) / s - 0.5 : 0
//   align_corners:      R == 1 ? 0 : i * (L - 1) / (R - 1)
//   asymmetric:         i / s
// nearest picks the input index by nearest_mode (round_prefer_floor rounds
// .5 down, round_prefer_ceil up), clamped to [0, L - 1]; f32 and integer
// dtypes. linear clamps the coordinate to [0, L - 1] and interpolates the
// two neighbours on each axis in float32; integer inputs are then rounded
// half to even and saturated.
absl::StatusOr<tensor::Tensor> Resize2D(const tensor::Tensor& x, int64_t out_h, int64_t out_w,
                                        const ResizeParams& params = {});

// The taps of each output index along one axis: the two input neighbours
// and the weight of the second (nearest: lo == hi, weight 0).
struct ResizeTaps {
  std::vector<int64_t> lo, hi;
  std::vector<float> weight;
};

// What Resize2D computes before touching data, for fast kernels that must
// give its bits: the checks of x's shape [N, C, H, W] (dtype aside) and the
// parameters, and the taps of both axes (out_h + out_w of them: call it for
// an output that exists).
struct ResizePlan {
  bool linear = false;
  ResizeTaps y, x;
};
absl::StatusOr<ResizePlan> PlanResize2D(const tensor::Shape& x_shape, int64_t out_h, int64_t out_w,
                                        const ResizeParams& params);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_RESIZE_H_
