#include "passes/alter_op_layout.h"

#include <array>
#include <optional>

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "ir/op_registry.h"
#include "target/decision_attrs.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Node;
using ir::Value;

// A layout the kernels may run in other than NCHW: NHWC or NCHW{k}c.
bool Altered(const std::string& layout) {
  return layout == "NHWC" || ir::ChannelBlock(layout) > 0;
}

// The layouts a fused conv's decision reads and writes (impl_layout,
// impl_out_layout), when it reads another than NCHW: the graph then hands
// them over and takes them back, so neighbouring transforms can cancel. A
// dynamic conv may read blocked and write NCHW (few output channels).
struct DecidedLayouts {
  std::string data, out;
};
std::optional<DecidedLayouts> AlteredLayouts(const Node& n) {
  if (n.op() != "qnn.conv2d_requantize" && n.op() != "qnn.conv2d_dynamic") return std::nullopt;
  auto d = target::GetDecision(n);
  if (!d || !Altered(d->layout)) return std::nullopt;
  DecidedLayouts l{d->layout, d->out_layout.empty() ? d->layout : d->out_layout};
  if (!Altered(l.out) && !(n.op() == "qnn.conv2d_dynamic" && l.out == "NCHW")) return std::nullopt;
  return l;
}

// Adds a node and types its results at once (later nodes of this pass read
// them).
absl::StatusOr<Node*> AddTyped(ir::Graph& graph, const std::string& op, std::vector<Value*> inputs,
                               Attrs attrs, const std::string& name = "", size_t outputs = 1) {
  Node* node = graph.AddNode(op, std::move(inputs), std::move(attrs), outputs, name);
  std::vector<ir::TensorType> types;
  for (const Value* v : node->inputs()) types.push_back(*v->type());
  ASSIGN_OR_RETURN(auto out, ir::OpRegistry::Global().InferNode(*node, types));
  for (size_t i = 0; i < outputs && i < out.size(); ++i) node->output(i)->set_type(out[i]);
  return node;
}

// Replaces `n` by the same op on blocked operands (`inputs`, `attrs`), its
// first result going back to NCHW (`channels`) through one transform; other
// results (a range, scale, zero point) do not depend on the layout.
absl::Status RunBlocked(ir::Graph& graph, Node* n, const std::string& layout,
                        std::vector<Value*> inputs, Attrs attrs, int64_t channels) {
  ASSIGN_OR_RETURN(Node* blocked, AddTyped(graph, n->op(), std::move(inputs), std::move(attrs),
                                           n->name(), n->outputs().size()));
  ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {blocked->output(0)},
                                        ir::LayoutTransformAttrs(layout, "NCHW", channels)));
  graph.ReplaceAllUsesWith(n->output(0), back->output());
  for (size_t i = 1; i < n->outputs().size(); ++i) graph.ReplaceAllUsesWith(n->output(i), blocked->output(i));
  return absl::OkStatus();
}

// The layout `v` comes back from (v = layout_transform(x: L -> NCHW), L
// blocked or NHWC), or "".
std::string AlteredSource(const Value* v) {
  const Node* t = v->producer();
  if (t == nullptr || t->op() != "layout_transform") return "";
  absl::StatusOr<ir::LayoutTransformView> view = ir::LayoutTransformView::Of(*t);
  if (!view.ok() || view->dst_layout != "NCHW" || !Altered(view->src_layout)) return "";
  return view->src_layout;
}

bool OneElement(const Value* v) {
  int64_t n = 1;
  for (int64_t d : v->type()->shape) n *= d;
  return n == 1;
}

