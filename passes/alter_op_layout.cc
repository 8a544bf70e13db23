#include "passes/alter_op_layout.h"

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/layout.h"
#include "ir/op_registry.h"
#include "target/decision_attrs.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Node;
using ir::Value;

Attrs Transform(const std::string& src, const std::string& dst, int64_t channels = 0) {
  Attrs a;
  a.Set("src_layout", src);
  a.Set("dst_layout", dst);
  if (channels > 0) a.Set("channels", channels);
  return a;
}

// The blocked layout a fused conv runs in, or "" to leave it in NCHW. Only
// implementations with a kernel that consumes it (the x86 u8 x s8 spatial
// pack) are altered; the others keep the layout their legalization gave.
std::string BlockedLayout(const Node& n) {
  if (n.op() != "qnn.conv2d_requantize") return "";
  auto d = target::GetDecision(n);
  if (!d || d->layout != "NCHW16c" || d->implementation.rfind("x86.spatial_pack.u8s8", 0) != 0) {
    return "";
  }
  return d->layout;
}

// Adds a node and types its result at once (later nodes of this pass read it).
absl::StatusOr<Node*> AddTyped(ir::Graph& graph, const std::string& op, std::vector<Value*> inputs,
                               Attrs attrs, const std::string& name = "") {
  Node* node = graph.AddNode(op, std::move(inputs), std::move(attrs), 1, name);
  std::vector<ir::TensorType> types;
  for (const Value* v : node->inputs()) types.push_back(*v->type());
  ASSIGN_OR_RETURN(auto out, ir::OpRegistry::Global().InferNode(*node, types));
  node->output()->set_type(out[0]);
  return node;
}

// The blocked layout `v` comes back from (v = layout_transform(x: NCHW{k}c ->
// NCHW)), or "".
std::string BlockedSource(const Value* v) {
  const Node* t = v->producer();
  if (t == nullptr || t->op() != "layout_transform") return "";
  auto src = t->attrs().GetString("src_layout"), dst = t->attrs().GetString("dst_layout");
  if (!src.ok() || !dst.ok() || *dst != "NCHW" || ir::ChannelBlock(*src) == 0) return "";
  return *src;
}

bool OneElement(const Value* v) {
  int64_t n = 1;
  for (int64_t d : v->type()->shape) n *= d;
  return n == 1;
}

// qnn.add of two NCHW tensors that both come back from one blocked layout
// with the same blocked type: the add runs in that layout instead, with one
// transform after it. Exact: the add is elementwise with per-tensor
// parameters, so each real lane gets the same value; padding lanes get
// values no kernel reads (their weights are zero, and the transform back to
// NCHW drops them). Leaves any other node alone.
absl::Status BlockAdd(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.add" || n->inputs().size() != 8) return absl::OkStatus();
  const std::string layout = BlockedSource(n->input(0));
  if (layout.empty() || layout != BlockedSource(n->input(1))) return absl::OkStatus();
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
  ASSIGN_OR_RETURN(Node* blocked, AddTyped(graph, "qnn.add", inputs, n->attrs(), n->name()));
  const int64_t channels = n->input(0)->type()->shape[1];
  ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {blocked->output()},
                                        Transform(layout, "NCHW", channels)));
  graph.ReplaceAllUsesWith(n->output(), back->output());
  return absl::OkStatus();
}

// An 8-bit max pool of a tensor that comes back from a blocked layout pools
// in that layout (lane by lane: exact; padding lanes pool garbage nobody
// reads), with one transform after it. Leaves any other node alone.
absl::Status BlockMaxPool(ir::Graph& graph, Node* n) {
  if (n->op() != "nn.max_pool2d" || n->attrs().GetString("layout", "NCHW").value_or("") != "NCHW") {
    return absl::OkStatus();
  }
  const std::string layout = BlockedSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (layout.empty() || t.rank() != 4 ||
      (t.dtype != tensor::DType::kU8 && t.dtype != tensor::DType::kI8)) {
    return absl::OkStatus();
  }
  Attrs attrs = n->attrs();
  attrs.Set("layout", layout);
  ASSIGN_OR_RETURN(Node* blocked, AddTyped(graph, n->op(), {n->input(0)->producer()->input(0)},
                                           attrs, n->name()));
  ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {blocked->output()},
                                        Transform(layout, "NCHW", t.shape[1])));
  graph.ReplaceAllUsesWith(n->output(), back->output());
  return absl::OkStatus();
}

}  // namespace

absl::Status AlterOpLayoutPass::Run(ir::Graph& graph, PassContext&) {
  for (Node* n : graph.nodes()) {
    std::string layout = BlockedLayout(*n);
    if (layout.empty() || n->attrs().GetString("data_layout", "NCHW").value_or("") != "NCHW") continue;
    const ir::TensorType& in = *n->input(0)->type();
    int64_t in_channels = in.shape[1], out_channels = n->output()->type()->shape[1];
    // The dense kernel reads an image of at most 4 channels (the stem) as
    // NCHW4c; the depthwise kernel always reads NCHW16c.
    int64_t groups = n->attrs().GetInt("groups", 1).value_or(1);
    bool depthwise = groups > 1 && groups == in_channels;
    std::string in_layout = in_channels <= 4 && !depthwise ? "NCHW4c" : layout;
    ASSIGN_OR_RETURN(Node* to_blocked,
                     AddTyped(graph, "layout_transform", {n->input(0)}, Transform("NCHW", in_layout)));
    Value* blocked = to_blocked->output();
    Attrs attrs = n->attrs();
    attrs.Set("data_layout", in_layout);
    attrs.Set("out_layout", layout);
    std::vector<Value*> inputs = n->inputs();
    inputs[0] = blocked;
    ASSIGN_OR_RETURN(Node* altered, AddTyped(graph, n->op(), inputs, attrs, n->name()));
    ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {altered->output()},
                                          Transform(layout, "NCHW", out_channels)));
    graph.ReplaceAllUsesWith(n->output(), back->output());
  }
  // Then max pools and residual adds between blocked convolutions, in graph
  // order, so an op on another's result sees that one's transform.
  RETURN_IF_ERROR(graph.TopologicalSort());
  for (Node* n : graph.nodes()) {
    RETURN_IF_ERROR(BlockMaxPool(graph, n));
    RETURN_IF_ERROR(BlockAdd(graph, n));
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

absl::Status SimplifyLayoutPass::Run(ir::Graph& graph, PassContext&) {
  // layout_transform(B -> A) of layout_transform(A -> B) of x is x, for the
  // blocked layouts the kernels use: their padding lanes are ignored by the
  // next kernel, so the round trip through NCHW is the identity.
  for (Node* n : graph.nodes()) {
    if (n->op() != "layout_transform") continue;
    const Node* p = n->input(0)->producer();
    if (p == nullptr || p->op() != "layout_transform") continue;
    auto src = n->attrs().GetString("src_layout"), dst = n->attrs().GetString("dst_layout");
    auto psrc = p->attrs().GetString("src_layout"), pdst = p->attrs().GetString("dst_layout");
    if (!src.ok() || !dst.ok() || !psrc.ok() || !pdst.ok()) continue;
    if (*src == *pdst && *dst == *psrc && *n->output()->type() == *p->input(0)->type()) {
      graph.ReplaceAllUsesWith(n->output(), p->input(0));
    }
  }
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
