// Loads a model for compilation: an ONNX file (.onnx) or the text IR
// (anything else, conventionally .qnnir). The graph comes back typed.
#ifndef QNNC_FRONTEND_LOAD_MODEL_H_
#define QNNC_FRONTEND_LOAD_MODEL_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/graph.h"

namespace qnnc::frontend {

// Constants past `max_bytes` are refused (ResourceExhaustedError): for ONNX
// before they are allocated (ImportOptions::max_bytes).
// With clean_up false an ONNX model comes back as converted, before the
// import clean-up (passes::ImportPipeline()), for a caller that runs it
// through its own PassManager.
absl::StatusOr<std::unique_ptr<ir::Graph>> LoadModel(const std::string& path,
                                                     int64_t max_bytes = tensor::kDefaultMaxBytes,
                                                     bool clean_up = true);

// Whether LoadModel reads `path` as ONNX (by its name: *.onnx).
bool IsOnnxModel(const std::string& path);

// The text IR, whatever the file's name (compiled plans, tools/compile --plan).
absl::StatusOr<std::unique_ptr<ir::Graph>> LoadTextModel(
    const std::string& path, int64_t max_bytes = tensor::kDefaultMaxBytes);

}  // namespace qnnc::frontend

#endif  // QNNC_FRONTEND_LOAD_MODEL_H_
