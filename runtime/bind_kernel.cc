#include "runtime/bind_kernel.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/decision_view.h"
#include "util/status_macros.h"

namespace qnnc::runtime {

absl::StatusOr<std::unique_ptr<PreparedKernel>> BindKernel(const ir::Node& n, const PackedState* state) {
  const KernelRegistry& registry = KernelRegistry::Global();
  const std::string impl = ir::ImplementationOf(n);
  const bool promised = !impl.empty() && impl != "reference";
  if (promised && !registry.Has(n.op(), impl)) {
    return absl::FailedPreconditionError(absl::StrCat(n.Describe(), ": its decision is ", impl,
                                                      ", but no kernel runs ", impl, " for ", n.op()));
  }
  if (state != nullptr) {
    const KernelRestorer* restorer = registry.FindRestorer(n);
    if (restorer == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          n.Describe(), ": the plan holds its kernel's packed state (", state->packing,
          "), but no kernel of this build restores it (compile the model again)"));
    }
    return (*restorer)(n, *state);
  }
  const KernelFactory* factory = registry.Find(n);
  if (factory == nullptr) return std::unique_ptr<PreparedKernel>();
  ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> kernel, (*factory)(n));
  if (promised && !kernel) {
    return absl::FailedPreconditionError(
        absl::StrCat(n.Describe(), ": its decision is ", impl, ", but its kernel cannot run this op"));
  }
  return kernel;
}

absl::Status CheckAbsentConstants(const ir::Graph& graph, const PackedStates& states) {
  if (states.absent.empty()) return absl::OkStatus();
  for (const ir::Value* v : graph.outputs()) {
    if (states.absent.count(v)) {
      return absl::InvalidArgumentError(absl::StrCat("constant %", v->name(),
                                                     " is a graph output, but the plan does not hold it"));
    }
  }
  for (const ir::Node* n : graph.nodes()) {
    auto state = states.by_node.find(n);
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      if (!states.absent.count(n->input(i))) continue;
      const bool stands_for = state != states.by_node.end() &&
                              std::count(state->second.inputs.begin(), state->second.inputs.end(),
                                         static_cast<int>(i)) > 0;
      if (!stands_for) {
        return absl::InvalidArgumentError(absl::StrCat(
            n->Describe(), " reads constant %", n->input(i)->name(),
            ", which the plan holds only packed, for another op's kernel"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace qnnc::runtime
