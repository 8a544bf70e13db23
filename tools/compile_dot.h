// A picture of the compiled graph (compile --dot, --svg): Graphviz DOT with
// one node per op showing the op, its implementation and whether the
// decision was tuned or the fallback, its layout, its dtypes and result type,
// and its median time when the model ran; the slowest ops shaded by their
// share of the time, layout transforms drawn dashed and orange.
#ifndef QNNC_TOOLS_COMPILE_DOT_H_
#define QNNC_TOOLS_COMPILE_DOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "runtime/executor.h"

namespace qnnc::tools {

// `timings`: one per op in graph order with the ops' times, or empty (the
// model did not run).
std::string GraphDot(const ir::Graph& graph, const std::vector<runtime::OpTiming>& timings);

// Renders DOT text to an SVG file with Graphviz's `dot` (found on PATH),
// written atomically: nothing at `svg_path` unless dot succeeded.
absl::Status RenderSvg(const std::string& dot, const std::string& svg_path);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_COMPILE_DOT_H_
