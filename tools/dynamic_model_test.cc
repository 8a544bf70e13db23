// Dynamically quantized models (testdata/models, built by
// scripts/make_dynamic_models.py the way ONNX Runtime's quantize_dynamic
// quantizes: DynamicQuantizeLinear -> ConvInteger/MatMulInteger -> Cast ->
// Mul -> Add) against ONNX Runtime's outputs, at 1 and 2 threads:
//  - the MobileNetV2: the same top-1 and top-5, every logit within 1e-3;
//  - the U-Net-like segmentation net: correlation at least 0.999 with ORT's
//    output, the max difference printed.
// 1 and 2 threads give the same bits.
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"
#include "target/target.h"

namespace qnnc::tools {
namespace {

double Correlation(const tensor::Tensor& a, const tensor::Tensor& b) {
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  const int64_t n = a.num_elements();
  double mx = 0, my = 0;
  for (int64_t i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (int64_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / std::sqrt(sxx * syy);
}

class DynamicModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DynamicModelTest, MatchesOnnxRuntime) {
  const std::string model = GetParam();
  const target::Target target = target::DetectHost();
  std::cout << model << " for " << target.ToString() << " (host " << kernels::cpu::DescribeHostIsa()
            << ")\n";
  const std::string base = "testdata/models/" + model;
  auto graph = frontend::onnx::ImportOnnxFile(base + ".onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  passes::PassContext context;
  context.target = target;
  std::ostringstream log;
  ASSERT_TRUE(passes::PassManager().Run(passes::DefaultPipeline(), **graph, context, log).ok());
  ASSERT_EQ((*graph)->outputs().size(), 1u);
  const ir::TensorType in_type = *(*graph)->inputs()[0]->type();
  const ir::TensorType out_type = *(*graph)->outputs()[0]->type();
  auto input = io::ReadTensorFile(base + ".input.f32", in_type);
  auto expected = io::ReadTensorFile(base + ".ort_output.f32", out_type);
  ASSERT_TRUE(input.ok()) << input.status();
  ASSERT_TRUE(expected.ok()) << expected.status();
  const bool classifier = out_type.shape.size() == 2;

  std::optional<tensor::Tensor> first;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(testing::Message() << threads << " thread(s)");
    runtime::ExecutorOptions options;
    options.threads = threads;
    auto exec = runtime::Executor::Create((*graph)->Clone(), options);
    ASSERT_TRUE(exec.ok()) << exec.status();
    ASSERT_TRUE((*exec)->CheckMemory().ok()) << (*exec)->CheckMemory();
    auto outputs = (*exec)->Run({*input});
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    const tensor::Tensor& got = (*outputs)[0];
    if (classifier) {
      runtime::Comparison c = runtime::CompareTensors(got, *expected, {1e-3, 0, "dynamic model"});
      std::cout << "  " << threads << " thread(s): " << c.message << "\n";
      EXPECT_TRUE(c.has_topk && c.top1_equal && c.top5_equal) << c.message;
      EXPECT_TRUE(c.match) << c.message;
    } else {
      runtime::Comparison c = runtime::CompareTensors(got, *expected, {0, 0, "reported only"});
      const double r = Correlation(got, *expected);
      std::cout << "  " << threads << " thread(s): correlation " << r << ", max |diff| "
                << c.max_abs_diff << "\n";
      EXPECT_GE(r, 0.999);
    }
    // Every float op, dynamic quantization and convolution runs on its fast
    // kernel (below AVX2, host or cap: the portable int16 one); what is left
    // on the reference kernels is listed.
    const std::set<std::string> still_reference = {"flatten"};
    int fused = 0, unfused = 0;
    for (const runtime::OpTiming& t : (*exec)->last_timings()) {
      unfused += t.op == "qnn.conv2d";
      if (t.op != "qnn.conv2d_dynamic") continue;
      ++fused;
      EXPECT_NE(t.kernel.find("spatial_pack dynamic"), std::string::npos) << t.node_name << ": " << t.kernel;
    }
    // Every ConvInteger -> Cast -> Mul -> Add [-> Clip] is one fused op.
    EXPECT_GT(fused, 0);
    EXPECT_EQ(unfused, 0) << "convolutions not fused with their dynamic epilogue";
    std::map<std::string, int> on_reference;
    for (const runtime::OpTiming& t : (*exec)->last_timings()) {
      if (t.kernel != "reference") continue;
      ++on_reference[t.op];
      EXPECT_TRUE(still_reference.count(t.op)) << t.op << " (" << t.node_name << ") ran on the reference kernel";
    }
    if (threads == 1) {
      for (const auto& [op, n] : on_reference) std::cout << "  on the reference kernel: " << n << " " << op << "\n";
    }
    if (first) {
      EXPECT_TRUE(got.BitwiseEquals(*first)) << "1 and 2 threads differ";
    }
    first = got;
  }
  // Exact everywhere: the same bits as every op on its reference kernel
  // (the imported graph, no pass after the import's clean-up: no decision,
  // nothing fused; its ConvInteger and MatMulInteger on the evaluator).
  auto imported = frontend::onnx::ImportOnnxFile(base + ".onnx");
  ASSERT_TRUE(imported.ok()) << imported.status();
  auto reference = runtime::Executor::Create(*std::move(imported));
  ASSERT_TRUE(reference.ok()) << reference.status();
  auto ref_out = (*reference)->Run({*input});
  ASSERT_TRUE(ref_out.ok()) << ref_out.status();
  EXPECT_TRUE((*ref_out)[0].BitwiseEquals(*first)) << "differs from the reference kernels' result";
}

INSTANTIATE_TEST_SUITE_P(Models, DynamicModelTest,
                         ::testing::Values("mobilenet_v2_dynamic", "unet_dynamic_128"));

}  // namespace
}  // namespace qnnc::tools
