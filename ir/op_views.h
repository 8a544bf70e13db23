// Typed views of the attributes of the convolution, pooling and requantize
// ops and of every op's `axis`, parsed and validated in one place (in the
// spirit of TVM's QnnConv2DAttrs). Type relations, workload extraction,
// passes and kernels read a view instead of parsing attribute strings
// themselves. The other families' views: ir/layout_views.h (data movement)
// and ir/elementwise_views.h.
#ifndef QNNC_IR_OP_VIEWS_H_
#define QNNC_IR_OP_VIEWS_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "tensor/rounding.h"
#include "tensor/tensor.h"
#include "tensor/window.h"

namespace qnnc::ir {

// nn.conv2d, qnn.conv2d and the fused convolutions (qnn.conv2d_requantize,
// qnn.conv2d_dynamic). Validated: two strides and dilations >= 1, four
// paddings >= 0, groups >= 1.
struct Conv2DView : tensor::ConvGeometry {
  Layout data_layout = Layout::Nchw();
  Layout kernel_layout = Layout::Oihw();
  Layout out_layout = Layout::Nchw();  // the data layout when not given

  static absl::StatusOr<Conv2DView> Of(const Node& node) { return Of(node.attrs()); }
  static absl::StatusOr<Conv2DView> Of(const Attrs& attrs);

  std::vector<int64_t> padding_vector() const { return {pads.begin(), pads.end()}; }
};

// nn.max_pool2d, nn.avg_pool2d and their quantized forms. Validated like
// the convolution's window, and a pool_size of two values >= 1.
struct Pool2DView : tensor::ConvGeometry {
  std::array<int64_t, 2> pool_size{1, 1};
  bool ceil_mode = false;
  bool count_include_pad = false;
  Layout layout = Layout::Nchw();
  bool has_pool_size = false;  // whether the attribute was given

  static absl::StatusOr<Pool2DView> Of(const Node& node);
};

// qnn.requantize: inputs data, input scale, input zero point, output scale,
// output zero point. The clamp is the output dtype's range intersected with
// the optional clamp_min/clamp_max attributes.
struct RequantizeView {
  int64_t axis = 1;  // as given: may be negative, see AxisFor
  tensor::Rounding rounding = tensor::Rounding::kFloatToNearestEven;
  tensor::DType out_dtype = tensor::DType::kI8;
  int64_t clamp_min = 0;
  int64_t clamp_max = 0;

  static absl::StatusOr<RequantizeView> Of(const Node& node);

  bool nearest_even() const { return rounding == tensor::Rounding::kFloatToNearestEven; }
  // The axis in [0, rank), or an error when it is outside [-rank, rank).
  absl::StatusOr<int64_t> AxisFor(int64_t rank) const;
};

// What the quantized convolutions carry besides their geometry
// (Conv2DView): the output dtype, and the epilogue FuseOps fuses into
// qnn.conv2d_requantize (pad_value, clamp_min, clamp_max) and
// qnn.conv2d_dynamic (clip_min, clip_max). For qnn.conv2d,
// qnn.conv2d_requantize and qnn.conv2d_dynamic; validated: the types, and
// out_dtype a dtype name.
struct FusedConvView {
  // Given, else u8 for qnn.conv2d_requantize and i32 (the accumulator) for
  // the others.
  tensor::DType out_dtype = tensor::DType::kI32;
  std::optional<double> pad_value;  // the value padding stands for
  // As given (not yet intersected with out_dtype's range).
  std::optional<int64_t> clamp_min, clamp_max;
  bool clip = false;  // whether clip_min or clip_max is given
  double clip_min = -INFINITY, clip_max = INFINITY;

  static absl::StatusOr<FusedConvView> Of(const Node& node);
};

// The `axis` of an op that has one, with that op's default: -1 for
// softmax, 0 for concat and take, 1 for flatten, nn.bias_add,
// qnn.quantize, qnn.dequantize, qnn.requantize, qnn.concat and
// fixed_point_multiply. An error for other ops.
struct AxisView {
  int64_t axis = 0;  // as given: may be negative, see AxisFor

  static absl::StatusOr<AxisView> Of(const Node& node);

  // The axis in [0, rank), or an error when it is outside [-rank, rank).
  absl::StatusOr<int64_t> AxisFor(int64_t rank) const;
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_OP_VIEWS_H_