// qnn.add of two NCHW tensors that both come back from one altered layout
// with the same type: the add runs in that layout instead, with one
// transform after it. Exact: the add is elementwise with per-tensor
// parameters, so each real element gets the same value; padding lanes get
// values no kernel reads (their weights are zero, and the transform back to
// NCHW drops them). Leaves any other node alone.
absl::Status BlockAdd(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.add" || n->inputs().size() != 8) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  if (layout.empty() || layout != AlteredSource(n->input(1))) return absl::OkStatus();
  Value* a = n->input(0)->producer()->input(0);
  Value* b = n->input(1)->producer()->input(0);
  if (*a->type() != *b->type() || *n->input(0)->type() != *n->input(1)->type() ||
      n->input(0)->type()->rank() != 4) {
    return absl::OkStatus();
  }
  for (size_t i = 2; i < 8; ++i) {
    if (!OneElement(n->input(i))) return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = a;
  inputs[1] = b;
  return RunBlocked(graph, n, layout, inputs, n->attrs(), n->input(0)->type()->shape[1]);
}

// A qnn.mul of two 8-bit tensors that both come back from one blocked
// layout, of one shape or one a squeeze-excite gate [N, C, 1, 1], multiplies
// in that layout (element by element, the gate's lanes broadcast over the
// pixels as its channels over H and W: exact), with one transform after it.
absl::Status BlockQnnMul(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.mul" || n->inputs().size() != 8) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  if (layout.empty() || ir::ChannelBlock(layout) == 0 || layout != AlteredSource(n->input(1))) {
    return absl::OkStatus();
  }
  const ir::TensorType& a = *n->input(0)->type();
  const ir::TensorType& b = *n->input(1)->type();
  if (a.rank() != 4 || b.rank() != 4 || a.shape[0] != b.shape[0] || a.shape[1] != b.shape[1]) {
    return absl::OkStatus();
  }
  const bool gate = (b.shape[2] == 1 && b.shape[3] == 1) || (a.shape[2] == 1 && a.shape[3] == 1);
  if (a.shape != b.shape && !gate) return absl::OkStatus();
  for (size_t i = 2; i < 8; ++i) {
    if (!OneElement(n->input(i))) return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = n->input(0)->producer()->input(0);
  inputs[1] = n->input(1)->producer()->input(0);
  return RunBlocked(graph, n, layout, inputs, n->attrs(), n->output()->type()->shape[1]);
}

// A per-tensor qnn.dequantize or qnn.quantize of a tensor that comes back
// from a blocked layout runs in that layout (element by element: exact;
// padding lanes map to values no kernel reads), with one transform after it.
absl::Status BlockPerTensorQuantization(ir::Graph& graph, Node* n) {
  if ((n->op() != "qnn.dequantize" && n->op() != "qnn.quantize") || n->inputs().size() != 3) {
    return absl::OkStatus();
  }
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (layout.empty() || ir::ChannelBlock(layout) == 0 || t.rank() != 4 || !OneElement(n->input(1)) ||
      !OneElement(n->input(2))) {
    return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, layout, inputs, n->attrs(), t.shape[1]);
}

// A constant nn.pad of the spatial dimensions of a tensor that comes back
// from a blocked layout pads in that layout (the same H and W pads; padding
// lanes get the pad value, which no kernel reads), with one transform after
// it.
absl::Status BlockSpatialPad(ir::Graph& graph, Node* n) {
  if (n->op() != "nn.pad") return absl::OkStatus();
  absl::StatusOr<ir::PadView> pad = ir::PadView::Of(*n);
  if (!pad.ok() || !pad->constant()) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  const std::optional<std::array<int64_t, 4>> p = pad->SpatialPads();  // N and C unpadded
  if (layout.empty() || ir::ChannelBlock(layout) == 0 || t.rank() != 4 || !p) return absl::OkStatus();
  const auto [top, left, bottom, right] = *p;
  Attrs attrs = n->attrs();
  attrs.Set("pad_width", std::vector<int64_t>{0, 0, top, left, 0, 0, 0, bottom, right, 0});
  return RunBlocked(graph, n, layout, {n->input(0)->producer()->input(0)}, attrs, t.shape[1]);
}

// A qnn.lookup of a tensor that comes back from an altered layout looks up
// in that layout (element by element: exact; padding lanes map to values no
// kernel reads, as for qnn.add), with one transform after it.
absl::Status BlockLookup(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.lookup") return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (layout.empty() || t.rank() != 4) return absl::OkStatus();
  return RunBlocked(graph, n, layout, {n->input(0)->producer()->input(0), n->input(1)}, n->attrs(),
                    t.shape[1]);
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
  const std::string layout = AlteredSource(n->input(0));
  if (layout.empty() || ir::ChannelBlock(layout) == 0) return absl::OkStatus();
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
  attrs.Set("layout", layout);
  attrs.Set("channels", channels);
  return RunBlocked(graph, n, layout, inputs, attrs, n->output()->type()->shape[1]);
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
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (!view.ok() || view->blocked() || (view->axis != 1 && view->axis != -3) || layout.empty() ||
      ir::ChannelBlock(layout) == 0 || t.rank() != 4) {
    return absl::OkStatus();
  }
  Attrs attrs = n->attrs();
  attrs.Set("axis", int64_t{1});
  attrs.Set("layout", layout);
  attrs.Set("channels", t.shape[1]);
  return RunBlocked(graph, n, layout, {n->input(0)->producer()->input(0), n->input(1)}, attrs,
                    n->output()->type()->shape[1]);
}

// The `layout` of an op whose view `View` has one.
template <typename View>
absl::StatusOr<std::string> LayoutOf(const Node& n) {
  ASSIGN_OR_RETURN(View v, View::Of(n));
  return v.layout;
}

// Ops with a `layout` attribute that work channel by channel run in the
// altered layout their input comes back from, lane by lane as each lane's
// channel (exact), with one transform after them. Padding lanes compute
// values nobody reads: convolutions weigh them 0, the transform back drops
// them, DynamicQuantizeLinear runs blocked only on whole blocks or with its
// producer's range. Max pools (8-bit and f32) also follow NHWC; resize (f32,
// and 8-bit nearest from a QDQ Resize), the f32 average pools (windowed
// and global) and the 8-bit global one follow the blocked layouts.
absl::Status BlockPerLane(ir::Graph& graph, Node* n) {
  struct PerLaneOp {
    const char* op;
    bool nhwc_too, bytes_too;  // NHWC as well as NCHW{k}c; u8/i8 as well as f32
    absl::StatusOr<std::string> (*layout)(const Node&);  // the op's, from its view
  };
  static constexpr PerLaneOp kOps[] = {{"nn.max_pool2d", true, true, &LayoutOf<ir::Pool2DView>},
                                       {"resize", false, true, &LayoutOf<ir::ResizeView>},
                                       {"nn.avg_pool2d", false, false, &LayoutOf<ir::Pool2DView>},
                                       {"nn.global_avg_pool2d", false, false, &LayoutOf<ir::GlobalPoolView>},
                                       {"qnn.global_avg_pool2d", false, true, &LayoutOf<ir::GlobalPoolView>}};
  const PerLaneOp* op = nullptr;
  for (const PerLaneOp& o : kOps) {
    if (n->op() == o.op) op = &o;
  }
  if (op == nullptr) return absl::OkStatus();
  const absl::StatusOr<std::string> current = op->layout(*n);
  if (!current.ok() || *current != "NCHW") return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  const bool dtype_ok = t.dtype == tensor::DType::kF32 ||
                        (op->bytes_too && (t.dtype == tensor::DType::kU8 || t.dtype == tensor::DType::kI8));
  if (layout.empty() || (!op->nhwc_too && ir::ChannelBlock(layout) == 0) || t.rank() != 4 || !dtype_ok) {
    return absl::OkStatus();
  }
  Attrs attrs = n->attrs();
  attrs.Set("layout", layout);
  std::vector<Value*> inputs = n->inputs();  // the data, then any parameters
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, layout, inputs, attrs, t.shape[1]);
}

