#include "passes/fuse_ops.h"

#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/conv_epilogue.h"
#include "ir/decision_view.h"
#include "ir/elementwise_views.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Node;
using ir::Value;

bool FusesRequantize(const Node& conv, const target::Registry& registry) {
  auto d = ir::DecisionView::Of(conv);
  if (!d) return false;
  const target::Implementation* impl = registry.FindImplementation("qnn.conv2d", d->implementation);
  return impl != nullptr && impl->fuses_requantize;
}

// Spatial-only constant padding of an NCHW tensor: returns {top, left,
// bottom, right} and the pad value.
bool SpatialPad(const Node& pad, std::vector<int64_t>* pads, double* value) {
  absl::StatusOr<ir::PadView> view = ir::PadView::Of(pad);
  if (!view.ok() || !view->constant()) return false;
  const std::optional<std::array<int64_t, 4>> spatial = view->SpatialPads();
  if (!spatial) return false;
  *pads = {spatial->begin(), spatial->end()};
  *value = view->pad_value;
  return true;
}

// Tries to fuse the pattern ending at `requantize`; returns the fused value
// or nullptr.
absl::StatusOr<Value*> TryFuse(ir::Graph& graph, const Node& requantize,
                               const target::Registry& registry) {
  std::optional<ir::ConvEpilogue> epilogue = ir::MatchConvEpilogue(graph, requantize);
  if (!epilogue || !epilogue->fusable() ||
      (epilogue->conv->op() != "nn.conv2d" && epilogue->conv->op() != "qnn.conv2d") ||
      !FusesRequantize(*epilogue->conv, registry)) {
    return nullptr;
  }
  const Node* conv = epilogue->conv;
  absl::StatusOr<ir::Conv2DView> conv_view = ir::Conv2DView::Of(*conv);
  if (!conv_view.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(conv->Describe(), ": ", conv_view.status().message()));
  }
  const ir::Conv2DView& view = *conv_view;
  if (!view.data_layout.is_nchw()) return nullptr;
  std::vector<int64_t> padding = view.padding_vector();
  int64_t out_channels = conv->output()->type()->shape[1];
  std::vector<int32_t> bias(out_channels, 0);
  for (const Node* add : epilogue->bias_adds) {
    const tensor::Tensor& b = add->input(1)->data();
    for (int64_t o = 0; o < out_channels; ++o) bias[o] += static_cast<int32_t>(b.GetAsInt(o));
  }
  ir::Builder b(&graph);
  bool quantized = conv->op() == "qnn.conv2d";
  Value* data = conv->input(0);
  Value* izp = quantized ? conv->input(2) : b.Scalar<int32_t>(0);
  Value* kzp = quantized ? conv->input(3) : b.Scalar<int32_t>(0);
  Value* in_scale = quantized ? conv->input(4) : b.Scalar<float>(1.0f);
  Value* k_scale = quantized ? conv->input(5) : b.Scalar<float>(1.0f);
  double pad_value = quantized && izp->is_constant() ? izp->data().GetAsDouble(0) : 0.0;
  // The u8 x s8 pairing pads explicitly with the data zero point.
  const Node* pad = data->producer();
  std::vector<int64_t> pads;
  double value = 0;
  if (pad != nullptr && pad->op() == "nn.pad" && ir::SoleUser(graph, data) != nullptr &&
      view.unpadded() && SpatialPad(*pad, &pads, &value)) {
    data = pad->input(0);
    padding = pads;
    pad_value = value;
  }
  ir::Attrs attrs;
  for (const auto& [k, val] : conv->attrs().map()) attrs.Set(k, val);
  attrs.Set("padding", padding);
  attrs.Set("pad_value", pad_value);
  for (const char* key : {"out_dtype", "clamp_min", "clamp_max"}) {
    if (requantize.attrs().map().count(key)) attrs.Set(key, requantize.attrs().map().at(key));
  }
  Node* fused = graph.AddNode(
      "qnn.conv2d_requantize",
      {data, conv->input(1), b.Vector<int32_t>(bias), izp, kzp, in_scale, k_scale,
       requantize.input(1), requantize.input(3), requantize.input(4)},
      attrs, 1, conv->name());
  return fused->output();
}

bool FusesDynamicEpilogue(const Node& conv, const target::Registry& registry) {
  auto d = ir::DecisionView::Of(conv);
  if (!d) return false;
  const target::Implementation* impl = registry.FindImplementation("qnn.conv2d", d->implementation);
  return impl != nullptr && impl->fuses_dynamic_epilogue;
}

// An f32 operand holding 1 or `channels` values along axis 1 of an NCHW
// result (what qnn.conv2d_dynamic takes as scale and bias).
bool ChannelOperand(const Value* v, int64_t channels) {
  if (!v->type() || v->type()->dtype != tensor::DType::kF32 || v->type()->rank() > 4) return false;
  const auto& shape = v->type()->shape;
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    const size_t axis = 4 - shape.size() + i;
    if (shape[i] != 1 && (axis != 1 || shape[i] != channels)) return false;
    n *= shape[i];
  }
  return n == 1 || n == channels;
}

// Whether `v` is computed from `target`'s output (then an op reading `v`
// cannot be fused into `target`).
bool DependsOn(const Value* v, const Node* target) {
  std::vector<const Value*> stack = {v};
  absl::flat_hash_map<const Value*, bool> seen;
  while (!stack.empty()) {
    const Value* x = stack.back();
    stack.pop_back();
    if (seen[x]) continue;
    seen[x] = true;
    const Node* p = x->producer();
    if (p == nullptr) continue;
    if (p == target) return true;
    for (const Value* in : p->inputs()) stack.push_back(in);
  }
  return false;
}

