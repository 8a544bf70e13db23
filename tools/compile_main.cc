// qnnc compile: the main job. Imports a model, runs the compilation pipeline
// for a target, runs it on inputs and checks the outputs.
//
// Exit codes: 0 success, 1 output mismatch (--expect / --test-data),
// 2 bad input (model, flags, files) or any other error.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "runtime/executor.h"
#include "runtime/plan.h"
#include "runtime/timed_runs.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"
#include "target/target.h"
#include "tools/compile_model.h"
#include "tools/compile_outputs.h"
#include "tools/compile_report.h"
#include "tools/flag_names.h"
#include "tools/isa_cap.h"
#include "tools/model_inputs.h"
#include "tools/tool_paths.h"
#include "util/status_macros.h"

ABSL_FLAG(std::string, model, "", "model to compile: .onnx or text IR (default: bundled MobileNetV2)");
ABSL_FLAG(std::string, target, "host",
          "target to compile for: host, generic, or ARCH[+FEATURE...] e.g. x86_64+avx512vnni, aarch64+neon");
ABSL_FLAG(bool, require_tuned, false, "make any fallback (untuned) decision an error");
ABSL_FLAG(int, threads, 1, "threads of the shared thread pool");
ABSL_FLAG(std::string, output, "", "write the (first) output here: raw bytes, or .npy by extension");
ABSL_FLAG(std::string, expect, "", "compare the (first) output with this file (raw, .npy or .pb)");
ABSL_FLAG(std::string, test_data, "", "an ONNX test_data_set folder: run on its inputs, compare to its outputs");
ABSL_FLAG(int, runs, 1, "time this many runs and report the median");
ABSL_FLAG(std::string, report, "", "write a JSON report here");
ABSL_FLAG(std::string, dot, "",
          "write the compiled graph here as Graphviz DOT: per op its implementation (tuned or "
          "fallback), layout, dtypes and time; the slowest shaded, layout transforms marked");
ABSL_FLAG(std::string, svg, "", "render that graph to SVG here (needs Graphviz's dot)");
ABSL_FLAG(std::string, out, "",
          "write the compiled plan here: the graph after every pass, each op with its implementation, "
          "config and layout, as text IR (run it with --plan)");
ABSL_FLAG(std::string, plan, "",
          "run a compiled plan written by --out: no import and no passes; kernels bind and pack "
          "their weights at load, for the target the plan was compiled for");
ABSL_FLAG(std::string, print_ir_after, "", "print the IR after passes matching this RE2 pattern");
ABSL_FLAG(bool, time_passes, false, "print the time of each pass");
ABSL_FLAG(bool, no_run, false,
          "compile only; do not run (works for any target on any host: kernels this host "
          "cannot run are checked and described, created where the plan runs)");
ABSL_FLAG(std::string, isa, "", qnnc::tools::kIsaFlagHelp);
ABSL_FLAG(bool, strict_records, false, "a malformed line in a --records file is an error, not a warning");
ABSL_FLAG(int64_t, max_memory_mb, 4096,
          "refuse a model whose constants, or whose tensors when run, need more MiB than this");
ABSL_FLAG(double, atol, 1e-5, "absolute tolerance for float outputs not produced by a dequantize");
ABSL_FLAG(double, rtol, 1e-4, "relative tolerance for float outputs not produced by a dequantize");