// The channels of a rank-4 NCHW type, and whether they fill whole blocks
// of `layout` (no padding lanes).
bool WholeBlocks(const ir::TensorType& t, const std::string& layout) {
  const int64_t block = ir::ChannelBlock(layout);
  return t.rank() == 4 && block > 0 && t.shape[1] % block == 0;
}

// A float add of two same-typed tensors that both come back from one blocked
// layout runs in that layout (elementwise: exact; padding lanes 0 + 0 stay
// 0), with one transform after it.
absl::Status BlockFloatAdd(ir::Graph& graph, Node* n) {
  if (n->op() != "add" || n->inputs().size() != 2) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  if (layout.empty() || ir::ChannelBlock(layout) == 0 || layout != AlteredSource(n->input(1))) {
    return absl::OkStatus();
  }
  const ir::TensorType& t = *n->input(0)->type();
  Value* a = n->input(0)->producer()->input(0);
  Value* b = n->input(1)->producer()->input(0);
  if (t.dtype != tensor::DType::kF32 || t.rank() != 4 || t != *n->input(1)->type() ||
      *a->type() != *b->type() || *n->output()->type() != t) {
    return absl::OkStatus();
  }
  return RunBlocked(graph, n, layout, {a, b}, n->attrs(), t.shape[1]);
}