// A dynamically quantized convolution's epilogue (ONNX ConvInteger -> Cast
// -> Mul by x_scale * w_scale -> Add bias -> Clip/Relu): qnn.conv2d, cast to
// f32, multiply by a per-tensor or per-channel scale, then optionally add a
// constant bias and clip, becomes one qnn.conv2d_dynamic. Returns the value
// it replaces and the fused value, or {nullptr, nullptr}.
absl::StatusOr<std::pair<const Value*, Value*>> TryFuseDynamic(ir::Graph& graph, const Node& conv,
                                                               const target::Registry& registry) {
  const std::pair<const Value*, Value*> none{nullptr, nullptr};
  if (conv.op() != "qnn.conv2d" || !FusesDynamicEpilogue(conv, registry) || !conv.output()->type()) {
    return none;
  }
  const tensor::Shape& shape = conv.output()->type()->shape;
  if (shape.size() != 4) return none;
  const int64_t channels = shape[1];
  auto same_shape = [&](const Node* n) {
    return n->output()->type() && n->output()->type()->dtype == tensor::DType::kF32 &&
           n->output()->type()->shape == shape;
  };
  const Node* cast = ir::SoleUser(graph, conv.output());
  if (cast == nullptr || cast->op() != "cast" || !same_shape(cast)) return none;
  const Node* mul = ir::SoleUser(graph, cast->output());
  if (mul == nullptr || mul->op() != "multiply" || !same_shape(mul)) return none;
  Value* scale = mul->input(0) == cast->output() ? mul->input(1) : mul->input(0);
  if (scale == cast->output() || !ChannelOperand(scale, channels) || DependsOn(scale, &conv)) {
    return none;
  }
  const Node* last = mul;
  Value* bias = nullptr;
  if (const Node* add = ir::SoleUser(graph, mul->output());
      add != nullptr && add->op() == "add" && same_shape(add)) {
    Value* b = add->input(0) == mul->output() ? add->input(1) : add->input(0);
    if (b != mul->output() && b->is_constant() && ChannelOperand(b, channels)) {
      bias = b;
      last = add;
    }
  }
  ir::Attrs attrs;
  for (const auto& [k, val] : conv.attrs().map()) attrs.Set(k, val);
  if (const Node* clip = ir::SoleUser(graph, last->output());
      clip != nullptr && (clip->op() == "clip" || clip->op() == "relu") && same_shape(clip)) {
    // relu's v < 0 ? 0 : v is the clip to [0, +inf]: v < 0 ? 0 : (v > inf ? inf : v).
    const bool relu = clip->op() == "relu";
    const absl::StatusOr<ir::ClipView> bounds =
        relu ? absl::StatusOr<ir::ClipView>(ir::ClipView{0.0, INFINITY}) : ir::ClipView::Of(*clip);
    if (bounds.ok()) {
      attrs.Set("clip_min", bounds->min);
      attrs.Set("clip_max", bounds->max);
      last = clip;
    }
  }
  std::vector<Value*> inputs = {conv.input(0), conv.input(1), conv.input(2), conv.input(3), scale};
  if (bias != nullptr) inputs.push_back(bias);
  Node* fused = graph.AddNode("qnn.conv2d_dynamic", inputs, attrs, 2, conv.name());
  fused->output(1)->set_type(ir::TensorType{tensor::DType::kF32, {2}});
  return std::make_pair(static_cast<const Value*>(last->output()), fused->output());
}

// Each DynamicQuantizeLinear of a fused dynamic convolution's output takes
// the range the convolution computed (its second result), skipping a pass
// over the tensor.
void GiveRangeToDynamicQuantize(ir::Graph& graph, Node& fused) {
  for (Node* n : graph.nodes()) {
    if (n->op() != "qnn.dynamic_quantize" || n->inputs().size() != 1 ||
        n->input(0) != fused.output(0) || n->outputs().size() != 3) {
      continue;
    }
    Node* dq = graph.AddNode(n->op(), {fused.output(0), fused.output(1)}, n->attrs(), 3, n->name());
    for (size_t i = 0; i < 3; ++i) {
      if (n->output(i)->type()) dq->output(i)->set_type(*n->output(i)->type());
      graph.ReplaceAllUsesWith(n->output(i), dq->output(i));
    }
  }
}

}  // namespace

absl::Status FuseOpsPass::Run(ir::Graph& graph, PassContext& context) {
  const target::Registry& registry =
      context.registry ? *context.registry : target::GlobalRegistry();
  for (Node* node : graph.nodes()) {
    if (node->op() != "qnn.requantize") continue;
    ASSIGN_OR_RETURN(Value* fused, TryFuse(graph, *node, registry));
    if (fused != nullptr) graph.ReplaceAllUsesWith(node->output(), fused);
  }
  for (Node* node : graph.nodes()) {
    if (node->op() != "qnn.conv2d") continue;
    ASSIGN_OR_RETURN(auto replaced, TryFuseDynamic(graph, *node, registry));
    if (replaced.second != nullptr) {
      graph.ReplaceAllUsesWith(const_cast<Value*>(replaced.first), replaced.second);
      GiveRangeToDynamicQuantize(graph, *replaced.second->producer());
    }
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
