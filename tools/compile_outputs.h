// The files a compile run writes, last and together: the plan (--out), the
// first output (--output), the JSON report (--report), the graph as DOT
// (--dot) and SVG (--svg). If one cannot be written, the ones written
// before it are removed, so a failed run leaves nothing behind.
#ifndef QNNC_TOOLS_COMPILE_OUTPUTS_H_
#define QNNC_TOOLS_COMPILE_OUTPUTS_H_

#include <string>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "runtime/executor.h"
#include "runtime/plan.h"
#include "tensor/tensor.h"
#include "tools/compile_report.h"

namespace qnnc::tools {

// Resolved paths; empty means not asked for.
struct OutputPaths {
  std::string plan, output, report, dot, svg;
  runtime::PlanFormat plan_format = runtime::PlanFormat::kBinary;
};

// `output` is the model's first output, or nullptr when nothing ran; the
// plan names `target` (a target's ToString()).
// The plan is the executor's graph with its kernels' packed states.
absl::Status WriteCompileOutputs(const OutputPaths& paths, const runtime::Executor& executor,
                                 const std::string& target, const CompileSummary& summary,
                                 const tensor::Tensor* output);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_COMPILE_OUTPUTS_H_
