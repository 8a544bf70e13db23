// Runs a named pipeline of passes, optionally printing the IR after passes
// whose name matches an RE2 pattern and timing each pass.
#ifndef QNNC_PASSES_PASS_MANAGER_H_
#define QNNC_PASSES_PASS_MANAGER_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

struct PassManagerOptions {
  // Print the IR to `log` after each pass whose name fully matches this RE2
  // pattern (empty: never).
  std::string print_ir_after;
  // Print one line per pass with its wall time to `log`.
  bool time_passes = false;
  // Verify the graph and re-infer types after every pass.
  bool verify = true;
};

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(std::move(options)) {}
  // Checks the pattern compiles; call before Run.
  absl::Status Validate() const;
  // Runs the passes in order; the first error stops the pipeline and names
  // the pass.
  absl::Status Run(const std::vector<std::string>& pipeline, ir::Graph& graph,
                   PassContext& context, std::ostream& log) const;

 private:
  PassManagerOptions options_;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PASS_MANAGER_H_
