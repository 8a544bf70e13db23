// qnnc compile: the main job. Imports a model, runs the compilation pipeline
// for a target, runs it on inputs and checks the outputs.
//
// Exit codes: 0 success, 1 output mismatch (--expect / --test-data),
// 2 bad input (model, flags, files) or any other error.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "runtime/executor.h"
#include "runtime/timed_runs.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"
#include "qnnc/compile_model.h"
#include "qnnc/host_executor.h"
#include "target/target.h"
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
ABSL_FLAG(int, runs, 0,
          "warm runs to time after the first, cold run, which is reported apart; the median is the "
          "latency (0: enough to fill about a second, at least 10)");
ABSL_FLAG(std::string, report, "", "write a JSON report here");
ABSL_FLAG(std::string, dot, "",
          "write the compiled graph here as Graphviz DOT: per op its implementation (tuned or "
          "fallback), layout, dtypes and time; the slowest shaded, layout transforms marked");
ABSL_FLAG(std::string, svg, "", "render that graph to SVG here (needs Graphviz's dot)");
ABSL_FLAG(std::string, out, "",
          "write the compiled plan here: the graph after every pass, each op with its implementation, "
          "config and layout, and the constants (run it with --plan)");
ABSL_FLAG(std::string, plan_format, "binary",
          "the format --out writes: binary (mapped at load, its constants used in place) or text "
          "(text IR, for reading and `opt`); --plan reads either");
ABSL_FLAG(std::string, plan, "",
          "run a compiled plan written by --out: no import and no passes; kernels bind and pack "
          "their weights at load, for the target the plan was compiled for");
ABSL_FLAG(std::string, print_ir_after, "", "print the IR after passes matching this RE2 pattern");
ABSL_FLAG(bool, time_passes, false, "print the time of each pass (and per kind of op where a pass works op by op)");
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

// The flags of one run, checked: what compiling (or loading a plan), running
// and writing the results need.
struct RunSettings {
  std::string plan_path;   // --plan, resolved; empty: compile a model
  std::string out_path;    // --out, resolved
  runtime::PlanFormat plan_format = runtime::PlanFormat::kBinary;  // --plan-format
  std::string model_path;  // the model compiled, or the plan
  target::Target target;   // --target, or the one the plan names
  bool no_run = false;
  int threads = 1;
  int runs = 0;           // --runs: warm runs, 0 to fill about a second
  bool default_model = false;  // the bundled MobileNetV2
  int64_t max_bytes = 0;  // --max-memory-mb in bytes
  std::vector<std::string> records_files;  // --records, resolved
  RunFiles run_files;
};

// A plan was compiled already: the flags that shape compilation do not apply.
absl::Status CheckPlanFlags(const std::vector<std::string>& records_specs, const std::string& out_path) {
  const char* conflict = !absl::GetFlag(FLAGS_model).empty() ? "--model"
                         : absl::GetFlag(FLAGS_target) != "host" ? "--target"
                         : absl::GetFlag(FLAGS_require_tuned) ? "--require-tuned"
                         : !records_specs.empty() ? "--records"
                         : !absl::GetFlag(FLAGS_print_ir_after).empty() ? "--print-ir-after"
                         : absl::GetFlag(FLAGS_time_passes) ? "--time-passes"
                         : !out_path.empty() ? "--out"
                         : nullptr;
  if (conflict != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plan runs a plan compiled already: ", conflict, " does not apply"));
  }
  return absl::OkStatus();
}

// The target a model is compiled for (--target), or the one a plan names.
absl::StatusOr<target::Target> ResolveRunTarget(const std::string& plan_path, bool no_run) {
  if (!plan_path.empty()) return PlanTarget(plan_path);
  return ResolveTarget(absl::GetFlag(FLAGS_target), no_run);
}

