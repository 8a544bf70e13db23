#include "passes/pass_manager.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ir/infer_types.h"
#include "ir/text_printer.h"
#include "passes/pass_registry.h"
#include "re2/re2.h"
#include "util/status_macros.h"

namespace qnnc::passes {

absl::Status PassManager::Validate() const {
  if (options_.print_ir_after.empty()) return absl::OkStatus();
  RE2 re(options_.print_ir_after, RE2::Quiet);
  if (!re.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--print-ir-after: bad regular expression '",
                                                   options_.print_ir_after, "': ", re.error()));
  }
  return absl::OkStatus();
}

absl::Status PassManager::Run(const std::vector<std::string>& pipeline, ir::Graph& graph,
                              PassContext& context, std::ostream& log) const {
  RETURN_IF_ERROR(Validate());
  RE2 print_re(options_.print_ir_after.empty() ? "$^" : options_.print_ir_after, RE2::Quiet);
  double total_ms = 0;
  for (const std::string& name : pipeline) {
    ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, PassRegistry::Global().Create(name));
    auto start = std::chrono::steady_clock::now();
    absl::Status s = pass->Run(graph, context);
    if (s.ok() && options_.verify) s = ir::InferTypes(graph);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("pass ", name, ": ", s.message()));
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    total_ms += ms;
    if (options_.time_passes) log << absl::StrFormat("pass %-28s %9.3f ms\n", name, ms);
    if (RE2::FullMatch(name, print_re)) {
      log << "# IR after " << name << "\n" << ir::PrintGraph(graph) << "\n";
    }
  }
  if (options_.time_passes) log << absl::StrFormat("pass %-28s %9.3f ms\n", "(total)", total_ms);
  return absl::OkStatus();
}

}  // namespace qnnc::passes
