// The compile half of the main job: load a model (ONNX, from a file or its
// bytes, or text IR) and run the import clean-up and the default pipeline
// for a target, deciding every tunable op from the tuning records given (or
// the fallback); or load a plan compiled already (no passes). Shared by
// //tools:compile and the session API (qnnc/session.h), so both report the
// same errors.
#ifndef QNNC_QNNC_COMPILE_MODEL_H_
#define QNNC_QNNC_COMPILE_MODEL_H_

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"
#include "runtime/packed_state.h"
#include "passes/pass_manager.h"
#include "target/dispatch_context.h"
#include "target/target.h"
#include "tensor/tensor.h"

namespace qnnc {

struct CompileOptions {
  target::Target target;
  // Tuning records files (resolved paths); malformed lines are warnings
  // unless strict_records.
  std::vector<std::string> records_files;
  bool strict_records = false;
  // The thread count the model will run with: records measured with it
  // decide first (tuning/records_dispatch_context.h).
  int threads = 1;
  // Decides every tunable op instead of the records files (tools/tune's
  // in-model confirmation); not owned.
  const target::DispatchContext* dispatch = nullptr;
  bool require_tuned = false;   // a fallback decision is an error
  int64_t max_bytes = tensor::kDefaultMaxBytes;  // memory limit of the model's constants
  // Static shapes of ONNX graph inputs by name (frontend/onnx/import_options.h).
  std::map<std::string, tensor::Shape> input_shapes;
  passes::PassManagerOptions pass_manager;  // --print-ir-after, --time-passes
};

struct CompiledModel {
  std::unique_ptr<ir::Graph> graph;
  std::vector<std::string> untuned_workloads;  // fallback decisions, once each
  // A binary plan's packed kernel states (runtime::ExecutorOptions::packed).
  std::shared_ptr<const runtime::PackedStates> packed;
};

// `log` gets warnings about records and what the pass manager prints.
absl::StatusOr<CompiledModel> CompileModel(const std::string& model_path,
                                           const CompileOptions& options, std::ostream& log);
// An ONNX model given as its serialized bytes.
absl::StatusOr<CompiledModel> CompileOnnxBytes(absl::string_view bytes,
                                               const CompileOptions& options, std::ostream& log);

// A plan written by --out (runtime/plan.h): its graph as it was compiled.
absl::StatusOr<CompiledModel> LoadPlanFile(const std::string& plan_path, int64_t max_bytes);

}  // namespace qnnc

#endif  // QNNC_QNNC_COMPILE_MODEL_H_
