// The ONNX backend node tests (Debian's libonnx-testdata) through the
// frontend, the default pipeline and the executor: every quantization test
// and the float conv tests. Integer outputs must match exactly.
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/import.h"
#include "frontend/onnx/tensor_convert.h"
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

// The node tests give operands a model would hold as constants (Slice's
// starts, Pad's pads, BatchNormalization's statistics) as graph inputs: a
// test named here freezes every input after the first to set 0's values.
bool FreezesParameters(const std::string& test) {
  for (const char* prefix : {"test_batchnorm", "test_constant_pad", "test_edge_pad",
                             "test_reflect_pad", "test_expand", "test_reduce_sum", "test_slice",
                             "test_split_variable"}) {
    if (test.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

class OnnxNodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxNodeTest, MatchesExpectedOutputs) {
  std::string dir = NodeTestDir(GetParam());
  frontend::onnx::ImportOptions options;
  int frozen = 0;
  if (FreezesParameters(GetParam())) {
    for (int i = 1; fs::exists(absl::StrCat(dir, "/test_data_set_0/input_", i, ".pb")); ++i) {
      std::ifstream file(absl::StrCat(dir, "/test_data_set_0/input_", i, ".pb"), std::ios::binary);
      ::onnx::TensorProto proto;
      ASSERT_TRUE(proto.ParseFromIstream(&file)) << "input " << i;
      auto t = frontend::onnx::TensorFromProto(proto);
      ASSERT_TRUE(t.ok()) << t.status();
      options.constant_inputs[proto.name()] = *t;
      frozen = i;
    }
  }
  auto graph = frontend::onnx::ImportOnnxFile(dir + "/model.onnx", options);
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
      // Frozen inputs are constants now; set 0's values were frozen.
      if (frozen > 0 && set > 0) GTEST_SKIP() << "only set 0 with frozen inputs";
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

// The ops of real exports. HardSigmoid's and Upsample's node
// tests are opset 6 and 9, below the importer's range: see
// frontend/onnx:op_converters_test.
INSTANTIATE_TEST_SUITE_P(
    Coverage, OnnxNodeTest,
    ::testing::Values(
                      "test_batchnorm_epsilon",
                      "test_batchnorm_example",
                      "test_constant_pad",
                      "test_edge_pad",
                      "test_reflect_pad",
                      "test_dropout_default",
                      "test_dropout_default_mask",
                      "test_dropout_default_mask_ratio",
                      "test_dropout_default_old",
                      "test_dropout_default_ratio",
                      "test_dropout_random_old",
                      "test_expand_dim_changed",
                      "test_expand_dim_unchanged",
                      "test_gather_0",
                      "test_gather_1",
                      "test_gather_2d_indices",
                      "test_gather_negative_indices",
                      "test_hardswish",
                      "test_identity",
                      "test_leakyrelu",
                      "test_leakyrelu_default",
                      "test_leakyrelu_example",
                      "test_reduce_mean_default_axes_keepdims_example",
                      "test_reduce_mean_default_axes_keepdims_random",
                      "test_reduce_mean_do_not_keepdims_example",
                      "test_reduce_mean_do_not_keepdims_random",
                      "test_reduce_mean_keepdims_example",
                      "test_reduce_mean_keepdims_random",
                      "test_reduce_mean_negative_axes_keepdims_example",
                      "test_reduce_mean_negative_axes_keepdims_random",
                      "test_reduce_sum_default_axes_keepdims_example",
                      "test_reduce_sum_do_not_keepdims_random",
                      "test_reduce_sum_empty_axes_input_noop_example",
                      "test_reduce_sum_keepdims_random",
                      "test_reduce_sum_negative_axes_keepdims_example",
                      "test_slice",
                      "test_slice_default_axes",
                      "test_slice_default_steps",
                      "test_slice_end_out_of_bounds",
                      "test_slice_neg",
                      "test_slice_neg_steps",
                      "test_slice_negative_axes",
                      "test_slice_start_out_of_bounds",
                      "test_softmax_axis_0",
                      "test_softmax_axis_1",
                      "test_softmax_axis_2",
                      "test_softmax_default_axis",
                      "test_softmax_example",
                      "test_softmax_large_number",
                      "test_softmax_negative_axis",
                      "test_split_equal_parts_1d",
                      "test_split_equal_parts_2d",
                      "test_split_equal_parts_default_axis",
                      "test_split_variable_parts_1d",
                      "test_split_variable_parts_2d",
                      "test_split_variable_parts_default_axis",
                      "test_tanh",
                      "test_tanh_example"));

// Training mode needs running statistics or randomness: refused, naming it.
class RefusedNodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RefusedNodeTest, SaysTrainingIsUnsupported) {
  auto graph = frontend::onnx::ImportOnnxFile(NodeTestDir(GetParam()) + "/model.onnx");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find("training"), std::string::npos) << graph.status();
}

INSTANTIATE_TEST_SUITE_P(Training, RefusedNodeTest,
                         ::testing::Values("test_batchnorm_example_training_mode",
                                           "test_training_dropout", "test_training_dropout_mask"));

}  // namespace
}  // namespace qnnc::tools
