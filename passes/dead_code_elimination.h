// DeadCodeElimination: removes ops whose results reach no graph output, and
// constants nothing uses.
#ifndef QNNC_PASSES_DEAD_CODE_ELIMINATION_H_
#define QNNC_PASSES_DEAD_CODE_ELIMINATION_H_

#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

class DeadCodeEliminationPass : public Pass {
 public:
  std::string name() const override { return "DeadCodeElimination"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override {
    graph.RemoveDeadCode();
    return absl::OkStatus();
  }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_DEAD_CODE_ELIMINATION_H_
