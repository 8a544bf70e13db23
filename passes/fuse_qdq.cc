#include "passes/fuse_qdq.h"

#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "passes/qdq_match.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using qdq::MatchDequantize;
using qdq::QParams;
using qdq::Rewriter;

bool IsPerTensor(const std::optional<QParams>& p) { return p.has_value() && p->per_tensor; }

// Q(relu?(add(DQ(a), DQ(b)))) -> qnn.add. qnn.add saturates but has no clamp,
// so a relu is only dropped when the output zero point is the dtype minimum.
absl::StatusOr<ir::Value*> FuseAdd(ir::Graph& g, const QParams& q) {
  const tensor::DType out = q.node->output()->type()->dtype;
  ir::Value* v = q.data;
  if (ir::Node* relu = qdq::ProducerOf(v, "relu")) {
    if (qdq::IntScalar(q.zero_point) != tensor::DTypeMin(out) || g.CountUses(v) != 1) {
      return nullptr;
    }
    v = relu->input(0);
  }
  ir::Node* add = qdq::ProducerOf(v, "add");
  if (add == nullptr || g.CountUses(v) != 1) return nullptr;
  auto a = MatchDequantize(add->input(0));
  auto b = MatchDequantize(add->input(1));
  if (!IsPerTensor(a) || !IsPerTensor(b)) return nullptr;
  ir::Attrs attrs;
  attrs.Set("out_dtype", std::string(tensor::DTypeName(out)));
  return Rewriter(g, q.node).Emit("qnn.add", {a->data, b->data, a->scale, a->zero_point, b->scale,
                                              b->zero_point, q.scale, q.zero_point},
                                  attrs);
}

// Q(multiply(DQ(a), DQ(b))) -> qnn.mul (ONNX Runtime fuses the same into
// QLinearMul), per-tensor operands: a squeeze-excite gate times its input.
absl::StatusOr<ir::Value*> FuseMul(ir::Graph& g, const QParams& q) {
  ir::Node* mul = qdq::ProducerOf(q.data, "multiply");
  if (mul == nullptr || g.CountUses(q.data) != 1) return nullptr;
  auto a = MatchDequantize(mul->input(0));
  auto b = MatchDequantize(mul->input(1));
  if (!IsPerTensor(a) || !IsPerTensor(b)) return nullptr;
  ir::Attrs attrs;
  attrs.Set("out_dtype", std::string(tensor::DTypeName(q.node->output()->type()->dtype)));
  return Rewriter(g, q.node).Emit("qnn.mul", {a->data, b->data, a->scale, a->zero_point, b->scale,
                                              b->zero_point, q.scale, q.zero_point},
                                  attrs);
}

// Q(concat(DQ(x_1), ..., DQ(x_n))) -> qnn.concat.
absl::StatusOr<ir::Value*> FuseConcat(ir::Graph& g, const QParams& q) {
  ir::Node* concat = qdq::ProducerOf(q.data, "concat");
  if (concat == nullptr || g.CountUses(q.data) != 1) return nullptr;
  const tensor::DType out = q.node->output()->type()->dtype;
  std::vector<ir::Value*> data, scales, zps;
  for (ir::Value* in : concat->inputs()) {
    auto dq = MatchDequantize(in);
    if (!IsPerTensor(dq) || dq->data->type()->dtype != out) return nullptr;
    data.push_back(dq->data);
    scales.push_back(dq->scale);
    zps.push_back(dq->zero_point);
  }
  std::vector<ir::Value*> inputs = data;
  inputs.insert(inputs.end(), scales.begin(), scales.end());
  inputs.insert(inputs.end(), zps.begin(), zps.end());
  inputs.push_back(q.scale);
  inputs.push_back(q.zero_point);
  ir::Attrs attrs;
  const absl::StatusOr<ir::AxisView> axis = ir::AxisView::Of(*concat);
  attrs.Set("axis", axis.ok() ? axis->axis : int64_t{0});
  return Rewriter(g, q.node).Emit("qnn.concat", inputs, attrs);
}

