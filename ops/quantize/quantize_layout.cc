// The AlterOpLayout rules of the quantize family: per-tensor qnn.quantize and
// qnn.dequantize, and qnn.dynamic_quantize, run in a blocked layout.
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/layout.h"
#include "passes/layout_rules.h"

namespace qnnc::passes {
namespace {

using ir::Node;
using ir::Value;

// A per-tensor qnn.dequantize or qnn.quantize of a tensor that comes back
// from a blocked layout runs in that layout (element by element: exact;
// padding lanes map to values no kernel reads), with one transform after it.
absl::Status BlockPerTensorQuantization(ir::Graph& graph, Node* n) {
  if ((n->op() != "qnn.dequantize" && n->op() != "qnn.quantize") || n->inputs().size() != 3) {
    return absl::OkStatus();
  }
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (!layout || !layout->blocked() || t.rank() != 4 || !OneElement(n->input(1)) ||
      !OneElement(n->input(2))) {
    return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, *layout, inputs, n->attrs(), t.shape[1]);
}

// DynamicQuantizeLinear of a tensor that comes back from a blocked layout
// with whole blocks (no padding lanes, which would join its min and max) or
// with its range given by its producer quantizes in that layout: elementwise after one range over all elements,
// so exact. Its u8 result goes back to NCHW by one transform (which the next
// blocked convolution's transform cancels); scale and zero point are
// unchanged.
absl::Status BlockDynamicQuantize(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.dynamic_quantize" || n->outputs().size() != 3) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  // With its producer's range (a second input) the padding lanes join
  // nothing: any channel count.
  const bool given_range = n->inputs().size() > 1;
  if (!layout || (!WholeBlocks(t, *layout) && !given_range) ||
      !layout->blocked() || t.dtype != tensor::DType::kF32) {
    return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();  // data, and a producer's range if any
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, *layout, inputs, n->attrs(), t.shape[1]);
}

}  // namespace

void AddQuantizeLayoutRules(LayoutRules& rules) {
  rules.Add("qnn.quantize", &BlockPerTensorQuantization);
  rules.Add("qnn.dequantize", &BlockPerTensorQuantization);
  rules.Add("qnn.dynamic_quantize", &BlockDynamicQuantize);
}

}  // namespace qnnc::passes
