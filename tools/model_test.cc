// MobileNetV2 and ResNet-18 (QDQ, from testdata/models) against ONNX
// Runtime's outputs: same top-1 and top-5, and a max absolute difference of
// at most 2 quantization steps of the last quantized tensor.
//
// Each model is compiled for the generic target and for this host at every
// instruction-set level it has (the cap: kernels/cpu/isa.h), so the VNNI,
// AVX2, scalar, int16 and XNNPACK kernels all meet the whole-model check,
// and run at 1 and 2 threads. A level the host lacks (or that QNNC_ISA caps
// away) is skipped, naming it. The compile report must show every
// convolution running on the kernel its decision names.
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/variants.h"
#include "nlohmann/json.hpp"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"
#include "target/target.h"
#include "tools/compile_report.h"

namespace qnnc::tools {
namespace {

namespace cpu = kernels::cpu;

// What the kernel description of an op carrying a decision must start with
// for its implementation (the u8 x s8 dense leaves an integer nn.dense to
// the int8 dense kernel).
std::string KernelFor(const std::string& impl, const std::string& kind) {
  if (impl == kernels::spatial_pack::kU8S8DenseAnyCpuImplementation) return "dense int8";
  for (const kernels::spatial_pack::U8S8Variant& v : kernels::spatial_pack::kU8S8Variants) {
    if (v.implementation == nullptr || impl != v.implementation) continue;
    if (kind == "nn.dense" && v.dense_op) return "dense int8";
    return absl::StrCat("spatial_pack ", v.name, ".");
  }
  if (absl::EndsWith(impl, "spatial_pack.int16")) return "spatial_pack int16.portable";
  if (absl::StartsWith(impl, "xnnpack.")) return "xnnpack " + impl.substr(8);
  return impl;  // "reference"
}

// The level the original cap (QNNC_ISA) allows, restored after each test.
class ModelTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override { saved_cap_ = cpu::IsaCap(); }
  void TearDown() override { cpu::SetIsaCap(saved_cap_); }
  std::optional<cpu::IsaLevel> saved_cap_;
};

TEST_P(ModelTest, MatchesOnnxRuntimeWithTheDecidedKernels) {
  const auto& [model, level_name] = GetParam();
  target::Target target;  // generic
  if (level_name != "generic") {
    const cpu::IsaLevel level = *cpu::ParseIsaLevel(level_name);
    const cpu::IsaLevel host = cpu::HostIsaLevel();
    if (!cpu::Includes(host, level)) {
      GTEST_SKIP() << "needs the instruction set " << level_name
                   << ", which this host may not use: " << cpu::DescribeHostIsa();
    }
    cpu::SetIsaCap(level);
    target = target::DetectHost();
  }
  std::cout << model << " for " << target.ToString() << " (host " << cpu::DescribeHostIsa()
            << ")\n";
  std::string base = "testdata/models/" + model;
  auto graph = frontend::onnx::ImportOnnxFile(base + ".onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  passes::PassContext context;
  context.target = target;
  std::ostringstream log;
  ASSERT_TRUE(passes::PassManager().Run(passes::DefaultPipeline(), **graph, context, log).ok());
  ASSERT_EQ((*graph)->outputs().size(), 1u);
  const ir::Value* out = (*graph)->outputs()[0];
  runtime::Tolerance tol = runtime::ToleranceFor(*out, {0, 0, "none"});
  ASSERT_NE(tol.why, "none") << "the output should be a dequantized tensor";
  ir::TensorType in_type = *(*graph)->inputs()[0]->type(), out_type = *out->type();
  auto input = io::ReadTensorFile(base + ".input.f32", in_type);
  auto expected = io::ReadTensorFile(base + ".ort_output.f32", out_type);
  ASSERT_TRUE(input.ok() && expected.ok());
  // Every kernel is exact, so every level of either architecture gives
  // x86-64 qnnc's bits (scripts/make_qnnc_references.sh).
  auto qnnc_output = io::ReadTensorFile(base + ".qnnc_output.f32", out_type);
  ASSERT_TRUE(qnnc_output.ok()) << qnnc_output.status();

  std::optional<tensor::Tensor> first_output;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(testing::Message() << threads << " thread(s)");
    runtime::ExecutorOptions options;
    options.threads = threads;
    auto exec = runtime::Executor::Create((*graph)->Clone(), options);
    ASSERT_TRUE(exec.ok()) << exec.status();
    // Planned memory: no two tensors live together share a byte, and the
    // arena reuses memory (MobileNetV2: about a tenth of the sum).
    ASSERT_TRUE((*exec)->CheckMemory().ok()) << (*exec)->CheckMemory();
    const runtime::MemoryStats& memory = (*exec)->memory();
    EXPECT_GE(memory.arena_bytes, memory.peak_bytes);
    EXPECT_LT(memory.arena_bytes * 3, memory.sum_bytes);
    if (threads == 1) {
      std::cout << "  memory: arena " << memory.arena_bytes << " bytes, peak " << memory.peak_bytes
                << ", without reuse " << memory.sum_bytes << "\n";
    }
    auto outputs = (*exec)->Run({*input});
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    runtime::Comparison c = runtime::CompareTensors((*outputs)[0], *expected, tol);
    std::cout << "  " << threads << " thread(s): " << c.message << "\n";
    EXPECT_TRUE(c.has_topk);
    EXPECT_TRUE(c.top1_equal);
    EXPECT_TRUE(c.top5_equal);
    EXPECT_TRUE(c.match) << c.message;
    EXPECT_TRUE((*outputs)[0].BitwiseEquals(*qnnc_output)) << "differs from x86-64 qnnc's output";
    // Threads split work, never change a result.
    if (first_output) {
      EXPECT_TRUE((*outputs)[0].BitwiseEquals(*first_output)) << "1 and 2 threads differ";
    }
    first_output = (*outputs)[0];

    // The report (as compile --report writes it): every op carrying a
    // decision (each convolution, and the classifier's dense) ran on the
    // kernel its decision names.
    CompileSummary summary;
    summary.target = target.ToString();
    summary.timings = (*exec)->last_timings();
    nlohmann::json report = nlohmann::json::parse(ReportJson((*exec)->graph(), summary));
    int convs = 0;
    std::map<std::string, int> kernels;
    int decided = 0;
    for (const auto& op : report["ops"]) {
      const std::string kind = op["kind"];
      if (!op.contains("workload")) continue;  // no decision
      ++decided;
      if (absl::StrContains(kind, "conv2d")) ++convs;
      const std::string impl = op["implementation"], kernel = op["kernel"];
      ++kernels[kernel.substr(0, kernel.find(' ', kernel.find(' ') + 1))];
      EXPECT_TRUE(absl::StartsWith(kernel, KernelFor(impl, kind)))
          << op["node"] << " (" << kind << "): decision " << impl << ", kernel " << kernel;
    }
    EXPECT_GT(convs, 0);
    EXPECT_EQ(decided, convs + 1) << "the classifier's dense carries a decision too";
    if (threads == 1) {
      for (const auto& [k, n] : kernels) std::cout << "  " << n << " x " << k << "\n";
    }
  }
}

std::string Name(const ::testing::TestParamInfo<ModelTest::ParamType>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

// The generic target, then each instruction-set level of the build's
// architecture.
std::vector<std::string> Targets() {
  std::vector<std::string> names = {"generic"};
  for (cpu::IsaLevel level : cpu::kBuildIsaLevels) names.push_back(cpu::IsaLevelName(level));
  return names;
}

INSTANTIATE_TEST_SUITE_P(Models, ModelTest,
                         ::testing::Combine(::testing::Values("mobilenet_v2_qdq", "resnet18_qdq"),
                                            ::testing::ValuesIn(Targets())),
                         Name);

}  // namespace
}  // namespace qnnc::tools
