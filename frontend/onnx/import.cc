#include "frontend/onnx/import.h"

#include <utility>

#include "frontend/onnx/importer.h"
#include "frontend/onnx/onnx_loader.h"
#include "passes/fold_constant.h"
#include "passes/import_pipeline.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

absl::StatusOr<std::unique_ptr<ir::Graph>> Import(LoadedModel model, const ImportOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph, ImportGraph(std::move(model), options));
  RETURN_IF_ERROR(passes::CheckConstantBytes(*graph, options.max_bytes));
  if (options.clean_up) {
    RETURN_IF_ERROR(passes::RunImportPipeline(*graph, options.fold_constants, options.fuse_qdq,
                                              options.max_bytes));
  }
  return graph;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxFile(const std::string& path,
                                                          const ImportOptions& options) {
  ASSIGN_OR_RETURN(LoadedModel model, LoadOnnxFile(path));
  return Import(std::move(model), options);
}

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxBytes(absl::string_view bytes,
                                                           const ImportOptions& options) {
  ASSIGN_OR_RETURN(LoadedModel model, LoadOnnxBytes(bytes));
  return Import(std::move(model), options);
}

}  // namespace qnnc::frontend::onnx
