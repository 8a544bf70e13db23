// The ONNX backend node tests (Debian's libonnx-testdata) through the
// frontend, the default pipeline and the executor: every quantization test
// and the float conv tests. Integer outputs must match exactly.
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/output_compare.h"
#include "io/tensor_files.h"

namespace qnnc::tools {
namespace {

namespace fs = std::filesystem;

std::string NodeTestDir(const std::string& name) {
  return absl::StrCat(std::getenv("TEST_SRCDIR"), "/onnx_node_testdata/", name);
}

class OnnxNodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxNodeTest, MatchesExpectedOutputs) {
  std::string dir = NodeTestDir(GetParam());
  auto graph = frontend::onnx::ImportOnnxFile(dir + "/model.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  passes::PassContext context;
  std::ostringstream log;
  ASSERT_TRUE(passes::PassManager().Run(passes::DefaultPipeline(), **graph, context, log).ok());
  std::vector<ir::TensorType> in_types, out_types;
  std::vector<runtime::Tolerance> tolerances;
  for (const ir::Value* v : (*graph)->inputs()) in_types.push_back(*v->type());
  for (const ir::Value* v : (*graph)->outputs()) {
    out_types.push_back(*v->type());
    tolerances.push_back(runtime::ToleranceFor(*v, {1e-4, 1e-4, "float conv"}));
  }
  auto exec = runtime::Executor::Create(*std::move(graph));
  ASSERT_TRUE(exec.ok()) << exec.status();
  int sets = 0;
  for (int set = 0; fs::exists(absl::StrCat(dir, "/test_data_set_", set)); ++set, ++sets) {
    std::string data = absl::StrCat(dir, "/test_data_set_", set);
    std::vector<tensor::Tensor> inputs;
    for (size_t i = 0; i < in_types.size(); ++i) {
      auto t = io::ReadTensorFile(absl::StrCat(data, "/input_", i, ".pb"), in_types[i]);
      ASSERT_TRUE(t.ok()) << t.status();
      inputs.push_back(*t);
    }
    auto outputs = (*exec)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    for (size_t i = 0; i < out_types.size(); ++i) {
      auto expected = io::ReadTensorFile(absl::StrCat(data, "/output_", i, ".pb"), out_types[i]);
      ASSERT_TRUE(expected.ok()) << expected.status();
      // Exact for integers; the float tolerance only applies to f32 outputs.
      runtime::Comparison c = runtime::CompareTensors((*outputs)[i], *expected, tolerances[i]);
      EXPECT_TRUE(c.match) << "set " << set << " output " << i << ": " << c.message;
    }
  }
  EXPECT_GT(sets, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Quantization, OnnxNodeTest,
    ::testing::Values("test_qlinearconv", "test_qlinearmatmul_2D", "test_qlinearmatmul_3D",
                      "test_basic_convinteger", "test_convinteger_with_padding",
                      "test_convinteger_without_padding", "test_matmulinteger",
                      "test_quantizelinear", "test_quantizelinear_axis", "test_dequantizelinear",
                      "test_dequantizelinear_axis", "test_dynamicquantizelinear",
                      "test_dynamicquantizelinear_expanded",
                      "test_dynamicquantizelinear_max_adjusted",
                      "test_dynamicquantizelinear_max_adjusted_expanded",
                      "test_dynamicquantizelinear_min_adjusted",
                      "test_dynamicquantizelinear_min_adjusted_expanded"));

INSTANTIATE_TEST_SUITE_P(
    FloatConv, OnnxNodeTest,
    ::testing::Values("test_basic_conv_with_padding", "test_basic_conv_without_padding",
                      "test_conv_with_autopad_same", "test_conv_with_strides_and_asymmetric_padding",
                      "test_conv_with_strides_no_padding", "test_conv_with_strides_padding"));

}  // namespace
}  // namespace qnnc::tools
