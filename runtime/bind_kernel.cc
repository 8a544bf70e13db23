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

}  // namespace qnnc::runtime