// DynamicQuantizeLinear of a tensor that comes back from a blocked layout
// with whole blocks (no padding lanes, which would join its min and max) or
// with its range given by its producer quantizes in that layout: elementwise after one range over all elements,
// so exact. Its u8 result goes back to NCHW by one transform (which the next
// blocked convolution's transform cancels); scale and zero point are
// unchanged.
absl::Status BlockDynamicQuantize(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.dynamic_quantize" || n->outputs().size() != 3) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  // With its producer's range (a second input) the padding lanes join
  // nothing: any channel count.
  const bool given_range = n->inputs().size() > 1;
  if (layout.empty() || (!WholeBlocks(t, layout) && !given_range) ||
      ir::ChannelBlock(layout) == 0 || t.dtype != tensor::DType::kF32) {
    return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();  // data, and a producer's range if any
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, layout, inputs, n->attrs(), t.shape[1]);
}

// A channel concat (axis 1 of NCHW) of f32 tensors that all come back from
// one blocked layout with whole blocks concatenates the blocks (axis 1 of
// NCHW{k}c: exact, no padding lanes in between), with one transform after.
absl::Status BlockConcat(ir::Graph& graph, Node* n) {
  if (n->op() != "concat" || n->inputs().empty()) return absl::OkStatus();
  absl::StatusOr<ir::AxisView> axis = ir::AxisView::Of(*n);
  if (!axis.ok() || (axis->axis != 1 && axis->axis != -3)) return absl::OkStatus();
  const std::string layout = AlteredSource(n->input(0));
  if (layout.empty() || ir::ChannelBlock(layout) == 0) return absl::OkStatus();
  std::vector<Value*> inputs;
  for (Value* v : n->inputs()) {
    const ir::TensorType& t = *v->type();
    if (AlteredSource(v) != layout || !WholeBlocks(t, layout) || t.dtype != tensor::DType::kF32) {
      return absl::OkStatus();
    }
    inputs.push_back(v->producer()->input(0));
  }
  Attrs attrs = n->attrs();
  attrs.Set("axis", int64_t{1});
  return RunBlocked(graph, n, layout, inputs, attrs, n->output()->type()->shape[1]);
}

}  // namespace

absl::Status AlterOpLayoutPass::Run(ir::Graph& graph, PassContext&) {
  for (Node* n : graph.nodes()) {
    std::optional<DecidedLayouts> layouts = AlteredLayouts(*n);
    if (!layouts) continue;
    absl::StatusOr<ir::Conv2DView> conv = ir::Conv2DView::Of(*n);
    if (!conv.ok() || conv->data_layout != "NCHW") continue;
    const int64_t out_channels = n->output()->type()->shape[1];
    ASSIGN_OR_RETURN(Node* to_altered, AddTyped(graph, "layout_transform", {n->input(0)},
                                                ir::LayoutTransformAttrs("NCHW", layouts->data, 0)));
    Attrs attrs = n->attrs();
    attrs.Set("data_layout", layouts->data);
    attrs.Set("out_layout", layouts->out);
    std::vector<Value*> inputs = n->inputs();
    inputs[0] = to_altered->output();
    ASSIGN_OR_RETURN(Node* altered,
                     AddTyped(graph, n->op(), inputs, attrs, n->name(), n->outputs().size()));
    Value* result = altered->output();
    if (layouts->out != "NCHW") {
      ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {altered->output()},
                                            ir::LayoutTransformAttrs(layouts->out, "NCHW", out_channels)));
      result = back->output();
    }
    graph.ReplaceAllUsesWith(n->output(), result);
    // Other results (a dynamic convolution's range) do not depend on the layout.
    for (size_t i = 1; i < n->outputs().size(); ++i) graph.ReplaceAllUsesWith(n->output(i), altered->output(i));
  }
  // Then the ops between blocked convolutions that can run blocked, in graph
  // order, so an op on another's result sees that one's transform.
  RETURN_IF_ERROR(graph.TopologicalSort());
  for (Node* n : graph.nodes()) {
    RETURN_IF_ERROR(BlockPerLane(graph, n));
    RETURN_IF_ERROR(BlockAdd(graph, n));
    RETURN_IF_ERROR(BlockLookup(graph, n));
    RETURN_IF_ERROR(BlockQnnMul(graph, n));
    RETURN_IF_ERROR(BlockPerTensorQuantization(graph, n));
    RETURN_IF_ERROR(BlockSpatialPad(graph, n));
    RETURN_IF_ERROR(BlockFloatAdd(graph, n));
    RETURN_IF_ERROR(BlockConcat(graph, n));
    RETURN_IF_ERROR(BlockQnnConcat(graph, n));
    RETURN_IF_ERROR(BlockTake(graph, n));
    RETURN_IF_ERROR(BlockDynamicQuantize(graph, n));
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
