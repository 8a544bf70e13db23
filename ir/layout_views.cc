#include "ir/layout_views.h"

#include "absl/status/status.h"
#include "ir/op_views.h"
#include "util/status_macros.h"

namespace qnnc::ir {

absl::StatusOr<LayoutTransformView> LayoutTransformView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  LayoutTransformView v;
  ASSIGN_OR_RETURN(v.src_layout, LayoutAttr(a, "src_layout"));
  ASSIGN_OR_RETURN(v.dst_layout, LayoutAttr(a, "dst_layout"));
  if (a.Has("channels")) {
    ASSIGN_OR_RETURN(v.channels, a.GetInt("channels"));
  }
  return v;
}

absl::StatusOr<TransposeView> TransposeView::Of(const Node& node) {
  TransposeView v;
  if (node.attrs().Has("axes")) {
    ASSIGN_OR_RETURN(v.axes, node.attrs().GetInts("axes"));
  }
  return v;
}

std::vector<int64_t> TransposeView::AxesFor(int64_t rank) const {
  if (axes) return *axes;
  std::vector<int64_t> reversed(rank);
  for (int64_t i = 0; i < rank; ++i) reversed[i] = rank - 1 - i;
  return reversed;
}

absl::StatusOr<ReshapeView> ReshapeView::Of(const Node& node) {
  ReshapeView v;
  ASSIGN_OR_RETURN(v.newshape, node.attrs().GetInts("newshape"));
  return v;
}

absl::StatusOr<BroadcastToView> BroadcastToView::Of(const Node& node) {
  BroadcastToView v;
  ASSIGN_OR_RETURN(v.shape, node.attrs().GetInts("shape"));
  return v;
}

absl::StatusOr<StridedSliceView> StridedSliceView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  StridedSliceView v;
  ASSIGN_OR_RETURN(v.begin, a.GetInts("begin"));
  ASSIGN_OR_RETURN(v.end, a.GetInts("end"));
  ASSIGN_OR_RETURN(v.strides, a.GetInts("strides"));
  return v;
}

absl::StatusOr<PadView> PadView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  PadView v;
  ASSIGN_OR_RETURN(v.pad_width, a.GetInts("pad_width"));
  ASSIGN_OR_RETURN(v.pad_mode, a.GetString("pad_mode", "constant"));
  ASSIGN_OR_RETURN(v.pad_value, a.GetFloat("pad_value", 0.0));
  return v;
}

std::optional<std::array<int64_t, 4>> PadView::SpatialPads() const {
  const std::vector<int64_t>& w = pad_width;
  if (w.size() != 8 || w[0] != 0 || w[1] != 0 || w[4] != 0 || w[5] != 0) return std::nullopt;
  return std::array<int64_t, 4>{w[2], w[3], w[6], w[7]};
}

absl::StatusOr<ResizeView> ResizeView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  ResizeView v;
  ASSIGN_OR_RETURN(std::vector<int64_t> size, a.GetInts("size"));
  if (size.size() != 2) return absl::InvalidArgumentError("size needs 2 values");
  v.size = {size[0], size[1]};
  ASSIGN_OR_RETURN(v.method, a.GetString("method", v.method));
  ASSIGN_OR_RETURN(v.coordinate_transformation_mode,
                   a.GetString("coordinate_transformation_mode", v.coordinate_transformation_mode));
  ASSIGN_OR_RETURN(v.nearest_mode, a.GetString("nearest_mode", v.nearest_mode));
  ASSIGN_OR_RETURN(v.layout, LayoutAttr(a, "layout", v.layout));
  return v;
}

absl::StatusOr<TakeView> TakeView::Of(const Node& node) {
  TakeView v;
  ASSIGN_OR_RETURN(static_cast<AxisView&>(v), AxisView::Of(node));
  ASSIGN_OR_RETURN(v.layout, LayoutAttr(node.attrs(), "layout", v.layout));
  if (v.blocked()) {
    ASSIGN_OR_RETURN(v.channels, node.attrs().GetInt("channels"));
  }
  return v;
}

absl::StatusOr<QnnConcatView> QnnConcatView::Of(const Node& node) {
  QnnConcatView v;
  ASSIGN_OR_RETURN(static_cast<AxisView&>(v), AxisView::Of(node));
  ASSIGN_OR_RETURN(v.layout, LayoutAttr(node.attrs(), "layout", v.layout));
  if (v.blocked()) {
    ASSIGN_OR_RETURN(v.channels, node.attrs().GetInts("channels"));
    const int64_t inputs = (static_cast<int64_t>(node.inputs().size()) - 2) / 3;
    if (static_cast<int64_t>(v.channels.size()) != inputs) {
      return absl::InvalidArgumentError("channels needs one count per input");
    }
  }
  return v;
}

absl::StatusOr<GlobalPoolView> GlobalPoolView::Of(const Node& node) {
  GlobalPoolView v;
  ASSIGN_OR_RETURN(v.layout, LayoutAttr(node.attrs(), "layout", v.layout));
  return v;
}

}  // namespace qnnc::ir
