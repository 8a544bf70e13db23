// qnnc compile: the main job. Imports a model, runs the compilation pipeline
// for a target, runs it on inputs and checks the outputs.
//
// Exit codes: 0 success, 1 output mismatch (--expect / --test-data),
// 2 bad input (model, flags, files) or any other error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "frontend/load_model.h"
#include "ir/text_printer.h"
#include "kernels/cpu/isa.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/plan.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"
#include "target/target.h"
#include "tools/compile_dot.h"
#include "tools/compile_dot.h"
#include "tools/compile_report.h"
#include "tools/flag_names.h"
#include "tools/isa_cap.h"
#include "tools/tool_paths.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"
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

constexpr char kDefaultModel[] = "testdata/models/mobilenet_v2_qdq.onnx";
constexpr char kDefaultInput[] = "testdata/models/mobilenet_v2_qdq.input.f32";
constexpr char kDefaultExpect[] = "testdata/models/mobilenet_v2_qdq.ort_output.f32";

struct Failure {
  int exit_code;
  absl::Status status;
};

// A deterministic pseudo-random tensor (the same on every machine).
tensor::Tensor SyntheticInput(const ir::TensorType& type) {
  tensor::Tensor t = tensor::Tensor::Zeros(type.dtype, type.shape);
  uint32_t state = 12345;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    state = state * 1664525u + 1013904223u;
    uint32_t r = state >> 8;
    switch (type.dtype) {
      case tensor::DType::kF32: t.data<float>()[i] = static_cast<float>(r % 2001) / 1000.0f - 1.0f; break;
      case tensor::DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(r); break;
      case tensor::DType::kI8: t.data<int8_t>()[i] = static_cast<int8_t>(r); break;
      case tensor::DType::kI32: t.data<int32_t>()[i] = static_cast<int32_t>(r % 256) - 128; break;
      case tensor::DType::kI64: t.data<int64_t>()[i] = static_cast<int64_t>(r % 256) - 128; break;
      default: static_cast<uint8_t*>(t.raw_data())[i * tensor::DTypeSize(type.dtype)] = r & 1; break;
    }
  }
  return t;
}

// --input=PATH or --input=NAME=PATH, repeatable: taken out of argv before
// absl parses the rest (absl keeps only the last value of a repeated flag).
std::vector<std::string> ExtractRepeated(int& argc, char** argv, const std::string& flag) {
  std::vector<std::string> values;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, flag + "=")) {
      values.push_back(arg.substr(flag.size() + 1));
    } else if (arg == flag && i + 1 < argc) {
      values.push_back(argv[++i]);
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return values;
}

absl::StatusOr<std::vector<tensor::Tensor>> ReadInputs(const ir::Graph& g,
                                                       const std::vector<std::string>& specs) {
  std::vector<std::string> paths(g.inputs().size());
  size_t positional = 0;
  for (const std::string& spec : specs) {
    std::pair<std::string, std::string> kv = absl::StrSplit(spec, absl::MaxSplits('=', 1));
    size_t index = g.inputs().size();
    if (!kv.second.empty()) {
      for (size_t i = 0; i < g.inputs().size(); ++i) {
        if (g.inputs()[i]->name() == kv.first) index = i;
      }
      if (index == g.inputs().size()) {
        std::string names;
        for (const ir::Value* in : g.inputs()) absl::StrAppend(&names, names.empty() ? "" : ", ", in->name());
        return absl::InvalidArgumentError(
            absl::StrCat("--input: the model has no input '", kv.first, "' (inputs: ", names, ")"));
      }
    } else {
      index = positional++;
      if (index >= g.inputs().size()) {
        return absl::InvalidArgumentError(absl::StrCat("--input: the model takes ", g.inputs().size(),
                                                       " inputs, got more"));
      }
    }
    paths[index] = ResolveUserPath(kv.second.empty() ? kv.first : kv.second);
  }
  std::vector<tensor::Tensor> inputs;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ir::Value* in = g.inputs()[i];
    if (paths[i].empty()) {
      inputs.push_back(SyntheticInput(*in->type()));
    } else {
      ASSIGN_OR_RETURN(tensor::Tensor t, io::ReadTensorFile(paths[i], *in->type()));
      inputs.push_back(std::move(t));
    }
  }
  return inputs;
}

