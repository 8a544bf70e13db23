#include "tools/compile_outputs.h"

#include <cstdio>
#include <vector>

#include "io/tensor_files.h"
#include "runtime/plan.h"
#include "tools/compile_dot.h"
#include "util/status_macros.h"

namespace qnnc::tools {

absl::Status WriteCompileOutputs(const OutputPaths& paths, const runtime::Executor& executor,
                                 const std::string& target, const CompileSummary& summary,
                                 const tensor::Tensor* output) {
  const ir::Graph& graph = executor.graph();
  std::vector<std::string> written;
  auto put = [&](const std::string& path, absl::Status s) {
    if (!s.ok()) {
      for (const std::string& w : written) std::remove(w.c_str());
      return s;
    }
    written.push_back(path);
    return absl::OkStatus();
  };
  if (!paths.plan.empty()) {
    const runtime::PackedStates states = executor.packed_states();
    RETURN_IF_ERROR(put(paths.plan, io::WriteFileAtomically(paths.plan, [&](std::ostream& out) {
                          return runtime::WritePlan(out, graph, target, paths.plan_format, states);
                        })));
  }
  if (output != nullptr && !paths.output.empty()) {
    RETURN_IF_ERROR(put(paths.output, io::WriteTensorFile(paths.output, *output)));
  }
  if (!paths.report.empty()) {
    RETURN_IF_ERROR(
        put(paths.report, io::WriteFileAtomically(paths.report, ReportJson(graph, summary))));
  }
  if (!paths.dot.empty() || !paths.svg.empty()) {
    const std::string dot = GraphDot(graph, summary.timings);
    if (!paths.dot.empty()) RETURN_IF_ERROR(put(paths.dot, io::WriteFileAtomically(paths.dot, dot)));
    if (!paths.svg.empty()) RETURN_IF_ERROR(put(paths.svg, RenderSvg(dot, paths.svg)));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::tools
