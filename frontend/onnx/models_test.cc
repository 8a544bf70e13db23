// Imports the real QDQ models and checks what the fusion made of them.
#include <map>
#include <string>

#include "frontend/onnx/import.h"
#include "gtest/gtest.h"

namespace qnnc::frontend::onnx {
namespace {

std::map<std::string, int> OpCounts(const ir::Graph& g) {
  std::map<std::string, int> counts;
  for (const ir::Node* n : g.nodes()) ++counts[n->op()];
  return counts;
}

std::string Summary(const std::map<std::string, int>& counts) {
  std::string s;
  for (const auto& [op, n] : counts) s += op + "=" + std::to_string(n) + " ";
  return s;
}

TEST(ModelsTest, MobileNetV2) {
  auto g = ImportOnnxFile("testdata/models/mobilenet_v2_qdq.onnx");
  ASSERT_TRUE(g.ok()) << g.status();
  auto counts = OpCounts(**g);
  SCOPED_TRACE(Summary(counts));
  EXPECT_EQ(counts["qnn.conv2d"], 52);
  EXPECT_EQ(counts["qnn.add"], 10);
  EXPECT_EQ(counts["qnn.dense"], 1);
  EXPECT_EQ(counts["qnn.requantize"], 53);
  EXPECT_EQ(counts["nn.bias_add"], 53);
  EXPECT_EQ(counts["flatten"], 1);
  // The head's dequantize, pool and quantize are one 8-bit pool.
  EXPECT_EQ(counts["qnn.global_avg_pool2d"], 1);
  EXPECT_EQ(counts["nn.global_avg_pool2d"], 0);
  // Float ops remain only at the ends.
  EXPECT_EQ(counts["qnn.quantize"], 1);
  EXPECT_EQ(counts["qnn.dequantize"], 1);
  EXPECT_EQ(counts["nn.conv2d"], 0);
  EXPECT_EQ(counts["relu"], 0);
  EXPECT_EQ(counts["add"], 0);
  EXPECT_EQ(g.value()->num_nodes(), 52 + 10 + 1 + 53 + 53 + 1 + 1 + 1 + 1);
  ASSERT_EQ(g.value()->outputs().size(), 1u);
  EXPECT_EQ(g.value()->outputs()[0]->type()->ToString(), "f32[1,1000]");
}

TEST(ModelsTest, ResNet18) {
  auto g = ImportOnnxFile("testdata/models/resnet18_qdq.onnx");
  ASSERT_TRUE(g.ok()) << g.status();
  auto counts = OpCounts(**g);
  SCOPED_TRACE(Summary(counts));
  EXPECT_EQ(counts["qnn.conv2d"], 20);
  EXPECT_EQ(counts["qnn.add"], 8);
  EXPECT_EQ(counts["qnn.dense"], 1);
  EXPECT_EQ(counts["nn.max_pool2d"], 1);
  EXPECT_EQ(counts["nn.conv2d"], 0);
  EXPECT_EQ(counts["qnn.global_avg_pool2d"], 1);
  EXPECT_EQ(counts["qnn.quantize"], 1);
  EXPECT_EQ(counts["qnn.dequantize"], 1);
}

}  // namespace
}  // namespace qnnc::frontend::onnx
