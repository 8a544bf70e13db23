#include "passes/pass_manager.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ir/infer_types.h"
#include "ir/text_printer.h"
#include "passes/pass_registry.h"
#include "re2/re2.h"
#include "util/status_macros.h"

namespace qnnc::passes {

namespace {

// The ops that took at least 1 ms of a pass, or 5% of it, slowest first:
// where its time went, op by op.
void PrintOpTimes(const OpTimes& times, double pass_ms, std::ostream& log) {
  std::vector<std::pair<std::string, OpTime>> sorted(times.begin(), times.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
  for (const auto& [op, t] : sorted) {
    if (t.ms < 1.0 && t.ms < 0.05 * pass_ms) break;
    log << absl::StrFormat("  op %-26s %9.3f ms (%d ops, %.3f ms each)\n", op, t.ms, t.count,
                           t.ms / static_cast<double>(t.count));
  }
}

}  // namespace

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
    OpTimes op_times;
    context.op_times = options_.time_passes ? &op_times : nullptr;
    auto start = std::chrono::steady_clock::now();
    absl::Status s = pass->Run(graph, context);
    context.op_times = nullptr;
    if (s.ok() && options_.verify) s = ir::InferTypes(graph);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("pass ", name, ": ", s.message()));
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    total_ms += ms;
    if (options_.time_passes) {
      log << absl::StrFormat("pass %-28s %9.3f ms\n", name, ms);
      PrintOpTimes(op_times, ms, log);
    }
    if (RE2::FullMatch(name, print_re)) {
      log << "# IR after " << name << "\n" << ir::PrintGraph(graph) << "\n";
    }
  }
  if (options_.time_passes) log << absl::StrFormat("pass %-28s %9.3f ms\n", "(total)", total_ms);
  return absl::OkStatus();
}

}  // namespace qnnc::passes
