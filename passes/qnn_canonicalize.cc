#include "passes/qnn_canonicalize.h"

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/conv_epilogue.h"
#include "ir/decision_view.h"
#include "kernels/requantize/requantize.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Builder;
using ir::Value;
using tensor::DType;

// Whether FuseOps will fold the requantize into its convolution's epilogue:
// the chain matches (ir::MatchConvEpilogue, the matcher FuseOps uses) and the
// convolution's implementation fuses the requantization.
bool FusedByProducer(const ir::Graph& graph, const ir::Node& requantize,
                     const target::Registry& registry) {
  std::optional<ir::ConvEpilogue> epilogue = ir::MatchConvEpilogue(graph, requantize);
  if (!epilogue || !epilogue->fusable()) return false;
  auto d = ir::DecisionView::Of(*epilogue->conv);
  if (!d) return false;
  // Legalization may have rewritten the op (e.g. to nn.conv2d): the decision
  // names an implementation of the op the workload was keyed on.
  for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
    const target::Implementation* impl = registry.FindImplementation(op, d->implementation);
    if (impl != nullptr) return impl->fuses_requantize;
  }
  return false;
}

Attrs One(const char* name, ir::AttrValue v) {
  Attrs a;
  a.Set(name, std::move(v));
  return a;
}

// Number of channels of a quantization parameter (1 for per-tensor).
int64_t Channels(const Value* v) {
  return v->type()->rank() == 1 ? v->type()->shape[0] : 1;
}

// A parameter with `channels` values reshaped to broadcast along `axis` of
// `rank` (the values new ops compute have no type yet, so the count is given).
Value* AlongAxis(Builder& b, Value* v, int64_t channels, int64_t axis, int64_t rank) {
  if (channels == 1) return v;
  std::vector<int64_t> shape(rank - axis, 1);
  shape[0] = channels;
  return b.Op("reshape", {v}, One("newshape", shape));
}

// The requantize's axis, in [0, rank) when a parameter is per-channel. With
// per-tensor parameters the axis is unused and not checked (as the type
// relation does not check it): e.g. a requantize of a scalar.
absl::StatusOr<int64_t> ParamAxis(const ir::RequantizeView& view, const ir::Node& n, int64_t rank) {
  int64_t channels = 1;
  for (int i = 1; i <= 4; ++i) channels = std::max(channels, Channels(n.input(i)));
  if (channels > 1) return view.AxisFor(rank);
  return view.axis < 0 ? view.axis + rank : view.axis;
}

// The float mode: exactly kernels/reference Requantize.
absl::StatusOr<Value*> LowerFloat(Builder& b, const ir::Node& n) {
  const ir::TensorType& type = *n.input(0)->type();
  ASSIGN_OR_RETURN(ir::RequantizeView view, ir::RequantizeView::Of(n));
  ASSIGN_OR_RETURN(int64_t axis, ParamAxis(view, n, type.rank()));
  const DType out = view.out_dtype;
  Value* out_zp = n.input(4);
  if (!out_zp->is_constant() || out_zp->data().num_elements() != 1) {
    return static_cast<Value*>(nullptr);  // per-channel output zero points stay qnn
  }
  int64_t zp = out_zp->data().GetAsInt(0);
  const int64_t lo = view.clamp_min, hi = view.clamp_max;
  Value* in_zp = b.Op("cast", {n.input(2)}, One("dtype", std::string(tensor::DTypeName(type.dtype))));
  Value* x = b.Op("subtract", {n.input(0), AlongAxis(b, in_zp, Channels(n.input(2)), axis, type.rank())});
  Value* xf = b.Op("cast", {x}, One("dtype", std::string("f32")));
  Value* m = b.Op("divide", {b.Op("cast", {n.input(1)}, One("dtype", std::string("f32"))),
                             b.Op("cast", {n.input(3)}, One("dtype", std::string("f32")))});
  int64_t channels = std::max(Channels(n.input(1)), Channels(n.input(3)));
  Value* scaled = b.Op("multiply", {xf, AlongAxis(b, m, channels, axis, type.rank())});
  Attrs clip;
  clip.Set("min", static_cast<double>(lo - zp));
  clip.Set("max", static_cast<double>(hi - zp));
  Value* rounded = b.Op("clip", {b.Op("round", {scaled})}, clip);
  Value* q = b.Op("add", {b.Op("cast", {rounded}, One("dtype", std::string("i32"))),
                          b.Scalar<int32_t>(static_cast<int32_t>(zp))});
  return b.Op("cast", {q}, One("dtype", std::string(tensor::DTypeName(out))));
}