// The command, run from the repository, that times ONNX Runtime beside
// qnnc on this host for the model (bench/models.sh), or "" for a plan or a
// text IR model, which ONNX Runtime cannot run.
std::string CompareCommand(const std::string& model_path, bool default_model) {
  const std::string isa = absl::GetFlag(FLAGS_isa).empty() ? "" : " --isa=" + absl::GetFlag(FLAGS_isa);
  // The bundled model is named as in the repository (bench/models.sh's default folder).
  const std::filesystem::path model = default_model ? kDefaultModel : model_path;
  if (model.extension() != ".onnx") return "";
  const std::string name = model.stem().string();
  if (default_model) return absl::StrCat("bench/models.sh --models=", name, isa);
  const std::filesystem::path dir = model.has_parent_path() ? model.parent_path() : ".";
  std::string command = absl::StrCat("bench/models.sh --dir=", dir.string(), " --models=", name, isa);
  const std::filesystem::path input = dir / (name + ".input.f32");
  std::error_code error;
  if (!std::filesystem::exists(input, error)) {
    absl::StrAppend(&command, " (it reads the input from ", input.string(), ", raw f32)");
  }
  return command;
}

// Parses the command line and checks the flags, in the order their errors
// are reported.
absl::StatusOr<RunSettings> ParseFlags(int argc, char** argv) {
  DashesToUnderscores(argc, argv);
  std::vector<std::string> input_specs = ExtractRepeated(argc, argv, "--input");
  std::vector<std::string> records_specs = ExtractRepeated(argc, argv, "--records");
  absl::SetProgramUsageMessage("qnnc compile: import, compile and run a quantized model");
  absl::ParseCommandLine(argc, argv);
  RETURN_IF_ERROR(ApplyIsaFlag(absl::GetFlag(FLAGS_isa)));
  RunSettings s;
  s.plan_path = absl::GetFlag(FLAGS_plan).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_plan));
  s.out_path = absl::GetFlag(FLAGS_out).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_out));
  if (!s.plan_path.empty()) RETURN_IF_ERROR(CheckPlanFlags(records_specs, s.out_path));
  absl::StatusOr<runtime::PlanFormat> format = runtime::ParsePlanFormat(absl::GetFlag(FLAGS_plan_format));
  if (!format.ok()) return absl::InvalidArgumentError(absl::StrCat("--plan-format: ", format.status().message()));
  s.plan_format = *format;
  s.no_run = absl::GetFlag(FLAGS_no_run);
  ASSIGN_OR_RETURN(s.target, ResolveRunTarget(s.plan_path, s.no_run));
  s.threads = absl::GetFlag(FLAGS_threads);
  s.runs = absl::GetFlag(FLAGS_runs);
  RETURN_IF_ERROR(CheckThreadCount(s.threads));
  if (s.runs < 0) return absl::InvalidArgumentError("--runs must be at least 0 (0: enough runs to fill about a second)");
  ASSIGN_OR_RETURN(s.max_bytes, MemoryLimitBytes(absl::GetFlag(FLAGS_max_memory_mb)));

  const bool default_model = absl::GetFlag(FLAGS_model).empty() && s.plan_path.empty();
  s.default_model = default_model;
  s.model_path = default_model           ? BundledPath(kDefaultModel)
                 : !s.plan_path.empty() ? s.plan_path
                                        : ResolveUserPath(absl::GetFlag(FLAGS_model));
  ASSIGN_OR_RETURN(s.run_files,
                   ResolveRunFiles(std::move(input_specs), absl::GetFlag(FLAGS_test_data),
                                   absl::GetFlag(FLAGS_expect), default_model));
  for (const std::string& spec : records_specs) s.records_files.push_back(ResolveUserPath(spec));
  return s;
}