namespace qnnc::tools {
namespace {

// The target a plan file names in its first line (runtime/plan.h).
absl::StatusOr<target::Target> PlanTarget(const std::string& path) {
  absl::StatusOr<std::string> name = runtime::ReadPlanTarget(path);
  if (!name.ok()) return absl::Status(name.status().code(), absl::StrCat("--plan: ", name.status().message()));
  auto t = target::ParseTarget(*name);
  if (!t.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plan: '", path, "' line 1: ", t.status().message()));
  }
  return *t;
}

int Main(int argc, char** argv) {
  DashesToUnderscores(argc, argv);
  std::vector<std::string> input_specs = ExtractRepeated(argc, argv, "--input");
  std::vector<std::string> records_specs = ExtractRepeated(argc, argv, "--records");
  absl::SetProgramUsageMessage("qnnc compile: import, compile and run a quantized model");
  absl::ParseCommandLine(argc, argv);
  auto fail = [](int code, const absl::Status& s) {
    std::cerr << "qnnc compile: error: " << s.message() << "\n";
    return code;
  };
  if (absl::Status s = ApplyIsaFlag(absl::GetFlag(FLAGS_isa)); !s.ok()) return fail(2, s);
  const std::string plan_path =
      absl::GetFlag(FLAGS_plan).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_plan));
  const std::string out_path =
      absl::GetFlag(FLAGS_out).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_out));
  if (!plan_path.empty()) {
    // A plan was compiled already: what shapes compilation does not apply.
    const char* conflict = !absl::GetFlag(FLAGS_model).empty() ? "--model"
                           : absl::GetFlag(FLAGS_target) != "host" ? "--target"
                           : absl::GetFlag(FLAGS_require_tuned) ? "--require-tuned"
                           : !records_specs.empty() ? "--records"
                           : !absl::GetFlag(FLAGS_print_ir_after).empty() ? "--print-ir-after"
                           : absl::GetFlag(FLAGS_time_passes) ? "--time-passes"
                           : !out_path.empty() ? "--out"
                           : nullptr;
    if (conflict != nullptr) {
      return fail(2, absl::InvalidArgumentError(absl::StrCat(
                         "--plan runs a plan compiled already: ", conflict, " does not apply")));
    }
  }
  absl::StatusOr<target::Target> target_or =
      plan_path.empty() ? target::ParseTarget(absl::GetFlag(FLAGS_target)) : PlanTarget(plan_path);
  if (!target_or.ok()) {
    return fail(2, plan_path.empty() ? absl::InvalidArgumentError(absl::StrCat(
                                           "--target: ", target_or.status().message()))
                                     : target_or.status());
  }
  target::Target target = *target_or;
  bool no_run = absl::GetFlag(FLAGS_no_run);
  // A model is checked before it is compiled; a plan once it has loaded, so
  // that a bad plan is reported as bad on any host.
  if (absl::Status runs_here = target::CheckRunsOnHost(target);
      !no_run && plan_path.empty() && !runs_here.ok()) {
    return fail(2, absl::InvalidArgumentError(absl::StrCat(
                       "--target: ", runs_here.message(), "; add --no-run to compile and report only")));
  }
  int threads = absl::GetFlag(FLAGS_threads), runs = absl::GetFlag(FLAGS_runs);
  if (threads < 1 || threads > 256) return fail(2, absl::InvalidArgumentError("--threads must be 1..256"));
  if (runs < 1) return fail(2, absl::InvalidArgumentError("--runs must be at least 1"));
  const int64_t max_memory_mb = absl::GetFlag(FLAGS_max_memory_mb);
  if (max_memory_mb < 1 || max_memory_mb > (int64_t{1} << 26)) {
    return fail(2, absl::InvalidArgumentError("--max-memory-mb must be 1..67108864"));
  }
  const int64_t max_bytes = max_memory_mb << 20;

  bool default_model = absl::GetFlag(FLAGS_model).empty() && plan_path.empty();
  std::string model_path = default_model        ? BundledPath(kDefaultModel)
                           : !plan_path.empty() ? plan_path
                                                : ResolveUserPath(absl::GetFlag(FLAGS_model));
  absl::StatusOr<RunFiles> run_files = ResolveRunFiles(
      std::move(input_specs), absl::GetFlag(FLAGS_test_data), absl::GetFlag(FLAGS_expect),
      default_model);
  if (!run_files.ok()) return fail(2, run_files.status());
  const std::vector<std::string>& expect_files = run_files->expect_files;

  CompileOptions options;
  options.target = target;
  for (const std::string& spec : records_specs) options.records_files.push_back(ResolveUserPath(spec));
  options.strict_records = absl::GetFlag(FLAGS_strict_records);
  options.require_tuned = absl::GetFlag(FLAGS_require_tuned);
  options.max_bytes = max_bytes;
  options.pass_manager.print_ir_after = absl::GetFlag(FLAGS_print_ir_after);
  options.pass_manager.time_passes = absl::GetFlag(FLAGS_time_passes);
  absl::StatusOr<CompiledModel> compiled = plan_path.empty()
                                               ? CompileModel(model_path, options, std::cerr)
                                               : LoadPlan(plan_path, max_bytes);
  if (!compiled.ok()) return fail(2, compiled.status());
  std::unique_ptr<ir::Graph> graph = std::move(compiled->graph);
  if (expect_files.size() > graph->outputs().size()) {
    return fail(2, absl::InvalidArgumentError(absl::StrCat(expect_files.size(), " expected outputs for a model with ",
                                                           graph->outputs().size())));
  }
  // Types of outputs for reading expectations, before the graph moves.
  std::vector<ir::TensorType> out_types;
  std::vector<runtime::Tolerance> tolerances;
  runtime::Tolerance fallback{absl::GetFlag(FLAGS_atol), absl::GetFlag(FLAGS_rtol), "--atol/--rtol"};
  for (const ir::Value* out : graph->outputs()) {
    out_types.push_back(*out->type());
    tolerances.push_back(runtime::ToleranceFor(*out, fallback));
  }
  std::vector<std::string> out_names;
  for (const ir::Value* out : graph->outputs()) out_names.push_back(out->name());
  // The executor checks the memory limit before any input is read.
  runtime::ExecutorOptions executor_options;
  executor_options.threads = threads;
  executor_options.max_bytes = max_bytes;
  executor_options.allow_unrunnable = no_run || !plan_path.empty();
  auto executor_or = runtime::Executor::Create(std::move(graph), executor_options);
  if (!executor_or.ok()) {
    // A plan's decisions are bound only now: name the file they came from.
    return fail(2, plan_path.empty() ? executor_or.status()
                                     : absl::Status(executor_or.status().code(),
                                                    absl::StrCat("--plan: '", plan_path, "': ",
                                                                 executor_or.status().message())));
  }
  runtime::Executor& executor = **executor_or;
  if (!no_run && !plan_path.empty()) {
    absl::Status runs_here = target::CheckRunsOnHost(target);
    if (runs_here.ok() && !executor.unrunnable().empty()) {
      runs_here = absl::FailedPreconditionError(executor.unrunnable());
    }
    if (!runs_here.ok()) {
      return fail(2, absl::InvalidArgumentError(
                         absl::StrCat("--plan: '", plan_path, "': ", runs_here.message())));
    }
  }
  std::vector<tensor::Tensor> expected;
  for (size_t i = 0; i < expect_files.size(); ++i) {
    auto t = io::ReadTensorFile(expect_files[i], out_types[i]);
    if (!t.ok()) return fail(2, t.status());
    expected.push_back(*std::move(t));
  }
  auto inputs = ReadInputs(executor.graph(), run_files->input_specs);
  if (!inputs.ok()) return fail(2, inputs.status());

  CompileSummary summary;
  summary.model = model_path;
  summary.target = target.ToString();
  summary.host = kernels::cpu::DescribeHostIsa();
  summary.untuned_workloads = compiled->untuned_workloads;
  summary.threads = threads;
  summary.memory = executor.memory();

  // The files this run produces, written last and together: if one cannot
  // be written, the ones before it are removed (exit 2 means nothing
  // written). The plan is written once its kernels have bound, so a plan
  // file always loads.
  auto path_flag = [](const std::string& flag) { return flag.empty() ? "" : ResolveUserPath(flag); };
  OutputPaths paths;
  paths.plan = out_path;
  paths.output = path_flag(absl::GetFlag(FLAGS_output));
  paths.report = path_flag(absl::GetFlag(FLAGS_report));
  paths.dot = path_flag(absl::GetFlag(FLAGS_dot));
  paths.svg = path_flag(absl::GetFlag(FLAGS_svg));
  const std::string target_name = target.ToString();
  auto write_results = [&](const tensor::Tensor* output) {
    return WriteCompileOutputs(paths, executor.graph(), target_name, summary, output);
  };

  if (no_run) {
    // The kernels bound (or, for an instruction set this host lacks,
    // described) at plan load; nothing ran.
    summary.timings = executor.last_timings();
    if (absl::Status s = write_results(nullptr); !s.ok()) return fail(2, s);
    std::cout << HumanSummary(executor.graph(), summary);
    return 0;
  }
  absl::StatusOr<runtime::TimedRuns> timed = runtime::RunTimed(executor, *inputs, runs);
  if (!timed.ok()) return fail(2, timed.status());
  const std::vector<tensor::Tensor>& outputs = timed->outputs;
  summary.runs = runs;
  summary.run_ms = timed->run_ms;
  summary.median_ms = timed->median_ms;
  summary.timings = timed->timings;

  bool all_match = true;
  for (size_t i = 0; i < expected.size(); ++i) {
    runtime::Comparison c = runtime::CompareTensors(outputs[i], expected[i], tolerances[i]);
    summary.checks.push_back({out_names[i], c.match, c.max_abs_diff, c.message});
    all_match = all_match && c.match;
  }
  if (absl::Status s = write_results(&outputs[0]); !s.ok()) return fail(2, s);
  std::cout << HumanSummary(executor.graph(), summary);
  if (!all_match) {
    std::cerr << "qnnc compile: outputs do not match\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace qnnc::tools

int main(int argc, char** argv) { return qnnc::tools::Main(argc, argv); }