// The fixed-point modes: the multipliers are computed at compile time (the
// scales must be constants), the rest is integer ops.
absl::StatusOr<Value*> LowerFixedPoint(Builder& b, const ir::Node& n,
                                       kernels::requantize::Rounding rounding) {
  const ir::TensorType& type = *n.input(0)->type();
  if (!n.input(1)->is_constant() || !n.input(3)->is_constant() || !n.input(4)->is_constant() ||
      n.input(4)->data().num_elements() != 1) {
    return static_cast<Value*>(nullptr);  // run-time scales stay qnn.requantize
  }
  ASSIGN_OR_RETURN(ir::RequantizeView view, ir::RequantizeView::Of(n));
  ASSIGN_OR_RETURN(int64_t axis, ParamAxis(view, n, type.rank()));
  int64_t channels = std::max(n.input(1)->data().num_elements(), n.input(3)->data().num_elements());
  ASSIGN_OR_RETURN(auto multipliers, kernels::requantize::ComputeMultipliers(
                                         n.input(1)->data(), n.input(3)->data(), channels));
  std::vector<int32_t> mult, shift;
  for (const auto& m : multipliers) {
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }
  const DType out = view.out_dtype;
  int64_t zp = n.input(4)->data().GetAsInt(0);
  const int64_t lo = view.clamp_min, hi = view.clamp_max;
  Value* in_zp = b.Op("cast", {n.input(2)}, One("dtype", std::string("i32")));
  Value* x = b.Op("subtract", {b.Op("cast", {n.input(0)}, One("dtype", std::string("i32"))),
                               AlongAxis(b, in_zp, Channels(n.input(2)), axis, type.rank())});
  Attrs fpm;
  fpm.Set("axis", axis);
  fpm.Set("rounding", std::string(kernels::requantize::RoundingName(rounding)));
  Value* scaled = b.Op("fixed_point_multiply", {x, b.Vector<int32_t>(mult), b.Vector<int32_t>(shift)}, fpm);
  Attrs clip;
  clip.Set("min", static_cast<double>(lo - zp));
  clip.Set("max", static_cast<double>(hi - zp));
  Value* q = b.Op("add", {b.Op("clip", {scaled}, clip), b.Scalar<int32_t>(static_cast<int32_t>(zp))});
  return b.Op("cast", {q}, One("dtype", std::string(tensor::DTypeName(out))));
}

}  // namespace

absl::Status QnnCanonicalizePass::Run(ir::Graph& graph, PassContext& context) {
  const target::Registry& registry =
      context.registry ? *context.registry : target::GlobalRegistry();
  Builder b(&graph);
  for (ir::Node* node : graph.nodes()) {
    if (node->op() != "qnn.requantize" || FusedByProducer(graph, *node, registry)) continue;
    absl::StatusOr<ir::RequantizeView> view = ir::RequantizeView::Of(*node);
    if (!view.ok()) {
      return absl::Status(view.status().code(), absl::StrCat(node->Describe(), ": ", view.status().message()));
    }
    const kernels::requantize::Rounding mode = view->rounding;
    auto lowered = mode == kernels::requantize::Rounding::kFloatToNearestEven
                       ? LowerFloat(b, *node)
                       : LowerFixedPoint(b, *node, mode);
    if (!lowered.ok()) {
      return absl::Status(lowered.status().code(),
                          absl::StrCat(node->Describe(), ": ", lowered.status().message()));
    }
    if (*lowered != nullptr) graph.ReplaceAllUsesWith(node->output(), *lowered);
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