// Imports and compiles the model, or loads the plan.
absl::StatusOr<CompiledModel> CompileOrLoad(const RunSettings& s) {
  if (!s.plan_path.empty()) return LoadPlanFile(s.plan_path, s.max_bytes);
  CompileOptions options;
  options.target = s.target;
  options.records_files = s.records_files;
  options.strict_records = absl::GetFlag(FLAGS_strict_records);
  options.threads = s.threads;
  options.require_tuned = absl::GetFlag(FLAGS_require_tuned);
  options.max_bytes = s.max_bytes;
  options.pass_manager.print_ir_after = absl::GetFlag(FLAGS_print_ir_after);
  options.pass_manager.time_passes = absl::GetFlag(FLAGS_time_passes);
  return CompileModel(s.model_path, options, std::cerr);
}

// What the graph's outputs are checked with: taken before the graph moves
// into the executor.
struct OutputChecks {
  std::vector<ir::TensorType> types;  // for reading the expected outputs
  std::vector<runtime::Tolerance> tolerances;
  std::vector<std::string> names;
};

absl::StatusOr<OutputChecks> DescribeOutputs(const ir::Graph& graph, size_t expected_count) {
  if (expected_count > graph.outputs().size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(expected_count, " expected outputs for a model with ", graph.outputs().size()));
  }
  OutputChecks checks;
  runtime::Tolerance fallback{absl::GetFlag(FLAGS_atol), absl::GetFlag(FLAGS_rtol), "--atol/--rtol"};
  for (const ir::Value* out : graph.outputs()) {
    checks.types.push_back(*out->type());
    checks.tolerances.push_back(runtime::ToleranceFor(*out, fallback));
    checks.names.push_back(out->name());
  }
  return checks;
}

// The executor for the compiled graph (qnnc/host_executor.h).
absl::StatusOr<std::unique_ptr<runtime::Executor>> CreateExecutor(
    std::unique_ptr<ir::Graph> graph, std::shared_ptr<const runtime::PackedStates> packed, const RunSettings& s) {
  runtime::ExecutorOptions options;
  options.packed = std::move(packed);
  // The weights are held once, packed, unless a text plan (every constant's
  // bytes) is to be written.
  options.release_packed_constants = s.out_path.empty() || s.plan_format != runtime::PlanFormat::kText;
  options.threads = s.threads;
  options.max_bytes = s.max_bytes;
  return CreateHostExecutor(std::move(graph), options, {s.plan_path, s.target, s.no_run});
}

// The expected outputs (--expect, --test-data), read as the outputs' types.
absl::StatusOr<std::vector<tensor::Tensor>> ReadExpected(const std::vector<std::string>& files,
                                                         const std::vector<ir::TensorType>& types) {
  std::vector<tensor::Tensor> expected;
  for (size_t i = 0; i < files.size(); ++i) {
    ASSIGN_OR_RETURN(tensor::Tensor t, io::ReadTensorFile(files[i], types[i]));
    expected.push_back(std::move(t));
  }
  return expected;
}

// The files this run writes (resolved paths; empty: not asked for).
OutputPaths ResolveOutputPaths(const RunSettings& s) {
  auto path_flag = [](const std::string& flag) { return flag.empty() ? "" : ResolveUserPath(flag); };
  OutputPaths paths;
  paths.plan = s.out_path;
  paths.plan_format = s.plan_format;
  paths.output = path_flag(absl::GetFlag(FLAGS_output));
  paths.report = path_flag(absl::GetFlag(FLAGS_report));
  paths.dot = path_flag(absl::GetFlag(FLAGS_dot));
  paths.svg = path_flag(absl::GetFlag(FLAGS_svg));
  return paths;
}

