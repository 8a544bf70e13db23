#include "frontend/onnx/import.h"

#include "frontend/onnx/constant_folding.h"
#include "frontend/onnx/importer.h"
#include "frontend/onnx/onnx_loader.h"
#include "frontend/onnx/qdq_fusion.h"
#include "ir/infer_types.h"
#include "passes/fold_constant.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

absl::StatusOr<std::unique_ptr<ir::Graph>> Import(const LoadedModel& model,
                                                  const ImportOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph, ImportGraph(model, options));
  RETURN_IF_ERROR(passes::CheckConstantBytes(*graph, options.max_bytes));
  if (options.fold_constants) RETURN_IF_ERROR(FoldConstantsKeepingDequantize(*graph, options.max_bytes));
  if (options.fuse_qdq) RETURN_IF_ERROR(FuseQdq(*graph));
  // What the fusion left (e.g. dequantized weights of float ops) folds now.
  if (options.fold_constants) RETURN_IF_ERROR(passes::FoldConstant(*graph, options.max_bytes));
  graph->RemoveDeadCode();
  RETURN_IF_ERROR(ir::InferTypes(*graph));
  return graph;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxFile(const std::string& path,
                                                          const ImportOptions& options) {
  ASSIGN_OR_RETURN(LoadedModel model, LoadOnnxFile(path));
  return Import(model, options);
}

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxBytes(absl::string_view bytes,
                                                           const ImportOptions& options) {
  ASSIGN_OR_RETURN(LoadedModel model, LoadOnnxBytes(bytes));
  return Import(model, options);
}

}  // namespace qnnc::frontend::onnx
