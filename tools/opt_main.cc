// qnnc opt: runs a list of passes on a text IR file (or an ONNX model, after
// its import clean-up, passes::ImportPipeline()) and prints the IR.
//   bazel run //tools:opt -- --passes=FoldConstant,DeadCodeElimination in.qnnir
// Exit codes: 0 success, 2 bad input (file, IR, flags) or a pass error.
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "frontend/load_model.h"
#include "ir/text_printer.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "io/tensor_files.h"
#include "target/target.h"
#include "tools/flag_names.h"
#include "tools/isa_cap.h"
#include "tools/tool_paths.h"

ABSL_FLAG(std::string, passes, "InferTypes", "comma-separated passes to run, in order");
ABSL_FLAG(std::string, target, "generic", "target the passes compile for");
ABSL_FLAG(bool, import_pipeline, true,
          "for an ONNX model, run the import clean-up (FoldConstantKeepDequantize, FuseQdq, "
          "FoldConstant, DeadCodeElimination, InferTypes) before --passes; false prints the raw "
          "conversion");
ABSL_FLAG(std::string, output, "", "write the IR here instead of stdout");
ABSL_FLAG(std::string, print_ir_after, "", "print the IR after passes matching this RE2 pattern (to stderr)");
ABSL_FLAG(bool, time_passes, false, "print the time of each pass (to stderr)");
ABSL_FLAG(std::string, isa, "", qnnc::tools::kIsaFlagHelp);

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("qnnc opt [flags] INPUT.qnnir|INPUT.onnx");
  qnnc::tools::DashesToUnderscores(argc, argv);
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  auto fail = [](const std::string& message) {
    std::cerr << "qnnc opt: error: " << message << "\n";
    return 2;
  };
  if (absl::Status s = qnnc::tools::ApplyIsaFlag(absl::GetFlag(FLAGS_isa)); !s.ok()) {
    return fail(std::string(s.message()));
  }
  if (args.size() != 2) return fail("expected exactly one input file");
  const std::string path = qnnc::tools::ResolveUserPath(args[1]);
  const bool import = qnnc::frontend::IsOnnxModel(path) && absl::GetFlag(FLAGS_import_pipeline);
  auto graph = qnnc::frontend::LoadModel(path, qnnc::tensor::kDefaultMaxBytes, /*clean_up=*/false);
  if (!graph.ok()) return fail(std::string(graph.status().message()));
  // An ONNX model's import clean-up runs first, as a pipeline of its own
  // passes (visible to --print-ir-after and --time-passes).
  std::vector<std::string> pipeline;
  if (import) pipeline = qnnc::passes::ImportPipeline();
  for (absl::string_view pass : absl::StrSplit(absl::GetFlag(FLAGS_passes), ',', absl::SkipWhitespace())) {
    pipeline.emplace_back(pass);
  }
  qnnc::passes::PassManagerOptions options;
  options.print_ir_after = absl::GetFlag(FLAGS_print_ir_after);
  options.time_passes = absl::GetFlag(FLAGS_time_passes);
  qnnc::passes::PassContext context;
  auto target = qnnc::target::ParseTarget(absl::GetFlag(FLAGS_target));
  if (!target.ok()) return fail(std::string(target.status().message()));
  context.target = *target;
  absl::Status s = qnnc::passes::PassManager(options).Run(pipeline, **graph, context, std::cerr);
  if (!s.ok()) return fail(std::string(s.message()));
  std::string text = qnnc::ir::PrintGraph(**graph);
  if (absl::GetFlag(FLAGS_output).empty()) {
    std::cout << text;
    return 0;
  }
  s = qnnc::io::WriteFileAtomically(qnnc::tools::ResolveUserPath(absl::GetFlag(FLAGS_output)), text);
  if (!s.ok()) return fail(std::string(s.message()));
  return 0;
}
