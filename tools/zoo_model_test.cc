// The QDQ model zoo (testdata/zoo, built by
// scripts/make_zoo_models.py from torchvision's quantizable family):
// MobileNetV3-Large, Inception-v3, ShuffleNetV2 and a ResNeXt block, each
// exported at opsets 13 and 17. Against ONNX Runtime's outputs at 1 and 2
// threads: the same top-1 and top-5, every logit within the model's number
// of quantization steps; 1 and 2 threads and the reference kernels give the
// same bits; and no op runs on a reference kernel, on hosts
// with AVX2 (below it the convolutions' own fallbacks decide).
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "io/tensor_files.h"
#include "kernels/cpu/isa.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/output_compare.h"
#include "target/target.h"

namespace qnnc::tools {
namespace {

struct ZooCase {
  std::string model;
  // Quantization steps of the output allowed against ORT. qnnc computes each
  // convolution exactly in integers and rounds once; ORT (optimized or not:
  // unoptimized it convolves the dequantized floats) rounds differently
  // near ties, and MobileNetV3's nine squeeze-excite gates carry such a step
  // into every channel: up to 4 steps at the logits, the same top-5.
  int steps;
};

std::ostream& operator<<(std::ostream& os, const ZooCase& c) { return os << c.model; }

std::unique_ptr<ir::Graph> Compile(const std::string& path, const target::Target& target) {
  auto graph = frontend::onnx::ImportOnnxFile(path);
  EXPECT_TRUE(graph.ok()) << graph.status();
  if (!graph.ok()) return nullptr;
  passes::PassContext context;
  context.target = target;
  std::ostringstream log;
  absl::Status s = passes::PassManager().Run(passes::DefaultPipeline(), **graph, context, log);
  EXPECT_TRUE(s.ok()) << s;
  return s.ok() ? *std::move(graph) : nullptr;
}

class ZooModelTest : public ::testing::TestWithParam<ZooCase> {};

TEST_P(ZooModelTest, MatchesOnnxRuntimeExactly) {
  const ZooCase& zoo = GetParam();
  const target::Target target = target::DetectHost();
  std::cout << zoo.model << " for " << target.ToString() << " (host "
            << kernels::cpu::DescribeHostIsa() << ")\n";
  const std::string base = "testdata/zoo/" + zoo.model;
  std::unique_ptr<ir::Graph> graph = Compile(base + ".onnx", target);
  ASSERT_NE(graph, nullptr);
  ASSERT_EQ(graph->outputs().size(), 1u);
  runtime::Tolerance tol = runtime::ToleranceFor(*graph->outputs()[0], {0, 0, "none"});
  ASSERT_NE(tol.why, "none") << "the output should be a dequantized tensor";
  const double step = tol.atol / 2;  // ToleranceFor allows 2 steps
  tol.atol = zoo.steps * step;
  tol.why = absl::StrCat(zoo.steps, " quantization steps of ", step);
  const ir::TensorType in_type = *graph->inputs()[0]->type();
  auto input = io::ReadTensorFile(base + ".input.f32", in_type);
  auto expected = io::ReadTensorFile(base + ".ort_output.f32", *graph->outputs()[0]->type());
  ASSERT_TRUE(input.ok()) << input.status();
  ASSERT_TRUE(expected.ok()) << expected.status();
  // Every kernel is exact, so every level of either architecture gives
  // x86-64 qnnc's bits (scripts/make_qnnc_references.sh).
  auto qnnc_output = io::ReadTensorFile(base + ".qnnc_output.f32", *graph->outputs()[0]->type());
  ASSERT_TRUE(qnnc_output.ok()) << qnnc_output.status();

  std::optional<tensor::Tensor> first;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(testing::Message() << threads << " thread(s)");
    runtime::ExecutorOptions options;
    options.threads = threads;
    auto exec = runtime::Executor::Create(graph->Clone(), options);
    ASSERT_TRUE(exec.ok()) << exec.status();
    ASSERT_TRUE((*exec)->CheckMemory().ok()) << (*exec)->CheckMemory();
    auto outputs = (*exec)->Run({*input});
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    const tensor::Tensor& got = (*outputs)[0];
    runtime::Comparison c = runtime::CompareTensors(got, *expected, tol);
    std::cout << "  " << threads << " thread(s): " << c.message << "\n";
    EXPECT_TRUE(c.has_topk && c.top1_equal && c.top5_equal) << c.message;
    EXPECT_TRUE(c.match) << c.message;
    EXPECT_TRUE(got.BitwiseEquals(*qnnc_output)) << "differs from x86-64 qnnc's output";
    if (first) {
      EXPECT_TRUE(got.BitwiseEquals(*first)) << "1 and 2 threads differ";
    }
    first = got;
    std::map<std::string, int> on_reference;
    int transforms = 0;
    for (const runtime::OpTiming& t : (*exec)->last_timings()) {
      transforms += t.op == "layout_transform";
      if (t.kernel == "reference") ++on_reference[t.op];
    }
    // Layout transforms only where the graph's layout really changes: at
    // most one per graph input and output.
    EXPECT_LE(transforms, static_cast<int>(graph->inputs().size() + graph->outputs().size()))
        << "layout transforms inside the graph";
    if (threads == 1) {
      std::cout << "  layout transforms: " << transforms << "\n";
      for (const auto& [op, n] : on_reference) std::cout << "  on the reference kernel: " << n << " " << op << "\n";
    }
    std::set<std::string> kinds;
    for (const auto& [op, n] : on_reference) kinds.insert(op);
    // Every level runs every op on a native kernel.
    EXPECT_EQ(absl::StrJoin(kinds, ","), "") << "ops on reference kernels";
  }
  // Exact everywhere: the bits of every op on its reference kernel.
  std::unique_ptr<ir::Graph> generic = Compile(base + ".onnx", *target::ParseTarget("generic"));
  ASSERT_NE(generic, nullptr);
  auto reference = runtime::Executor::Create(std::move(generic));
  ASSERT_TRUE(reference.ok()) << reference.status();
  auto ref_out = (*reference)->Run({*input});
  ASSERT_TRUE(ref_out.ok()) << ref_out.status();
  EXPECT_TRUE((*ref_out)[0].BitwiseEquals(*first)) << "differs from the reference kernels' result";
}

INSTANTIATE_TEST_SUITE_P(
    Zoo, ZooModelTest,
    ::testing::Values(ZooCase{"mobilenet_v3_large_op13", 4},
                      ZooCase{"mobilenet_v3_large_op17", 4},
                      ZooCase{"inception_v3_op13", 2},
                      ZooCase{"inception_v3_op17", 2},
                      ZooCase{"shufflenet_v2_op13", 2},
                      ZooCase{"shufflenet_v2_op17", 2},
                      ZooCase{"resnext_block_op13", 2},
                      ZooCase{"resnext_block_op17", 2}),
    [](const ::testing::TestParamInfo<ZooCase>& info) { return info.param.model; });

}  // namespace
}  // namespace qnnc::tools
