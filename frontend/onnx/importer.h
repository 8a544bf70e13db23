// The raw import: walks the ONNX graph's nodes in order, maps value names to
// IR values and runs each node's converter. No folding or fusion here (see
// import.h for the whole pipeline).
#ifndef QNNC_FRONTEND_ONNX_IMPORTER_H_
#define QNNC_FRONTEND_ONNX_IMPORTER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "frontend/onnx/import_options.h"
#include "frontend/onnx/onnx_loader.h"
#include "ir/graph.h"

namespace qnnc::frontend::onnx {

// Converts the validated model into a typed IR graph. Unsupported nodes
// (unknown op, non-default domain, unsupported attribute value) are all
// collected and reported together in one InvalidArgumentError.
absl::StatusOr<std::unique_ptr<ir::Graph>> ImportGraph(const LoadedModel& model,
                                                       const ImportOptions& options = {});
// As above, freeing each initializer's data in `model` once the graph holds
// it, so that a model's weights are not held twice while importing.
absl::StatusOr<std::unique_ptr<ir::Graph>> ImportGraph(LoadedModel&& model,
                                                       const ImportOptions& options = {});

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_IMPORTER_H_
