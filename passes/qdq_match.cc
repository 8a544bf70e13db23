#include "passes/qdq_match.h"

#include <cmath>

#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "util/status_macros.h"

namespace qnnc::passes::qdq {

ir::Node* ProducerOf(const ir::Value* v, const char* op) {
  if (v == nullptr || v->producer() == nullptr || v->producer()->op() != op) return nullptr;
  return v->producer();
}

std::optional<QParams> MatchQParams(ir::Node* node) {
  if (node == nullptr || node->inputs().size() != 3) return std::nullopt;
  QParams q;
  q.node = node;
  q.data = node->input(0);
  q.scale = node->input(1);
  q.zero_point = node->input(2);
  if (!q.scale->is_constant() || !q.zero_point->is_constant() ||
      q.scale->data().dtype() != tensor::DType::kF32 ||
      !tensor::IsInteger(q.zero_point->data().dtype())) {
    return std::nullopt;
  }
  const absl::StatusOr<ir::AxisView> axis = ir::AxisView::Of(*node);
  if (!axis.ok()) return std::nullopt;
  q.axis = axis->axis;
  q.per_tensor = q.scale->data().num_elements() == 1 && q.zero_point->data().num_elements() == 1;
  return q;
}

std::optional<QParams> MatchDequantize(const ir::Value* v) {
  return MatchQParams(ProducerOf(v, "qnn.dequantize"));
}

bool SameValues(const ir::Value* a, const ir::Value* b) {
  if (!a->is_constant() || !b->is_constant()) return false;
  const tensor::Tensor& x = a->data();
  const tensor::Tensor& y = b->data();
  if (x.num_elements() != y.num_elements()) return false;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (x.GetAsDouble(i) != y.GetAsDouble(i)) return false;
  }
  return true;
}

int64_t IntScalar(const ir::Value* v) { return v->data().GetAsInt(0); }

int64_t QuantizeValue(float x, const ir::Value* scale, const ir::Value* zero_point,
                      tensor::DType dtype) {
  const float s = scale->data().data<float>()[0];
  const double q = static_cast<double>(std::nearbyint(x / s)) + IntScalar(zero_point);
  const double lo = static_cast<double>(tensor::DTypeMin(dtype));
  const double hi = static_cast<double>(tensor::DTypeMax(dtype));
  if (!(q > lo)) return tensor::DTypeMin(dtype);  // also NaN
  if (q >= hi) return tensor::DTypeMax(dtype);
  return static_cast<int64_t>(q);
}

absl::StatusOr<ir::Value*> Rewriter::Emit(const std::string& op, std::vector<ir::Value*> inputs,
                                          ir::Attrs attrs) {
  std::vector<ir::TensorType> types;
  for (const ir::Value* v : inputs) types.push_back(*v->type());
  ir::Node* n = graph_.InsertNodeBefore(anchor_, op, std::move(inputs), std::move(attrs), 1,
                                        anchor_->name());
  ASSIGN_OR_RETURN(std::vector<ir::TensorType> out, ir::OpRegistry::Global().InferNode(*n, types));
  n->output()->set_type(out[0]);
  return n->output();
}

ir::Value* Rewriter::Constant(tensor::Tensor data) {
  return graph_.AddConstant(anchor_->output()->name() + "_q", std::move(data));
}

}  // namespace qnnc::passes::qdq
