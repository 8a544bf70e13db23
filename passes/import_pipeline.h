// The import clean-up: the passes that turn a freshly converted ONNX graph
// into the typed, integer graph the default pipeline starts from. They are
// registered passes like every other (//tools:compile and //tools:opt run
// them through the PassManager, so --print-ir-after and --time-passes see
// them); RunImportPipeline runs the same list for library users of the
// importer without linking the rest of the pipeline.
#ifndef QNNC_PASSES_IMPORT_PIPELINE_H_
#define QNNC_PASSES_IMPORT_PIPELINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/graph.h"

namespace qnnc::passes {

// FoldConstantKeepDequantize (weights stay quantized for the fusion),
// FuseQdq (QDQ patterns to integer ops), FoldConstant (what the fusion left),
// DeadCodeElimination, InferTypes. Without folding the two folds are left
// out; without fusion FuseQdq is.
std::vector<std::string> ImportPipeline(bool fold_constants = true, bool fuse_qdq = true);

// Runs ImportPipeline(fold_constants, fuse_qdq); constants are limited to
// `max_bytes`.
absl::Status RunImportPipeline(ir::Graph& graph, bool fold_constants, bool fuse_qdq,
                               int64_t max_bytes);

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_IMPORT_PIPELINE_H_
