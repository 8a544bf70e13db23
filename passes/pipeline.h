// The built-in passes and the default compilation pipeline.
#ifndef QNNC_PASSES_PIPELINE_H_
#define QNNC_PASSES_PIPELINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "passes/import_pipeline.h"
#include "passes/pass_registry.h"

namespace qnnc::passes {

// Registers every built-in pass (called once by PassRegistry::Global()).
absl::Status RegisterBuiltinPasses(PassRegistry& registry);

// The pipeline //tools:compile runs, in order (after ImportPipeline() on an
// ONNX model).
std::vector<std::string> DefaultPipeline();

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PIPELINE_H_
