// FuseQdq: rewrites the QDQ form (qnn.dequantize -> float op -> qnn.quantize)
// into integer ops, exactly as ONNX Runtime's QLinear* kernels compute them
// (float32 requantization, round half to even):
//   conv/dense/matmul (+ bias, + relu/clip) -> qnn.conv2d / qnn.dense /
//     qnn.matmul -> nn.bias_add (i32) -> qnn.requantize with clamps
//   add (+ relu when it is a no-op) -> qnn.add;  multiply -> qnn.mul;
//   concat -> qnn.concat
//   max pool, flatten, reshape, transpose, strided_slice, broadcast_to, a
//     constant pad of 0.0 and a nearest resize, with equal input and output
//     quantization -> the op on the integers
//   global average pool of 8-bit data -> qnn.global_avg_pool2d (the same
//     float32 ops fused: exact)
// Anything else (e.g. windowed average pooling) keeps its float form, which
// is correct.
#ifndef QNNC_PASSES_FUSE_QDQ_H_
#define QNNC_PASSES_FUSE_QDQ_H_

#include "absl/status/status.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

// Needs typed values and constant weights, biases, scales and zero points
// (run constant folding first, keeping the weights' qnn.dequantize). Removes
// the float ops left unused.
absl::Status FuseQdq(ir::Graph& graph);

class FuseQdqPass : public Pass {
 public:
  std::string name() const override { return "FuseQdq"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override { return FuseQdq(graph); }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FUSE_QDQ_H_
