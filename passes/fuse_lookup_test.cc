// FuseLookup's tables against the chains they replace: every byte value run
// through the original ops and through qnn.lookup gives the same bits.
#include "passes/fuse_lookup.h"

#include <map>
#include <string>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "eval/node_evaluator.h"

namespace qnnc::passes {
namespace {

using tensor::Tensor;

// Runs the graph's nodes in order on the reference kernels.
std::vector<Tensor> Evaluate(const ir::Graph& g, const std::vector<Tensor>& inputs) {
  std::map<const ir::Value*, Tensor> values;
  for (size_t i = 0; i < inputs.size(); ++i) values[g.inputs()[i]] = inputs[i];
  for (const ir::Node* n : g.nodes()) {
    std::vector<Tensor> args;
    for (const ir::Value* v : n->inputs()) args.push_back(v->is_constant() ? v->data() : values.at(v));
    auto out = eval::EvaluateNode(*n, args);
    EXPECT_TRUE(out.ok()) << out.status();
    for (size_t i = 0; out.ok() && i < out->size(); ++i) values[n->output(i)] = (*out)[i];
  }
  std::vector<Tensor> outputs;
  for (const ir::Value* v : g.outputs()) outputs.push_back(v->is_constant() ? v->data() : values.at(v));
  return outputs;
}

struct Case {
  std::string name, text;
};

class FuseLookupTest : public ::testing::TestWithParam<Case> {};

TEST_P(FuseLookupTest, TableGivesTheChainsBits) {
  auto original = ir::ParseGraph(GetParam().text, GetParam().name);
  ASSERT_TRUE(original.ok()) << original.status();
  std::unique_ptr<ir::Graph> fused = (*original)->Clone();
  auto n = FuseLookup(*fused);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_GE(*n, 1);
  // One table is left (a chain may fold in steps: a requantize, then the
  // multiply of its result by itself).
  ASSERT_EQ(fused->num_nodes(), 1u);
  EXPECT_EQ(fused->nodes()[0]->op(), "qnn.lookup");
  // Every byte value, in the input's shape (256 elements).
  const ir::TensorType& in = *(*original)->inputs()[0]->type();
  Tensor x = Tensor::Zeros(in.dtype, in.shape);
  ASSERT_EQ(x.num_elements(), 256);
  for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(x.raw_data())[b] = static_cast<uint8_t>(b);
  const Tensor want = Evaluate(**original, {x})[0];
  const Tensor got = Evaluate(*fused, {x})[0];
  EXPECT_TRUE(got.BitwiseEquals(want));
}

INSTANTIATE_TEST_SUITE_P(
    Chains, FuseLookupTest,
    ::testing::Values(
        Case{"hard_swish", R"(graph @g(%x: u8[1,4,8,8]) {
  %s = const f32[] 0.0625
  %z = const u8[] 128
  %d = qnn.dequantize(%x, %s, %z) {axis = 1}
  %h = hard_sigmoid(%d) {alpha = 0.16666666666666666, beta = 0.5}
  %m = multiply(%d, %h)
  %os = const f32[] 0.03125
  %oz = const u8[] 16
  %y = qnn.quantize(%m, %os, %oz) {axis = 1, out_dtype = "u8"}
  return %y
})"},
        // torch's opset-13 HardSwish as ORT's quantizer leaves it: its own
        // quantize and dequantize between HardSigmoid and the multiply.
        Case{"hard_swish_requantized", R"(graph @g(%x: u8[256]) {
  %s = const f32[] 0.0625
  %z = const u8[] 128
  %hs = const f32[] 0.00390625
  %hz = const u8[] 0
  %d = qnn.dequantize(%x, %s, %z) {axis = 0}
  %h = hard_sigmoid(%d) {alpha = 0.16666666666666666, beta = 0.5}
  %hq = qnn.quantize(%h, %hs, %hz) {axis = 0, out_dtype = "u8"}
  %hd = qnn.dequantize(%hq, %hs, %hz) {axis = 0}
  %m = multiply(%d, %hd)
  %os = const f32[] 0.03125
  %oz = const u8[] 16
  %y = qnn.quantize(%m, %os, %oz) {axis = 0, out_dtype = "u8"}
  return %y
})"},
        // An 8-bit requantize alone, and a qnn.mul of a tensor with itself.
        Case{"requantize_and_square", R"(graph @g(%x: i8[4,64]) {
  %s = const f32[] 0.1
  %z = const i8[] 5
  %os = const f32[] 0.07
  %oz = const i8[] -20
  %r = qnn.requantize(%x, %s, %z, %os, %oz) {axis = 1, out_dtype = "i8"}
  %m = qnn.mul(%r, %r, %os, %oz, %os, %oz, %s, %z) {out_dtype = "u8"}
  return %m
})"},
        Case{"sigmoid_tanh_leaky_i8", R"(graph @g(%x: i8[16,16]) {
  %s = const f32[] 0.05
  %z = const i8[] -3
  %d = qnn.dequantize(%x, %s, %z) {axis = 1}
  %l = leaky_relu(%d) {alpha = 0.1}
  %t = tanh(%l)
  %g = sigmoid(%t)
  %w = hard_swish(%g)
  %os = const f32[] 0.0037
  %oz = const i8[] -128
  %y = qnn.quantize(%w, %os, %oz) {axis = 1, out_dtype = "i8"}
  return %y
})"}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace qnnc::passes
