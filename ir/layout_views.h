// Typed views of the attributes of the ops that move values without
// computing on them (layout_transform, transpose, reshape, nn.pad,
// strided_slice, broadcast_to, take, qnn.concat, resize) and of the global
// pools' layout, parsed and validated in one place with the defaults of
// their op definitions (ops/<family>/<family>_def.cc).
// The views check what an attribute is on its own (its type, its count);
// the type relations check it against the operands' types.
#ifndef QNNC_IR_LAYOUT_VIEWS_H_
#define QNNC_IR_LAYOUT_VIEWS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "ir/op_views.h"

namespace qnnc::ir {

// layout_transform {src_layout, dst_layout, channels}: both layouts
// required; channels, when given, the real channels of an NCHW result
// leaving a blocked layout (the block padding trimmed).
struct LayoutTransformView {
  Layout src_layout;
  Layout dst_layout;
  std::optional<int64_t> channels;

  static absl::StatusOr<LayoutTransformView> Of(const Node& node);
};

// transpose {axes}: a permutation; when not given, the dimensions reversed.
struct TransposeView {
  std::optional<std::vector<int64_t>> axes;

  static absl::StatusOr<TransposeView> Of(const Node& node);
  // The permutation for data of `rank` dimensions.
  std::vector<int64_t> AxesFor(int64_t rank) const;
};

// reshape {newshape}, required.
struct ReshapeView {
  std::vector<int64_t> newshape;

  static absl::StatusOr<ReshapeView> Of(const Node& node);
};

// broadcast_to {shape}, required.
struct BroadcastToView {
  std::vector<int64_t> shape;

  static absl::StatusOr<BroadcastToView> Of(const Node& node);
};

// strided_slice {begin, end, strides}, each required (one per dimension).
struct StridedSliceView {
  std::vector<int64_t> begin, end, strides;

  static absl::StatusOr<StridedSliceView> Of(const Node& node);
};

// nn.pad {pad_width [begins..., ends...] required, pad_mode=constant,
// pad_value=0}.
struct PadView {
  std::vector<int64_t> pad_width;
  std::string pad_mode = "constant";
  double pad_value = 0.0;

  static absl::StatusOr<PadView> Of(const Node& node);

  bool constant() const { return pad_mode == "constant"; }
  // {top, left, bottom, right} when pad_width pads only H and W of a rank-4
  // tensor (NCHW: 8 values, N and C unpadded); nullopt otherwise.
  std::optional<std::array<int64_t, 4>> SpatialPads() const;
};

// resize {size [h, w] required, method=nearest,
// coordinate_transformation_mode=half_pixel, nearest_mode=round_prefer_floor,
// layout=NCHW}. Validated: size has 2 values.
struct ResizeView {
  std::array<int64_t, 2> size{0, 0};
  std::string method = "nearest";
  std::string coordinate_transformation_mode = "half_pixel";
  std::string nearest_mode = "round_prefer_floor";
  Layout layout = Layout::Nchw();

  static absl::StatusOr<ResizeView> Of(const Node& node);
};

// take {axis=0, layout=NCHW, channels}: in a blocked layout (NCHW{k}c, set
// by AlterOpLayout) the data holds `channels` real channels, required there.
// The axis and AxisFor are AxisView's.
struct TakeView : AxisView {
  Layout layout = Layout::Nchw();
  int64_t channels = 0;  // 0 in NCHW

  static absl::StatusOr<TakeView> Of(const Node& node);

  bool blocked() const { return !layout.is_nchw(); }
};

// qnn.concat {axis=1, layout=NCHW, channels}: in a blocked layout
// (NCHW{k}c, set by AlterOpLayout) `channels` holds each input's real
// channel count, required there, one per data input.
// The axis and AxisFor are AxisView's.
struct QnnConcatView : AxisView {
  Layout layout = Layout::Nchw();
  std::vector<int64_t> channels;  // empty in NCHW

  static absl::StatusOr<QnnConcatView> Of(const Node& node);

  bool blocked() const { return !layout.is_nchw(); }
};

// nn.global_avg_pool2d and qnn.global_avg_pool2d {layout=NCHW: NCHW, NHWC or
// NCHW{k}c}.
struct GlobalPoolView {
  Layout layout = Layout::Nchw();

  static absl::StatusOr<GlobalPoolView> Of(const Node& node);
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_LAYOUT_VIEWS_H_
