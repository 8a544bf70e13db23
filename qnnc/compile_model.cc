#include "qnnc/compile_model.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "frontend/load_model.h"
#include "frontend/onnx/import.h"
#include "kernels/cpu/isa.h"
#include "passes/pipeline.h"
#include "runtime/binary_plan.h"
#include "runtime/plan.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"
#include "util/status_macros.h"

namespace qnnc {
namespace {

frontend::onnx::ImportOptions OnnxOptions(const CompileOptions& options) {
  frontend::onnx::ImportOptions import;
  import.max_bytes = options.max_bytes;
  import.input_shapes = options.input_shapes;
  // The import clean-up runs in the pipeline (CompileGraph), where
  // --print-ir-after and --time-passes see it.
  import.clean_up = false;
  return import;
}

// Runs the pipeline on a loaded graph: the import clean-up first for ONNX.
absl::StatusOr<CompiledModel> CompileGraph(std::unique_ptr<ir::Graph> graph, bool onnx,
                                           const CompileOptions& options, std::ostream& log) {
  CompiledModel compiled;
  compiled.graph = std::move(graph);
  // Tuning records: each op's decision comes from the best that applies.
  std::vector<tuning::Record> records;
  for (const std::string& file : options.records_files) {
    auto loaded = tuning::LoadRecords(file, options.strict_records);
    if (!loaded.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--records: ", loaded.status().message()));
    }
    for (const std::string& w : loaded->warnings) log << "qnnc compile: warning: --records: " << w << "\n";
    records.insert(records.end(), loaded->records.begin(), loaded->records.end());
  }
  tuning::RecordsDispatchContext records_dispatch(records, kernels::cpu::CpuModelName(),
                                                  options.threads);
  for (const std::string& d : records_dispatch.dropped()) {
    log << "qnnc compile: warning: --records: " << d << "\n";
  }
  passes::PassContext context;
  context.target = options.target;
  if (!options.records_files.empty()) context.dispatch = &records_dispatch;
  if (options.dispatch != nullptr) context.dispatch = options.dispatch;
  context.require_tuned = options.require_tuned;
  context.max_bytes = options.max_bytes;
  std::vector<std::string> pipeline;
  if (onnx) pipeline = passes::ImportPipeline();
  for (const std::string& pass : passes::DefaultPipeline()) pipeline.push_back(pass);
  RETURN_IF_ERROR(passes::PassManager(options.pass_manager).Run(pipeline, *compiled.graph, context, log));
  compiled.untuned_workloads.assign(context.untuned_workloads.begin(),
                                    context.untuned_workloads.end());
  return compiled;
}

}  // namespace

absl::StatusOr<CompiledModel> CompileModel(const std::string& model_path,
                                           const CompileOptions& options, std::ostream& log) {
  const bool onnx = frontend::IsOnnxModel(model_path);
  if (!onnx && !options.input_shapes.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "input shapes apply to ONNX models; '", model_path, "' is text IR, whose shapes are its own"));
  }
  std::unique_ptr<ir::Graph> graph;
  if (onnx) {
    ASSIGN_OR_RETURN(graph, frontend::onnx::ImportOnnxFile(model_path, OnnxOptions(options)));
  } else {
    ASSIGN_OR_RETURN(graph, frontend::LoadTextModel(model_path, options.max_bytes));
  }
  return CompileGraph(std::move(graph), onnx, options, log);
}

absl::StatusOr<CompiledModel> CompileOnnxBytes(absl::string_view bytes,
                                               const CompileOptions& options, std::ostream& log) {
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph,
                   frontend::onnx::ImportOnnxBytes(bytes, OnnxOptions(options)));
  return CompileGraph(std::move(graph), /*onnx=*/true, options, log);
}

absl::StatusOr<CompiledModel> LoadPlanFile(const std::string& plan_path, int64_t max_bytes) {
  CompiledModel compiled;
  if (runtime::IsBinaryPlanFile(plan_path)) {
    ASSIGN_OR_RETURN(runtime::LoadedPlan plan, runtime::LoadBinaryPlan(plan_path, max_bytes));
    compiled.graph = std::move(plan.graph);
    compiled.packed = std::make_shared<const runtime::PackedStates>(std::move(plan.packed));
    return compiled;
  }
  // Otherwise a text plan: text IR whatever its file is called.
  ASSIGN_OR_RETURN(compiled.graph, frontend::LoadTextModel(plan_path, max_bytes));
  return compiled;
}

}  // namespace qnnc
