// The pass interface: a named graph-to-graph transformation.
#ifndef QNNC_PASSES_PASS_H_
#define QNNC_PASSES_PASS_H_

#include <string>

#include "absl/status/status.h"
#include "ir/graph.h"

namespace qnnc::passes {

// What passes may consult besides the graph. Grows with the target and
// tuning issues (target description, dispatch context).
struct PassContext {
  std::string target = "generic";
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;
  virtual absl::Status Run(ir::Graph& graph, PassContext& context) = 0;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PASS_H_
