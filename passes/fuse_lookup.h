// FuseLookup: a run of element-wise ops from one 8-bit tensor to an 8-bit
// result, every other operand a scalar constant (a per-tensor dequantize ->
// HardSwish/HardSigmoid/Sigmoid/Tanh/LeakyRelu -> quantize in QDQ models, or
// torch's x * HardSigmoid(x) with its own quantize and dequantize between, or
// an 8-bit requantize), is a function of one byte: it becomes qnn.lookup of
// a 256-entry table, made here by the reference kernels running the ops on
// every byte value. Each output element depends only on the same input
// element, so the table gives the reference's bits for every input.
#ifndef QNNC_PASSES_FUSE_LOOKUP_H_
#define QNNC_PASSES_FUSE_LOOKUP_H_

#include "absl/status/status.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

// Returns the number of chains replaced.
absl::StatusOr<int> FuseLookup(ir::Graph& graph);

class FuseLookupPass : public Pass {
 public:
  std::string name() const override { return "FuseLookup"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override { return FuseLookup(graph).status(); }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FUSE_LOOKUP_H_
