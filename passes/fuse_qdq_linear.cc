// QDQ fusion of convolution, dense and matmul with a constant quantized
// weight, an optional constant i32 bias and an optional relu/clip.
#include <cfloat>
#include <cmath>

#include "ir/elementwise_views.h"
#include "ir/op_views.h"
#include "passes/qdq_match.h"
#include "util/status_macros.h"

namespace qnnc::passes::qdq {
namespace {

using tensor::DType;

// Where the output channels are: axis of the result and of the weight.
struct LinearOp {
  std::string qnn_op;
  int64_t out_axis;  // normalized
  int64_t weight_axis;
};

std::optional<LinearOp> Classify(const ir::Node& core) {
  const int64_t out_rank = core.output()->type()->rank();
  if (core.op() == "nn.conv2d") return LinearOp{"qnn.conv2d", 1, 0};
  if (core.op() == "nn.dense") return LinearOp{"qnn.dense", 1, 0};
  if (core.op() == "nn.matmul" && core.input(1)->type()->rank() == 2 && out_rank >= 1) {
    return LinearOp{"qnn.matmul", out_rank - 1, 1};
  }
  return std::nullopt;
}

int64_t Normalize(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

// The producer of `v` if it is one of `ops` and `v` has no other use.
ir::Node* SoleProducer(ir::Graph& g, ir::Value* v, std::initializer_list<const char*> ops) {
  for (const char* op : ops) {
    ir::Node* p = ProducerOf(v, op);
    if (p != nullptr && g.CountUses(v) == 1) return p;
  }
  return nullptr;
}

float At(const tensor::Tensor& t, int64_t i) {
  return t.data<float>()[t.num_elements() == 1 ? 0 : i];
}

// The i32 bias for the accumulator scale: as it is when its scale matches
// (up to float rounding), else re-quantized with half-to-even rounding.
tensor::Tensor RescaleBias(const tensor::Tensor& b, const tensor::Tensor& sb,
                           const std::vector<float>& acc_scale) {
  const int64_t n = b.num_elements();
  bool same = true;
  for (int64_t c = 0; c < n && same; ++c) {
    float s = acc_scale[acc_scale.size() == 1 ? 0 : c];
    same = std::fabs(At(sb, c) - s) <= 4 * FLT_EPSILON * std::fabs(s);
  }
  if (same) return b;
  std::vector<int32_t> out(n);
  for (int64_t c = 0; c < n; ++c) {
    double s = acc_scale[acc_scale.size() == 1 ? 0 : c];
    double v = std::nearbyint(static_cast<double>(b.data<int32_t>()[c]) * At(sb, c) / s);
    out[c] = static_cast<int32_t>(std::fmax(INT32_MIN, std::fmin(INT32_MAX, v)));
  }
  return tensor::Tensor::FromVector<int32_t>({n}, out);
}

// The requantize's bounds from a relu or clip after the op.
struct Clamp {
  std::optional<int64_t> min, max;
};

// The bounds of a relu or clip `act` in the quantize's integers; nullopt
// when a clip bound is not a number.
std::optional<Clamp> ActivationClamp(const ir::Node& act, const QParams& q, DType out_dtype) {
  Clamp clamp;
  if (act.op() == "relu") {
    clamp.min = IntScalar(q.zero_point);
  } else {
    const absl::StatusOr<ir::ClipView> bounds = ir::ClipView::Of(act);
    if (!bounds.ok()) return std::nullopt;
    const double lo = bounds->min, hi = bounds->max;
    if (std::isnan(lo) || std::isnan(hi)) return std::nullopt;
    if (std::isfinite(lo)) clamp.min = QuantizeValue(lo, q.scale, q.zero_point, out_dtype);
    if (std::isfinite(hi)) clamp.max = QuantizeValue(hi, q.scale, q.zero_point, out_dtype);
  }
  return clamp;
}

// The bias of an nn.bias_add or add: an operand (the second tried first)
// dequantized from a constant i32 vector with zero points of 0. `*data`
// becomes the other operand.
std::optional<QParams> MatchBias(const ir::Node& bias_node, ir::Value** data) {
  for (int i : {1, 0}) {
    auto b = MatchDequantize(bias_node.input(i));
    if (!b || !b->data->is_constant() || b->data->type()->dtype != DType::kI32 ||
        b->data->type()->rank() != 1) {
      continue;
    }
    const tensor::Tensor& zb = b->zero_point->data();
    bool zero = true;
    for (int64_t k = 0; k < zb.num_elements(); ++k) zero = zero && zb.GetAsInt(k) == 0;
    if (!zero) continue;
    *data = bias_node.input(1 - i);
    return b;
  }
  return std::nullopt;
}

// Whether the bias is added along the op's output channels (an add: the
// last axis) with one value per channel and one scale or one per channel.
bool BiasFits(const ir::Node& bias_node, const QParams& bias, const LinearOp& lin,
              const ir::Node& core) {
  const int64_t out_rank = core.output()->type()->rank();
  const int64_t channels = core.output()->type()->shape[lin.out_axis];
  if (bias_node.op() == "add") {
    if (lin.out_axis != out_rank - 1) return false;
  } else {
    const absl::StatusOr<ir::AxisView> axis = ir::AxisView::Of(bias_node);
    if (!axis.ok() || Normalize(axis->axis, out_rank) != lin.out_axis) return false;
  }
  const int64_t scales = bias.scale->data().num_elements();
  return !(bias.data->type()->shape[0] != channels || (scales != 1 && scales != channels));
}

// Whether a per-channel weight is quantized along the op's output channels,
// with one scale and one zero point (a matmul: one zero point only) or one
// per channel.
bool PerChannelWeightFits(const QParams& w, const LinearOp& lin, int64_t channels) {
  const int64_t ws = w.scale->data().num_elements();
  const int64_t wz = w.zero_point->data().num_elements();
  const int64_t w_rank = w.data->type()->rank();
  return !(Normalize(w.axis, w_rank) != lin.weight_axis || (ws != 1 && ws != channels) ||
           (wz != 1 && (wz != channels || lin.qnn_op == "qnn.matmul")));
}

// A matched quantize(clamp(bias_add(core(dequantize(x), dequantize(w)), bias))).
struct LinearMatch {
  const ir::Node* core = nullptr;
  LinearOp lin;
  QParams x, w;
  std::optional<QParams> bias;
  Clamp clamp;
};

// The integer replacement of `q`'s pattern: the qnn op on the integers,
// the bias rescaled to the accumulator, and a requantize to q's parameters.
absl::StatusOr<ir::Value*> EmitLinear(ir::Graph& g, const QParams& q, const LinearMatch& m) {
  const DType out_dtype = q.node->output()->type()->dtype;
  const int64_t ws = m.w.scale->data().num_elements();
  const float sx = m.x.scale->data().data<float>()[0];
  std::vector<float> acc_scale(ws);
  for (int64_t c = 0; c < ws; ++c) acc_scale[c] = sx * m.w.scale->data().data<float>()[c];

  Rewriter r(g, q.node);
  ir::Attrs attrs = m.core->attrs();
  attrs.Erase("out_dtype");
  ASSIGN_OR_RETURN(ir::Value * acc, r.Emit(m.lin.qnn_op, {m.x.data, m.w.data, m.x.zero_point,
                                                          m.w.zero_point, m.x.scale, m.w.scale},
                                           attrs));
  const int64_t axis = m.lin.out_axis == 1 ? 1 : -1;
  if (m.bias) {
    tensor::Tensor b = RescaleBias(m.bias->data->data(), m.bias->scale->data(), acc_scale);
    ir::Value* bv = b.raw_data() == m.bias->data->data().raw_data() ? m.bias->data : r.Constant(b);
    ir::Attrs bias_attrs;
    bias_attrs.Set("axis", axis);
    ASSIGN_OR_RETURN(acc, r.Emit("nn.bias_add", {acc, bv}, bias_attrs));
  }
  ir::Value* in_scale = ws == 1 ? r.Constant(tensor::Tensor::Scalar<float>(acc_scale[0]))
                                : r.Constant(tensor::Tensor::FromVector<float>({ws}, acc_scale));
  ir::Attrs req;
  req.Set("axis", axis);
  req.Set("out_dtype", std::string(tensor::DTypeName(out_dtype)));
  if (m.clamp.min) req.Set("clamp_min", *m.clamp.min);
  if (m.clamp.max) req.Set("clamp_max", *m.clamp.max);
  return r.Emit("qnn.requantize",
                {acc, in_scale, r.Constant(tensor::Tensor::Scalar<int32_t>(0)), q.scale,
                 q.zero_point},
                req);
}

}  // namespace

absl::StatusOr<ir::Value*> FuseLinear(ir::Graph& g, const QParams& q) {
  if (!q.per_tensor) return nullptr;
  const DType out_dtype = q.node->output()->type()->dtype;
  LinearMatch m;
  ir::Value* v = q.data;
  if (ir::Node* act = SoleProducer(g, v, {"relu", "clip"})) {
    std::optional<Clamp> clamp = ActivationClamp(*act, q, out_dtype);
    if (!clamp) return nullptr;
    m.clamp = *clamp;
    v = act->input(0);
  }
  ir::Node* bias_node = SoleProducer(g, v, {"nn.bias_add", "add"});
  if (bias_node != nullptr) {
    m.bias = MatchBias(*bias_node, &v);
    if (!m.bias) return nullptr;
  }
  ir::Node* core = SoleProducer(g, v, {"nn.conv2d", "nn.dense", "nn.matmul"});
  if (core == nullptr) return nullptr;
  std::optional<LinearOp> lin = Classify(*core);
  if (!lin) return nullptr;
  if (bias_node != nullptr && !BiasFits(*bias_node, *m.bias, *lin, *core)) return nullptr;
  auto x = MatchDequantize(core->input(0));
  auto w = MatchDequantize(core->input(1));
  if (!x || !w || !x->per_tensor || !w->data->is_constant()) return nullptr;
  const int64_t channels = core->output()->type()->shape[lin->out_axis];
  if (!w->per_tensor && !PerChannelWeightFits(*w, *lin, channels)) return nullptr;
  m.core = core;
  m.lin = *lin;
  m.x = *x;
  m.w = *w;
  return EmitLinear(g, q, m);
}

}  // namespace qnnc::passes::qdq
