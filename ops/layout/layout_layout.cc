// The AlterOpLayout rules of the layout family: constant spatial nn.pad,
// channel concat and qnn.concat, channel take, and resize (per lane) run in
// the blocked layout their inputs come back from.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "passes/layout_rules.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Node;
using ir::Value;

// A constant nn.pad of the spatial dimensions of a tensor that comes back
// from a blocked layout pads in that layout (the same H and W pads; padding
// lanes get the pad value, which no kernel reads), with one transform after
// it.
absl::Status BlockSpatialPad(ir::Graph& graph, Node* n) {
  if (n->op() != "nn.pad") return absl::OkStatus();
  absl::StatusOr<ir::PadView> pad = ir::PadView::Of(*n);
  if (!pad.ok() || !pad->constant()) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  const std::optional<std::array<int64_t, 4>> p = pad->SpatialPads();  // N and C unpadded
  if (!layout || !layout->blocked() || t.rank() != 4 || !p) return absl::OkStatus();
  const auto [top, left, bottom, right] = *p;
  Attrs attrs = n->attrs();
  attrs.Set("pad_width", std::vector<int64_t>{0, 0, top, left, 0, 0, 0, bottom, right, 0});
  return RunBlocked(graph, n, *layout, {n->input(0)->producer()->input(0)}, attrs, t.shape[1]);
}

// A channel qnn.concat (axis 1 of NCHW) of 8-bit tensors that all come back
// from one blocked layout concatenates in that layout, each input's real
// channels packed after the previous one's (exact: the same bytes in the
// real lanes, padding lanes 0), with one transform after it.
absl::Status BlockQnnConcat(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.concat") return absl::OkStatus();
  absl::StatusOr<ir::QnnConcatView> view = ir::QnnConcatView::Of(*n);
  if (!view.ok() || view->blocked()) return absl::OkStatus();
  const int64_t count = (static_cast<int64_t>(n->inputs().size()) - 2) / 3;
  if (count < 1 || (view->axis != 1 && view->axis != -3)) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  if (!layout || !layout->blocked()) return absl::OkStatus();
  std::vector<Value*> inputs = n->inputs();
  std::vector<int64_t> channels;
  for (int64_t i = 0; i < count; ++i) {
    const ir::TensorType& t = *n->input(i)->type();
    if (AlteredSource(n->input(i)) != layout || t.rank() != 4 || tensor::DTypeSize(t.dtype) != 1) {
      return absl::OkStatus();
    }
    inputs[i] = n->input(i)->producer()->input(0);
    channels.push_back(t.shape[1]);
  }
  Attrs attrs = n->attrs();
  attrs.Set("axis", int64_t{1});
  attrs.Set("layout", layout->str());
  attrs.Set("channels", channels);
  return RunBlocked(graph, n, *layout, inputs, attrs, n->output()->type()->shape[1]);
}

// A take of channels (axis 1 of NCHW, constant 1-D indices: GatherChannels'
// form of channel shuffles and slices) of a tensor that comes back from a
// blocked layout picks them in that layout (the same bytes in the real
// lanes, padding lanes 0), with one transform after it.
absl::Status BlockTake(ir::Graph& graph, Node* n) {
  if (n->op() != "take" || !n->input(1)->is_constant() || n->input(1)->type()->rank() != 1) {
    return absl::OkStatus();
  }
  absl::StatusOr<ir::TakeView> view = ir::TakeView::Of(*n);
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (!view.ok() || view->blocked() || (view->axis != 1 && view->axis != -3) || !layout ||
      !layout->blocked() || t.rank() != 4) {
    return absl::OkStatus();
  }
  Attrs attrs = n->attrs();
  attrs.Set("axis", int64_t{1});
  attrs.Set("layout", layout->str());
  attrs.Set("channels", t.shape[1]);
  return RunBlocked(graph, n, *layout, {n->input(0)->producer()->input(0), n->input(1)}, attrs,
                    n->output()->type()->shape[1]);
}

// A channel concat (axis 1 of NCHW) of f32 tensors that all come back from
// one blocked layout with whole blocks concatenates the blocks (axis 1 of
// NCHW{k}c: exact, no padding lanes in between), with one transform after.
absl::Status BlockConcat(ir::Graph& graph, Node* n) {
  if (n->op() != "concat" || n->inputs().empty()) return absl::OkStatus();
  absl::StatusOr<ir::AxisView> axis = ir::AxisView::Of(*n);
  if (!axis.ok() || (axis->axis != 1 && axis->axis != -3)) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  if (!layout || !layout->blocked()) return absl::OkStatus();
  std::vector<Value*> inputs;
  for (Value* v : n->inputs()) {
    const ir::TensorType& t = *v->type();
    if (AlteredSource(v) != layout || !WholeBlocks(t, *layout) || t.dtype != tensor::DType::kF32) {
      return absl::OkStatus();
    }
    inputs.push_back(v->producer()->input(0));
  }
  Attrs attrs = n->attrs();
  attrs.Set("axis", int64_t{1});
  return RunBlocked(graph, n, *layout, inputs, attrs, n->output()->type()->shape[1]);
}

// Resize (f32, and 8-bit nearest from a QDQ Resize) runs per lane in the
// blocked layouts.
absl::Status BlockResize(ir::Graph& graph, Node* n) {
  return RunPerLane(graph, n, /*nhwc_too=*/false, /*bytes_too=*/true, &LayoutOf<ir::ResizeView>);
}

}  // namespace

void AddLayoutLayoutRules(LayoutRules& rules) {
  rules.Add("nn.pad", &BlockSpatialPad);
  rules.Add("concat", &BlockConcat);
  rules.Add("qnn.concat", &BlockQnnConcat);
  rules.Add("take", &BlockTake);
  rules.Add("resize", &BlockResize);
}

}  // namespace qnnc::passes
