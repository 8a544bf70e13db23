// Imports an ONNX model (QDQ, QOperator or float, opsets 10 to 17) into the
// qnnc IR: parse and validate, convert every node, fold constants, fuse QDQ
// patterns into integer ops and remove dead code. The graph is typed.
#ifndef QNNC_FRONTEND_ONNX_IMPORT_H_
#define QNNC_FRONTEND_ONNX_IMPORT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "frontend/onnx/import_options.h"
#include "ir/graph.h"

namespace qnnc::frontend::onnx {

// Errors are InvalidArgumentError naming the node (name and op_type) and the
// offending values; unsupported nodes are all listed in one error. A missing
// file is NotFoundError. Never crashes on a corrupt model.
absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxFile(const std::string& path,
                                                          const ImportOptions& options = {});
absl::StatusOr<std::unique_ptr<ir::Graph>> ImportOnnxBytes(absl::string_view bytes,
                                                           const ImportOptions& options = {});

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_IMPORT_H_
