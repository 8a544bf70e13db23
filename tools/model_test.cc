// MobileNetV2 and ResNet-18 (QDQ, from testdata/models) against ONNX
// Runtime's outputs: same top-1 and top-5, and a max absolute difference of
// at most 2 quantization steps of the last quantized tensor.
#include <iostream>

#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/output_compare.h"
#include "runtime/tensor_files.h"

namespace qnnc::tools {
namespace {

class ModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelTest, MatchesOnnxRuntime) {
  std::string base = "testdata/models/" + GetParam();
  auto graph = frontend::onnx::ImportOnnxFile(base + ".onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  passes::PassContext context;
  std::ostringstream log;
  ASSERT_TRUE(passes::PassManager().Run(passes::DefaultPipeline(), **graph, context, log).ok());
  ASSERT_EQ((*graph)->outputs().size(), 1u);
  const ir::Value* out = (*graph)->outputs()[0];
  runtime::Tolerance tol = runtime::ToleranceFor(*out, {0, 0, "none"});
  ASSERT_NE(tol.why, "none") << "the output should be a dequantized tensor";
  ir::TensorType in_type = *(*graph)->inputs()[0]->type(), out_type = *out->type();
  auto input = runtime::ReadTensorFile(base + ".input.f32", in_type);
  auto expected = runtime::ReadTensorFile(base + ".ort_output.f32", out_type);
  ASSERT_TRUE(input.ok() && expected.ok());
  auto exec = runtime::Executor::Create(*std::move(graph), {2});
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto outputs = (*exec)->Run({*input});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  runtime::Comparison c = runtime::CompareTensors((*outputs)[0], *expected, tol);
  std::cout << GetParam() << ": " << c.message << "\n";
  EXPECT_TRUE(c.has_topk);
  EXPECT_TRUE(c.top1_equal);
  EXPECT_TRUE(c.top5_equal);
  EXPECT_TRUE(c.match) << c.message;
}

INSTANTIATE_TEST_SUITE_P(Models, ModelTest,
                         ::testing::Values("mobilenet_v2_qdq", "resnet18_qdq"));

}  // namespace
}  // namespace qnnc::tools
