// Pattern helpers of the QDQ fusion: matching qnn.dequantize / qnn.quantize
// with constant parameters, and emitting the integer replacement.
#ifndef QNNC_PASSES_QDQ_MATCH_H_
#define QNNC_PASSES_QDQ_MATCH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"

namespace qnnc::passes::qdq {

// The producer of `v` when it is an `op` node.
ir::Node* ProducerOf(const ir::Value* v, const char* op);

// A qnn.dequantize or qnn.quantize whose scale (f32) and zero point are
// constants. `per_tensor` when both have one element.
struct QParams {
  ir::Node* node = nullptr;
  ir::Value* data = nullptr;  // the dequantize input / quantize input
  ir::Value* scale = nullptr;
  ir::Value* zero_point = nullptr;
  int64_t axis = 1;
  bool per_tensor = true;
};
std::optional<QParams> MatchQParams(ir::Node* node);
// `v` produced by a qnn.dequantize with constant parameters.
std::optional<QParams> MatchDequantize(const ir::Value* v);

// Whether two constants hold the same values (compared as doubles).
bool SameValues(const ir::Value* a, const ir::Value* b);
// The integer value of a one-element constant.
int64_t IntScalar(const ir::Value* v);
// x quantized with a per-tensor (scale, zero point) to `dtype`, in float32
// with half-to-even rounding and saturation, as QuantizeLinear.
int64_t QuantizeValue(float x, const ir::Value* scale, const ir::Value* zero_point,
                      tensor::DType dtype);

// Emits the replacement of a qnn.quantize just before it, so the node order
// stays topological; results are typed through the op registry.
class Rewriter {
 public:
  Rewriter(ir::Graph& graph, const ir::Node* anchor) : graph_(graph), anchor_(anchor) {}
  absl::StatusOr<ir::Value*> Emit(const std::string& op, std::vector<ir::Value*> inputs,
                                  ir::Attrs attrs = {});
  ir::Value* Constant(tensor::Tensor data);

 private:
  ir::Graph& graph_;
  const ir::Node* anchor_;
};

// The pattern rewriters: each returns the integer value replacing the
// quantize's result, or nullptr when its pattern does not match.
// conv/dense/matmul (+ bias) (+ relu/clip): fuse_qdq_linear.cc.
absl::StatusOr<ir::Value*> FuseLinear(ir::Graph& graph, const QParams& quantize);

}  // namespace qnnc::passes::qdq

#endif  // QNNC_PASSES_QDQ_MATCH_H_