// Files of an ONNX test_data_set folder: input_0.pb, input_1.pb, ...
std::vector<std::string> NumberedFiles(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    std::string p = absl::StrCat(dir, "/", prefix, "_", i, ".pb");
    if (!std::filesystem::exists(p)) break;
    files.push_back(p);
  }
  return files;
}

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
  std::string test_data = absl::GetFlag(FLAGS_test_data);
  std::string expect = absl::GetFlag(FLAGS_expect);
  if (!test_data.empty()) test_data = ResolveUserPath(test_data);
  if (!expect.empty()) expect = ResolveUserPath(expect);
  std::vector<std::string> expect_files;
  if (!test_data.empty()) {
    if (!input_specs.empty() || !expect.empty()) {
      return fail(2, absl::InvalidArgumentError("--test-data replaces --input and --expect"));
    }
    if (!std::filesystem::is_directory(test_data)) {
      return fail(2, absl::NotFoundError(absl::StrCat("--test-data: no folder '", test_data, "'")));
    }
    input_specs = NumberedFiles(test_data, "input");
    expect_files = NumberedFiles(test_data, "output");
    if (expect_files.empty()) {
      return fail(2, absl::InvalidArgumentError(absl::StrCat("--test-data: '", test_data,
                                                             "' has no output_0.pb")));
    }
  } else if (!expect.empty()) {
    if (input_specs.empty()) {
      // Without --input a model runs on synthetic inputs: comparing their
      // outputs with a reference file would report a meaningless mismatch.
      if (!default_model) {
        return fail(2, absl::InvalidArgumentError(
                           "--expect needs --input: without it the model runs on synthetic "
                           "inputs, whose outputs cannot match a reference file"));
      }
      input_specs.push_back(BundledPath(kDefaultInput));
    }
    expect_files.push_back(expect);
  } else if (default_model && input_specs.empty()) {
    // The bundled model comes with its input and ONNX Runtime's output.
    input_specs.push_back(BundledPath(kDefaultInput));
    expect_files.push_back(BundledPath(kDefaultExpect));
  }

  // A plan is text IR whatever its file is called.
  // The import clean-up runs below with the rest of the pipeline, where
  // --print-ir-after and --time-passes see it.
  auto graph_or = plan_path.empty() ? frontend::LoadModel(model_path, max_bytes, /*clean_up=*/false)
                                    : frontend::LoadTextModel(model_path, max_bytes);
  if (!graph_or.ok()) return fail(2, graph_or.status());
  std::unique_ptr<ir::Graph> graph = *std::move(graph_or);

  passes::PassManagerOptions pm_options;
  pm_options.print_ir_after = absl::GetFlag(FLAGS_print_ir_after);
  pm_options.time_passes = absl::GetFlag(FLAGS_time_passes);
  passes::PassManager pm(pm_options);
  // Tuning records: each op's decision comes from the best that applies.
  std::vector<tuning::Record> records;
  for (const std::string& spec : records_specs) {
    auto loaded = tuning::LoadRecords(ResolveUserPath(spec), absl::GetFlag(FLAGS_strict_records));
    if (!loaded.ok()) return fail(2, absl::InvalidArgumentError(absl::StrCat("--records: ", loaded.status().message())));
    for (const std::string& w : loaded->warnings) std::cerr << "qnnc compile: warning: --records: " << w << "\n";
    records.insert(records.end(), loaded->records.begin(), loaded->records.end());
  }
  tuning::RecordsDispatchContext records_dispatch(records, kernels::cpu::CpuModelName());
  for (const std::string& d : records_dispatch.dropped()) {
    std::cerr << "qnnc compile: warning: --records: " << d << "\n";
  }
  passes::PassContext context;
  context.target = target;
  if (!records_specs.empty()) context.dispatch = &records_dispatch;
  context.require_tuned = absl::GetFlag(FLAGS_require_tuned);
  context.max_bytes = max_bytes;
  if (plan_path.empty()) {
    std::vector<std::string> pipeline;
    if (frontend::IsOnnxModel(model_path)) pipeline = passes::ImportPipeline();
    for (const std::string& pass : passes::DefaultPipeline()) pipeline.push_back(pass);
    if (absl::Status s = pm.Run(pipeline, *graph, context, std::cerr); !s.ok()) {
      return fail(2, s);
    }
  }
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
  auto inputs = ReadInputs(executor.graph(), input_specs);
  if (!inputs.ok()) return fail(2, inputs.status());

  CompileSummary summary;
  summary.model = model_path;
  summary.target = target.ToString();
  summary.host = kernels::cpu::DescribeHostIsa();
  summary.untuned_workloads.assign(context.untuned_workloads.begin(), context.untuned_workloads.end());
  summary.threads = threads;
  summary.memory = executor.memory();

  // The files this run produces, written last and together: if one cannot
  // be written, the ones before it are removed (exit 2 means nothing
  // written). The plan is written once its kernels have bound, so a plan
  // file always loads.
  const std::string output_path =
      absl::GetFlag(FLAGS_output).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_output));
  const std::string report_path =
      absl::GetFlag(FLAGS_report).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_report));
  const std::string dot_path =
      absl::GetFlag(FLAGS_dot).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_dot));
  const std::string svg_path =
      absl::GetFlag(FLAGS_svg).empty() ? "" : ResolveUserPath(absl::GetFlag(FLAGS_svg));
  auto write_results = [&](const tensor::Tensor* output) -> absl::Status {
    std::vector<std::string> written;
    auto put = [&](const std::string& path, absl::Status s) {
      if (!s.ok()) {
        for (const std::string& w : written) std::remove(w.c_str());
        return s;
      }
      written.push_back(path);
      return absl::OkStatus();
    };
    if (!out_path.empty()) {
      RETURN_IF_ERROR(put(out_path, io::WriteFileAtomically(
                                        out_path, runtime::PlanText(executor.graph(), target.ToString()))));
    }
    if (output != nullptr && !output_path.empty()) {
      RETURN_IF_ERROR(put(output_path, io::WriteTensorFile(output_path, *output)));
    }
    if (!report_path.empty()) {
      RETURN_IF_ERROR(put(report_path, io::WriteFileAtomically(
                                           report_path, ReportJson(executor.graph(), summary))));
    }
    if (!dot_path.empty() || !svg_path.empty()) {
      const std::string dot = GraphDot(executor.graph(), summary.timings);
      if (!dot_path.empty()) RETURN_IF_ERROR(put(dot_path, io::WriteFileAtomically(dot_path, dot)));
      if (!svg_path.empty()) RETURN_IF_ERROR(put(svg_path, RenderSvg(dot, svg_path)));
    }
    return absl::OkStatus();
  };

  if (no_run) {
    // The kernels bound (or, for an instruction set this host lacks,
    // described) at plan load; nothing ran.
    summary.timings = executor.last_timings();
    if (absl::Status s = write_results(nullptr); !s.ok()) return fail(2, s);
    std::cout << HumanSummary(executor.graph(), summary);
    return 0;
  }
  std::vector<tensor::Tensor> outputs;
  std::vector<std::pair<double, std::vector<runtime::OpTiming>>> timed;
  for (int r = 0; r < runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    auto result = executor.Run(*inputs);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) return fail(2, result.status());
    outputs = *std::move(result);
    timed.push_back({ms, executor.last_timings()});
    summary.run_ms.push_back(ms);
  }
  summary.runs = runs;
  std::sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  summary.median_ms = timed[timed.size() / 2].first;
  // Each op's time is its own median over the runs (one run's times are
  // noisy op by op on a shared machine).
  summary.timings = timed[timed.size() / 2].second;
  for (size_t i = 0; i < summary.timings.size(); ++i) {
    std::vector<double> op_ms;
    for (const auto& run : timed) op_ms.push_back(run.second[i].ms);
    std::nth_element(op_ms.begin(), op_ms.begin() + op_ms.size() / 2, op_ms.end());
    summary.timings[i].ms = op_ms[op_ms.size() / 2];
  }

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
