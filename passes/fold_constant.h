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
absl::Status FoldConstant(ir::Graph& graph);

class FoldConstantPass : public Pass {
 public:
  std::string name() const override { return "FoldConstant"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override { return FoldConstant(graph); }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FOLD_CONSTANT_H_
