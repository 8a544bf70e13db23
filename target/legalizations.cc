#include "target/legalizations.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/decision_view.h"
#include "ir/op_views.h"
#include "target/weight_offsets.h"
#include "target/workload.h"
#include "util/status_macros.h"

namespace qnnc::target {
namespace {

using ir::Attrs;
using ir::Builder;
using ir::Value;
using tensor::DType;

Attrs DTypeAttr(const char* name, DType dtype) {
  Attrs a;
  a.Set(name, std::string(tensor::DTypeName(dtype)));
  return a;
}

Value* Cast(Builder& b, Value* v, DType to) { return b.Op("cast", {v}, DTypeAttr("dtype", to)); }

// x + delta computed in i16 and cast to `to` (exact for 8-bit shifts).
Value* Shift(Builder& b, Value* v, int64_t delta, DType to) {
  Value* wide = Cast(b, v, DType::kI16);
  Value* d = b.Scalar<int16_t>(static_cast<int16_t>(delta));
  return Cast(b, b.Op("add", {wide, d}), to);
}

// The zero point as i16, reshaped to broadcast along the output channels of
// an OIHW weight ([O,1,1,1]) or the rows of a dense weight ([N,1]).
Value* WeightZeroPoint(Builder& b, Value* zp, int64_t weight_rank) {
  Value* z = Cast(b, zp, DType::kI16);
  if (zp->type()->rank() == 1 && zp->type()->shape[0] > 1) {
    std::vector<int64_t> shape(weight_rank, 1);
    shape[0] = zp->type()->shape[0];
    Attrs a;
    a.Set("newshape", shape);
    z = b.Op("reshape", {z}, a);
  }
  return z;
}

// Copies the conv attributes (strides, padding, ...) but the decision ones.
Attrs OpAttrs(const ir::Attrs& from, DType out_dtype) {
  Attrs a;
  for (const auto& [k, v] : from.map()) a.Set(k, v);
  a.Set("out_dtype", std::string(tensor::DTypeName(out_dtype)));
  return a;
}

bool IsConv(const ir::Node& n) { return n.op() == "qnn.conv2d"; }

ir::Node* Producer(Value* v) { return v->producer(); }

// Stores the decision on the op that carries it out (ir::DecisionView).
void SetDecisionAttrs(const Decision& d, const Implementation& impl,
                      const Implementation::IoLayouts& layouts, ir::Node& node) {
  ir::DecisionView view;
  view.implementation = d.implementation;
  view.config = ConfigToJson(d.config);
  view.tuned = d.tuned;
  view.workload = d.workload_key;
  view.legalization = std::string(LegalizationName(impl.legalization));
  view.layout = layouts.data;
  view.out_layout = layouts.out;
  view.record_rejected = d.rejected_records;
  view.passed_over = d.passed_over;
  view.Store(node);
}

absl::StatusOr<Value*> Keep(const LegalizeCall& call, const Implementation& impl,
                            const Decision& d, const Implementation::IoLayouts& layouts) {
  // The op stays; it only gains its decision.
  SetDecisionAttrs(d, impl, layouts, const_cast<ir::Node&>(call.node));
  return static_cast<Value*>(nullptr);
}

// Emits the integer op (nn.conv2d or nn.dense) on prepared operands.
Value* IntegerOp(Builder& b, const LegalizeCall& call, Value* data, Value* weight,
                 const Attrs& attrs) {
  return b.Op(IsConv(call.node) ? "nn.conv2d" : "nn.dense", {data, weight}, attrs,
              call.node.name());
}

absl::StatusOr<Value*> Int16(const LegalizeCall& call, const Implementation& impl,
                             const Decision& d, const Implementation::IoLayouts& layouts) {
  Builder b(&call.context.graph);
  const auto& in = call.inputs;
  Value* x = b.Op("subtract", {Cast(b, in[0], DType::kI16), Cast(b, in[2], DType::kI16)});
  Value* w = b.Op("subtract", {Cast(b, in[1], DType::kI16),
                               WeightZeroPoint(b, in[3], in[1]->type()->rank())});
  Value* out = IntegerOp(b, call, x, w, OpAttrs(call.attrs, DType::kI32));
  SetDecisionAttrs(d, impl, layouts, *Producer(out));
  return out;
}

absl::StatusOr<Value*> Xnnpack(const LegalizeCall& call, const Implementation& impl,
                               const Decision& d, const Implementation::IoLayouts& layouts, DType data_dtype,
                               DType weight_dtype) {
  Builder b(&call.context.graph);
  Value *x = call.inputs[0], *zx = call.inputs[2], *w = call.inputs[1], *zw = call.inputs[3];
  if (x->type()->dtype != data_dtype) {
    int64_t delta = data_dtype == DType::kU8 ? 128 : -128;
    x = Shift(b, x, delta, data_dtype);
    zx = Shift(b, zx, delta, data_dtype);
  }
  if (w->type()->dtype != weight_dtype) {
    int64_t delta = weight_dtype == DType::kU8 ? 128 : -128;
    w = Shift(b, w, delta, weight_dtype);
    zw = Shift(b, zw, delta, weight_dtype);
  }
  ir::Node* op = call.context.graph.AddNode(call.node.op(),
                                        {x, w, zx, zw, call.inputs[4], call.inputs[5]},
                                        OpAttrs(call.attrs, DType::kI32), 1, call.node.name());
  SetDecisionAttrs(d, impl, layouts, *op);
  return op->output();
}

// sum over the non-output axes of w' = w - zw, for each output channel.
absl::StatusOr<std::vector<int64_t>> WeightSums(const tensor::Tensor& w, const tensor::Tensor& zw) {
  std::vector<int64_t> sums(w.dim(0), 0);
  ForEachWeightOffset(w, zw, [&](int64_t o, int64_t, int64_t v) { sums[o] += v; });
  return sums;
}

absl::StatusOr<Value*> Compensated(const LegalizeCall& call, const Implementation& impl,
                                   const Decision& d, const Implementation::IoLayouts& layouts,
                                   DType data_dtype) {
  const auto& in = call.inputs;
  if (!in[1]->is_constant() || !in[2]->is_constant() || !in[3]->is_constant()) {
    return absl::FailedPreconditionError("needs constant weights and zero points");
  }
  Builder b(&call.context.graph);
  int64_t zx = in[2]->data().GetAsInt(0);
  Value* x = in[0];
  if (x->type()->dtype != data_dtype) {
    int64_t delta = data_dtype == DType::kU8 ? 128 : -128;
    x = Shift(b, x, delta, data_dtype);
    zx += delta;
  }
  // w' = w - zw as i8 (the predicate checked it fits).
  Value* w = Cast(b, b.Op("subtract", {Cast(b, in[1], DType::kI16),
                                       WeightZeroPoint(b, in[3], in[1]->type()->rank())}),
                  DType::kI8);
  Attrs attrs = OpAttrs(call.attrs, DType::kI32);
  if (IsConv(call.node)) {
    // Pad with the data zero point so the compensation is the same at every
    // output position; the kernel then runs without padding.
    ASSIGN_OR_RETURN(ir::Conv2DView conv, ir::Conv2DView::Of(call.attrs));
    if (!conv.unpadded()) {
      const auto& padding = conv.pads;
      Attrs pad;
      pad.Set("pad_width", std::vector<int64_t>{0, 0, padding[0], padding[1], 0, 0, padding[2],
                                                padding[3]});
      pad.Set("pad_value", static_cast<double>(zx));
      x = b.Op("nn.pad", {x}, pad);
      attrs.Set("padding", std::vector<int64_t>{0, 0, 0, 0});
    }
  }
  Value* acc = IntegerOp(b, call, x, w, attrs);
  SetDecisionAttrs(d, impl, layouts, *Producer(acc));
  ASSIGN_OR_RETURN(std::vector<int64_t> sums, WeightSums(in[1]->data(), in[3]->data()));
  std::vector<int32_t> comp(sums.size());
  for (size_t o = 0; o < sums.size(); ++o) comp[o] = static_cast<int32_t>(-zx * sums[o]);
  Attrs bias;
  bias.Set("axis", int64_t{1});
  return b.Op("nn.bias_add", {acc, b.Vector<int32_t>(comp)}, bias);
}

}  // namespace

absl::StatusOr<ir::Value*> ApplyLegalization(const LegalizeCall& call, const Implementation& impl,
                                             const Workload& workload, const Decision& d) {
  const Implementation::IoLayouts layouts = IoLayoutsFor(impl, workload);
  switch (impl.legalization) {
    case Legalization::kKeep:
      return Keep(call, impl, d, layouts);
    case Legalization::kInt16:
      return Int16(call, impl, d, layouts);
    case Legalization::kXnnpackQu8:
      return Xnnpack(call, impl, d, layouts, DType::kU8, DType::kU8);
    case Legalization::kXnnpackQs8:
    case Legalization::kXnnpackQc8:
      return Xnnpack(call, impl, d, layouts, DType::kI8, DType::kI8);
    case Legalization::kU8S8:
      return Compensated(call, impl, d, layouts, DType::kU8);
    case Legalization::kS8S8:
      return Compensated(call, impl, d, layouts, DType::kI8);
  }
  return absl::InternalError(absl::StrCat("implementation '", impl.name, "' names an unknown legalization"));
}

absl::StatusOr<ir::Value*> LegalizeTunableOp(const LegalizeCall& call) {
  LegalizeContext& ctx = call.context;
  ASSIGN_OR_RETURN(Workload workload, ExtractWorkload(ctx.graph, call.node));
  std::vector<const Implementation*> candidates =
      ctx.registry.Implementations(call.node.op(), ctx.target);
  auto decision = ctx.dispatch.Decide(workload, ctx.target, candidates);
  if (!decision.ok()) return decision.status();
  const Implementation* impl = nullptr;
  for (const Implementation* c : candidates) {
    if (c->name == decision->implementation) impl = c;
  }
  return ApplyLegalization(call, *impl, workload, *decision);
}

}  // namespace qnnc::target