// Runs the model (unless --no-run), compares its outputs with `expected`,
// writes the files asked for and prints the summary. Returns whether every
// expected output matched.
//
// The files are written last and together: if one cannot be written, the
// ones before it are removed (exit 2 means nothing written). The plan is
// written once its kernels have bound, so a plan file always loads.
absl::StatusOr<bool> RunAndReport(runtime::Executor& executor, const RunSettings& s,
                                  const std::vector<tensor::Tensor>& inputs,
                                  const std::vector<tensor::Tensor>& expected,
                                  const OutputChecks& checks, CompileSummary summary) {
  const OutputPaths paths = ResolveOutputPaths(s);
  const std::string target_name = s.target.ToString();
  if (s.no_run) {
    // The kernels bound (or, for an instruction set this host lacks,
    // described) at plan load; nothing ran.
    summary.timings = executor.last_timings();
    summary.peak_rss_bytes = PeakRssBytes();
    RETURN_IF_ERROR(WriteCompileOutputs(paths, executor, target_name, summary, nullptr));
    std::cout << HumanSummary(executor.graph(), summary);
    return true;
  }
  ASSIGN_OR_RETURN(runtime::TimedRuns timed, runtime::RunTimed(executor, inputs, runtime::RunCount{s.runs}));
  const std::vector<tensor::Tensor>& outputs = timed.outputs;
  summary.runs = static_cast<int>(timed.run_ms.size());
  summary.cold_ms = timed.cold_ms;
  summary.compare = CompareCommand(s.model_path, s.default_model);
  summary.run_ms = timed.run_ms;
  summary.median_ms = timed.median_ms;
  summary.timings = timed.timings;

  bool all_match = true;
  for (size_t i = 0; i < expected.size(); ++i) {
    runtime::Comparison c = runtime::CompareTensors(outputs[i], expected[i], checks.tolerances[i]);
    summary.checks.push_back({checks.names[i], c.match, c.max_abs_diff, c.message});
    all_match = all_match && c.match;
  }
  summary.peak_rss_bytes = PeakRssBytes();
  RETURN_IF_ERROR(WriteCompileOutputs(paths, executor, target_name, summary, &outputs[0]));
  std::cout << HumanSummary(executor.graph(), summary);
  return all_match;
}

// The whole job; an error is a bad input (exit 2). Returns the exit code
// otherwise: 0, or 1 when an output does not match.
absl::StatusOr<int> CompileAndRun(int argc, char** argv) {
  ASSIGN_OR_RETURN(const RunSettings s, ParseFlags(argc, argv));
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(CompiledModel compiled, CompileOrLoad(s));
  ASSIGN_OR_RETURN(const OutputChecks checks,
                   DescribeOutputs(*compiled.graph, s.run_files.expect_files.size()));
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> executor,
                   CreateExecutor(std::move(compiled.graph), compiled.packed, s));
  const double prepare_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSIGN_OR_RETURN(const std::vector<tensor::Tensor> expected,
                   ReadExpected(s.run_files.expect_files, checks.types));
  ASSIGN_OR_RETURN(const std::vector<tensor::Tensor> inputs,
                   ReadInputs(executor->graph(), s.run_files.input_specs));

  CompileSummary summary;
  summary.model = s.model_path;
  summary.target = s.target.ToString();
  summary.host = kernels::cpu::DescribeHostIsa();
  summary.untuned_workloads = compiled.untuned_workloads;
  summary.threads = s.threads;
  summary.memory = executor->memory();
  summary.from_plan = !s.plan_path.empty();
  summary.restored_kernels = executor->restored_kernels();
  summary.prepare_ms = prepare_ms;
  ASSIGN_OR_RETURN(const bool all_match,
                   RunAndReport(*executor, s, inputs, expected, checks, std::move(summary)));
  if (!all_match) {
    std::cerr << "qnnc compile: outputs do not match\n";
    return 1;
  }
  return 0;
}

int Main(int argc, char** argv) {
  absl::StatusOr<int> code = CompileAndRun(argc, argv);
  if (!code.ok()) {
    std::cerr << "qnnc compile: error: " << code.status().message() << "\n";
    return 2;
  }
  return *code;
}

}  // namespace
}  // namespace qnnc::tools

int main(int argc, char** argv) { return qnnc::tools::Main(argc, argv); }
