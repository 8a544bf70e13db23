#include "tools/compile_model.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "frontend/load_model.h"
#include "kernels/cpu/isa.h"
#include "passes/pipeline.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"
#include "util/status_macros.h"

namespace qnnc::tools {

absl::StatusOr<CompiledModel> CompileModel(const std::string& model_path,
                                           const CompileOptions& options, std::ostream& log) {
  CompiledModel compiled;
  // The import clean-up runs in the pipeline below, where --print-ir-after
  // and --time-passes see it.
  ASSIGN_OR_RETURN(compiled.graph,
                   frontend::LoadModel(model_path, options.max_bytes, /*clean_up=*/false));
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
  tuning::RecordsDispatchContext records_dispatch(records, kernels::cpu::CpuModelName());
  for (const std::string& d : records_dispatch.dropped()) {
    log << "qnnc compile: warning: --records: " << d << "\n";
  }
  passes::PassContext context;
  context.target = options.target;
  if (!options.records_files.empty()) context.dispatch = &records_dispatch;
  context.require_tuned = options.require_tuned;
  context.max_bytes = options.max_bytes;
  std::vector<std::string> pipeline;
  if (frontend::IsOnnxModel(model_path)) pipeline = passes::ImportPipeline();
  for (const std::string& pass : passes::DefaultPipeline()) pipeline.push_back(pass);
  RETURN_IF_ERROR(passes::PassManager(options.pass_manager).Run(pipeline, *compiled.graph, context, log));
  compiled.untuned_workloads.assign(context.untuned_workloads.begin(),
                                    context.untuned_workloads.end());
  return compiled;
}

absl::StatusOr<CompiledModel> LoadPlan(const std::string& plan_path, int64_t max_bytes) {
  CompiledModel compiled;
  // A plan is text IR whatever its file is called.
  ASSIGN_OR_RETURN(compiled.graph, frontend::LoadTextModel(plan_path, max_bytes));
  return compiled;
}

}  // namespace qnnc::tools
