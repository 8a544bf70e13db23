// Imports a selection of the ONNX backend node tests (Debian libonnx-testdata)
// and checks the graph's input and output types against their .pb files.
#include <string>

#include "frontend/onnx/import.h"
#include "frontend/onnx/tensor_convert.h"
#include "gtest/gtest.h"

namespace qnnc::frontend::onnx {
namespace {

class BackendModelTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BackendModelTest, ImportsWithMatchingTypes) {
  const std::string dir = std::string(std::getenv("TEST_SRCDIR")) + "/onnx_node_testdata/" + GetParam();
  auto g = ImportOnnxFile(dir + "/model.onnx");
  ASSERT_TRUE(g.ok()) << g.status();
  const ir::Graph& graph = **g;
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    auto t = ReadTensorProtoFile(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb");
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(graph.inputs()[i]->type()->dtype, t->dtype()) << "input " << i;
    EXPECT_EQ(graph.inputs()[i]->type()->shape, t->shape()) << "input " << i;
  }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    auto t = ReadTensorProtoFile(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb");
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(graph.outputs()[i]->type()->dtype, t->dtype()) << "output " << i;
    EXPECT_EQ(graph.outputs()[i]->type()->shape, t->shape()) << "output " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Node, BackendModelTest,
    ::testing::Values("test_qlinearconv", "test_qlinearmatmul_2D", "test_qlinearmatmul_3D",
                      "test_convinteger_with_padding", "test_basic_convinteger",
                      "test_matmulinteger", "test_dynamicquantizelinear", "test_quantizelinear",
                      "test_quantizelinear_axis", "test_dequantizelinear",
                      "test_dequantizelinear_axis", "test_conv_with_autopad_same",
                      "test_gemm_all_attributes", "test_gemm_default_vector_bias",
                      "test_matmul_2d", "test_add_bcast", "test_clip_default_inbounds",
                      "test_maxpool_2d_same_upper", "test_averagepool_2d_pads_count_include_pad",
                      "test_flatten_axis1", "test_transpose_default", "test_concat_2d_axis_0",
                      "test_shape", "test_reduce_max_default_axes_keepdim_example"));

}  // namespace
}  // namespace qnnc::frontend::onnx