// Q(op(DQ(x))) with the same quantization on both sides, for ops that only
// move or select values: the op applies to the integers directly (Q(DQ(q))
// is q). A constant pad of 0.0 pads with the zero point (Q(0) is it); a
// resize selects only in nearest mode.
absl::StatusOr<ir::Value*> FuseDataMovement(ir::Graph& g, const QParams& q) {
  for (const char* op : {"nn.max_pool2d", "flatten", "reshape", "transpose", "strided_slice",
                         "broadcast_to", "nn.pad", "resize"}) {
    ir::Node* n = qdq::ProducerOf(q.data, op);
    if (n == nullptr) continue;
    if (n->op() == "resize") {
      const absl::StatusOr<ir::ResizeView> resize = ir::ResizeView::Of(*n);
      if (!resize.ok() || resize->method != "nearest") return nullptr;
    }
    auto dq = MatchDequantize(n->input(0));
    if (!IsPerTensor(dq) || g.CountUses(q.data) != 1 ||
        dq->data->type()->dtype != q.node->output()->type()->dtype ||
        !qdq::SameValues(dq->scale, q.scale) ||
        !qdq::SameValues(dq->zero_point, q.zero_point)) {
      return nullptr;
    }
    ir::Attrs attrs = n->attrs();
    if (n->op() == "nn.pad") {
      const absl::StatusOr<ir::PadView> pad = ir::PadView::Of(*n);
      if (!pad.ok()) return nullptr;
      if (pad->constant()) {
        if (pad->pad_value != 0.0) return nullptr;
        attrs.Set("pad_value", static_cast<double>(qdq::IntScalar(q.zero_point)));
      }
    }
    return Rewriter(g, q.node).Emit(op, {dq->data}, attrs);
  }
  return nullptr;
}

// Q(global_avg_pool2d(DQ(x))) of 8-bit data -> qnn.global_avg_pool2d, which
// computes the same float32 ops in the same order (a network's head: it
// reads the 8-bit data once instead of writing and reading it as float).
absl::StatusOr<ir::Value*> FuseGlobalAvgPool(ir::Graph& g, const QParams& q) {
  ir::Node* pool = qdq::ProducerOf(q.data, "nn.global_avg_pool2d");
  if (pool == nullptr || g.CountUses(q.data) != 1) return nullptr;
  auto dq = MatchDequantize(pool->input(0));
  const tensor::DType out = q.node->output()->type()->dtype;
  auto byte = [](tensor::DType d) { return d == tensor::DType::kU8 || d == tensor::DType::kI8; };
  if (!IsPerTensor(dq) || !byte(dq->data->type()->dtype) || !byte(out)) return nullptr;
  ir::Attrs attrs = pool->attrs();
  attrs.Set("out_dtype", std::string(tensor::DTypeName(out)));
  return Rewriter(g, q.node).Emit("qnn.global_avg_pool2d",
                                  {dq->data, dq->scale, dq->zero_point, q.scale, q.zero_point}, attrs);
}

}  // namespace

absl::Status FuseQdq(ir::Graph& graph) {
  for (ir::Node* node : graph.nodes()) {
    if (node->op() != "qnn.quantize") continue;
    std::optional<QParams> q = qdq::MatchQParams(node);
    if (!IsPerTensor(q) || !node->output()->type()) continue;
    ir::Value* fused = nullptr;
    for (auto* fuse : {qdq::FuseLinear, FuseAdd, FuseMul, FuseConcat, FuseDataMovement,
                       FuseGlobalAvgPool}) {
      ASSIGN_OR_RETURN(fused, fuse(graph, *q));
      if (fused != nullptr) break;
    }
    if (fused != nullptr) graph.ReplaceAllUsesWith(node->output(), fused);
  }
  graph.RemoveDeadCode();
  return graph.Verify();
}

}  // namespace qnnc::passes
