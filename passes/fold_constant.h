// FoldConstant: evaluates every op whose inputs are all constants, at compile
// time, with the reference kernels, and replaces its results by constants.
#ifndef QNNC_PASSES_FOLD_CONSTANT_H_
#define QNNC_PASSES_FOLD_CONSTANT_H_

#include "absl/status/status.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

// Folds in one sweep (nodes are in topological order, so chains of constant
// ops fold completely) and removes the folded nodes.
// The graph's constants plus each folded result must fit in `max_bytes`:
// a node whose results would not is refused (ResourceExhaustedError naming it
// and the size) before its kernel allocates anything.
// Each folded op's time goes to `op_times` when given.
absl::Status FoldConstant(ir::Graph& graph, int64_t max_bytes = tensor::kDefaultMaxBytes,
                          OpTimes* op_times = nullptr);

// ResourceExhaustedError if the graph's constants exceed `max_bytes`.
absl::Status CheckConstantBytes(const ir::Graph& graph, int64_t max_bytes);

class FoldConstantPass : public Pass {
 public:
  std::string name() const override { return "FoldConstant"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override {
    return FoldConstant(graph, context.max_bytes, context.op_times);
  }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FOLD_CONSTANT_H_
