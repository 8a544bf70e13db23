#include "passes/fuse_ops.h"

#include "absl/container/flat_hash_map.h"
#include "ir/builder.h"
#include "target/decision_attrs.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Node;
using ir::Value;

class UseCounts {
 public:
  explicit UseCounts(const ir::Graph& g) {
    for (const Node* n : g.nodes()) {
      for (const Value* v : n->inputs()) ++uses_[v];
    }
    for (const Value* v : g.outputs()) ++uses_[v];
  }
  bool Single(const Value* v) const {
    auto it = uses_.find(v);
    return it != uses_.end() && it->second == 1;
  }

 private:
  absl::flat_hash_map<const Value*, int> uses_;
};

bool FusesRequantize(const Node& conv, const target::Registry& registry) {
  auto d = target::GetDecision(conv);
  if (!d) return false;
  const target::Implementation* impl = registry.FindImplementation("qnn.conv2d", d->implementation);
  return impl != nullptr && impl->fuses_requantize;
}

bool IsScalarConstant(const Value* v, double value) {
  return v->is_constant() && v->data().num_elements() == 1 && v->data().GetAsDouble(0) == value;
}

// Spatial-only constant padding of an NCHW tensor: returns {top, left,
// bottom, right} and the pad value.
bool SpatialPad(const Node& pad, std::vector<int64_t>* pads, double* value) {
  auto width = pad.attrs().GetInts("pad_width");
  auto mode = pad.attrs().GetString("pad_mode", "constant");
  auto v = pad.attrs().GetFloat("pad_value", 0.0);
  if (!width.ok() || !mode.ok() || !v.ok() || *mode != "constant" || width->size() != 8) return false;
  const auto& w = *width;
  if (w[0] || w[1] || w[4] || w[5]) return false;
  *pads = {w[2], w[3], w[6], w[7]};
  *value = *v;
  return true;
}

// Tries to fuse the pattern ending at `requantize`; returns the fused value
// or nullptr.
absl::StatusOr<Value*> TryFuse(ir::Graph& graph, const Node& requantize, const UseCounts& uses,
                               const target::Registry& registry) {
  if (requantize.attrs().GetString("rounding", "TONEAREST_EVEN").value_or("") != "TONEAREST_EVEN") {
    return nullptr;
  }
  if (!IsScalarConstant(requantize.input(2), 0) || !requantize.input(4)->is_constant() ||
      requantize.input(4)->data().num_elements() != 1) {
    return nullptr;
  }
  // Walk back through the bias additions, summing the constant biases.
  std::vector<const Value*> biases;
  const Value* v = requantize.input(0);
  while (v->producer() != nullptr && v->producer()->op() == "nn.bias_add" && uses.Single(v)) {
    const Node* add = v->producer();
    if (!add->input(1)->is_constant()) return nullptr;
    biases.push_back(add->input(1));
    v = add->input(0);
  }
  const Node* conv = v->producer();
  if (conv == nullptr || !uses.Single(v) ||
      (conv->op() != "nn.conv2d" && conv->op() != "qnn.conv2d") || !FusesRequantize(*conv, registry)) {
    return nullptr;
  }
  ASSIGN_OR_RETURN(auto padding, conv->attrs().GetInts("padding", {0, 0, 0, 0}));
  ASSIGN_OR_RETURN(std::string layout, conv->attrs().GetString("data_layout", "NCHW"));
  if (layout != "NCHW") return nullptr;
  int64_t out_channels = conv->output()->type()->shape[1];
  std::vector<int32_t> bias(out_channels, 0);
  for (const Value* b : biases) {
    for (int64_t o = 0; o < out_channels; ++o) bias[o] += static_cast<int32_t>(b->data().GetAsInt(o));
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
  if (pad != nullptr && pad->op() == "nn.pad" && uses.Single(data) &&
      padding == std::vector<int64_t>{0, 0, 0, 0} && SpatialPad(*pad, &pads, &value)) {
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

}  // namespace

absl::Status FuseOpsPass::Run(ir::Graph& graph, PassContext& context) {
  const target::Registry& registry =
      context.registry ? *context.registry : target::GlobalRegistry();
  UseCounts uses(graph);
  for (Node* node : graph.nodes()) {
    if (node->op() != "qnn.requantize") continue;
    ASSIGN_OR_RETURN(Value* fused, TryFuse(graph, *node, uses, registry));
    if (fused != nullptr) graph.ReplaceAllUsesWith(node->output(), fused);
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
