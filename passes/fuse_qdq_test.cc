#include "passes/fuse_qdq.h"

#include <map>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "ir/builder.h"
#include "ir/structural_equal.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Builder;
using ir::Value;
using tensor::DType;
using tensor::Tensor;

Attrs A(std::initializer_list<std::pair<const char*, ir::AttrValue>> list) {
  Attrs a;
  for (const auto& [k, v] : list) a.Set(k, v);
  return a;
}

Attrs ConvAttrs() {
  return A({{"strides", std::vector<int64_t>{1, 1}},
            {"padding", std::vector<int64_t>{0, 0, 0, 0}},
            {"dilation", std::vector<int64_t>{1, 1}},
            {"groups", int64_t{1}}});
}

std::map<std::string, int> Counts(const ir::Graph& g) {
  std::map<std::string, int> c;
  for (const ir::Node* n : g.nodes()) ++c[n->op()];
  return c;
}

const ir::Node* Find(const ir::Graph& g, const std::string& op) {
  for (const ir::Node* n : g.nodes()) {
    if (n->op() == op) return n;
  }
  return nullptr;
}

// The parameters shared by the conv tests.
struct ConvParams {
  float sx = 0.05f, sw = 0.02f, sy = 0.1f;
  uint8_t zx = 128, zy = 10;
  Tensor w = Tensor::FromVector<int8_t>({3, 2, 1, 1}, {1, -2, 3, -4, 5, -6});
  Tensor b = Tensor::FromVector<int32_t>({3}, {100, -200, 300});
};

// Q(act(bias_add(conv(DQ(Q(x)), DQ(w)), DQ(b)))) with activation `act`
// ("relu", "clip" or "") and bias scale `sb`.
std::unique_ptr<ir::Graph> QdqConv(const ConvParams& p, const std::string& act, float sb,
                                   Tensor sw_tensor = Tensor()) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 2, 4, 4}});
  Value* sx = b.Scalar<float>(p.sx);
  Value* zx = b.Scalar<uint8_t>(p.zx);
  Value* q = b.Op("qnn.quantize", {x, sx, zx}, A({{"out_dtype", std::string("u8")}}));
  Value* dq = b.Op("qnn.dequantize", {q, sx, zx});
  Value* sw = sw_tensor.defined() ? b.Constant(sw_tensor) : b.Scalar<float>(p.sw);
  Value* dw = b.Op("qnn.dequantize", {b.Constant(p.w), sw, b.Scalar<int8_t>(0)}, A({{"axis", int64_t{0}}}));
  Value* db = b.Op("qnn.dequantize", {b.Constant(p.b), b.Scalar<float>(sb), b.Scalar<int32_t>(0)},
                   A({{"axis", int64_t{0}}}));
  Value* y = b.Op("nn.conv2d", {dq, dw}, ConvAttrs());
  y = b.Op("nn.bias_add", {y, db}, A({{"axis", int64_t{1}}}));
  if (act == "relu") y = b.Op("relu", {y});
  if (act == "clip") y = b.Op("clip", {y}, A({{"min", 0.0}, {"max", 6.0}}));
  b.Output(b.Op("qnn.quantize", {y, b.Scalar<float>(p.sy), b.Scalar<uint8_t>(p.zy)},
                A({{"out_dtype", std::string("u8")}})));
  auto g = b.Finish();
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

TEST(QdqFusionTest, ConvBiasReluBecomesIntegerConvRequantize) {
  ConvParams p;
  auto g = QdqConv(p, "relu", p.sx * p.sw);
  ASSERT_TRUE(FuseQdq(*g).ok());

  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 2, 4, 4}});
  Value* sx = b.Scalar<float>(p.sx);
  Value* zx = b.Scalar<uint8_t>(p.zx);
  Value* q = b.Op("qnn.quantize", {x, sx, zx}, A({{"out_dtype", std::string("u8")}}));
  Value* acc = b.Op("qnn.conv2d", {q, b.Constant(p.w), zx, b.Scalar<int8_t>(0), sx,
                                   b.Scalar<float>(p.sw)},
                    ConvAttrs());
  acc = b.Op("nn.bias_add", {acc, b.Constant(p.b)}, A({{"axis", int64_t{1}}}));
  b.Output(b.Op("qnn.requantize",
                {acc, b.Scalar<float>(p.sx * p.sw), b.Scalar<int32_t>(0), b.Scalar<float>(p.sy),
                 b.Scalar<uint8_t>(p.zy)},
                A({{"axis", int64_t{1}}, {"out_dtype", std::string("u8")},
                   {"clamp_min", int64_t{p.zy}}})));
  auto expected = b.Finish();
  ASSERT_TRUE(expected.ok()) << expected.status();
  EXPECT_EQ(ir::StructuralDiff(*g, **expected), "");
}

TEST(QdqFusionTest, ClipBecomesQuantizedClamps) {
  ConvParams p;
  auto g = QdqConv(p, "clip", p.sx * p.sw);
  ASSERT_TRUE(FuseQdq(*g).ok());
  const ir::Node* req = Find(*g, "qnn.requantize");
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(*req->attrs().GetInt("clamp_min"), 10);       // 0 / 0.1 + 10
  EXPECT_EQ(*req->attrs().GetInt("clamp_max"), 70);       // 6 / 0.1 + 10
  EXPECT_EQ(Counts(*g)["clip"], 0);
}

TEST(QdqFusionTest, MismatchedBiasScaleIsRequantized) {
  ConvParams p;
  auto g = QdqConv(p, "", 2 * p.sx * p.sw);
  ASSERT_TRUE(FuseQdq(*g).ok());
  const ir::Node* bias = Find(*g, "nn.bias_add");
  ASSERT_NE(bias, nullptr);
  const Tensor& b = bias->input(1)->data();
  EXPECT_EQ(b.data<int32_t>()[0], 200);
  EXPECT_EQ(b.data<int32_t>()[1], -400);
  EXPECT_FALSE(Find(*g, "qnn.requantize")->attrs().Has("clamp_min"));
}

TEST(QdqFusionTest, PerChannelWeightScales) {
  ConvParams p;
  Tensor sw = Tensor::FromVector<float>({3}, {0.01f, 0.02f, 0.03f});
  auto g = QdqConv(p, "relu", p.sx * 0.01f, sw);  // bias scale per-tensor: re-quantized
  ASSERT_TRUE(FuseQdq(*g).ok());
  const ir::Node* req = Find(*g, "qnn.requantize");
  ASSERT_NE(req, nullptr);
  const Tensor& in_scale = req->input(1)->data();
  ASSERT_EQ(in_scale.num_elements(), 3);
  EXPECT_EQ(in_scale.data<float>()[1], p.sx * 0.02f);
  const Tensor& b = Find(*g, "nn.bias_add")->input(1)->data();
  EXPECT_EQ(b.data<int32_t>()[0], 100);
  EXPECT_EQ(b.data<int32_t>()[1], -100);  // -200 * 0.01 / 0.02
  EXPECT_EQ(b.data<int32_t>()[2], 100);   // 300 * 0.01 / 0.03
}

// Q(op(DQ(a), DQ(b))) around an element-wise or data-movement op.
struct Pattern {
  Builder b;
  Value* a;
  Value* dqa;
  Value* dqb;
  Pattern() {
    a = b.Input("a", {DType::kU8, {1, 2, 4, 4}});
    Value* c = b.Input("c", {DType::kU8, {1, 2, 4, 4}});
    dqa = b.Op("qnn.dequantize", {a, b.Scalar<float>(0.5f), b.Scalar<uint8_t>(3)});
    dqb = b.Op("qnn.dequantize", {c, b.Scalar<float>(0.25f), b.Scalar<uint8_t>(7)});
  }
  std::unique_ptr<ir::Graph> Quantized(Value* y, float scale, uint8_t zp) {
    b.Output(b.Op("qnn.quantize", {y, b.Scalar<float>(scale), b.Scalar<uint8_t>(zp)},
                  A({{"out_dtype", std::string("u8")}})));
    auto g = b.Finish();
    EXPECT_TRUE(g.ok()) << g.status();
    EXPECT_TRUE(FuseQdq(**g).ok());
    return *std::move(g);
  }
};

TEST(QdqFusionTest, AddAndRelu) {
  Pattern p1;
  auto g = p1.Quantized(p1.b.Op("add", {p1.dqa, p1.dqb}), 0.3f, 9);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"qnn.add", 1}}));
  Pattern p2;  // relu with zero point 0 (the u8 minimum): a no-op after qnn.add
  g = p2.Quantized(p2.b.Op("relu", {p2.b.Op("add", {p2.dqa, p2.dqb})}), 0.3f, 0);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"qnn.add", 1}}));
  Pattern p3;  // relu with zero point 9 would need a clamp: stays float
  g = p3.Quantized(p3.b.Op("relu", {p3.b.Op("add", {p3.dqa, p3.dqb})}), 0.3f, 9);
  EXPECT_EQ(Counts(*g)["qnn.add"], 0);
  EXPECT_EQ(Counts(*g)["add"], 1);
}

TEST(QdqFusionTest, Multiply) {
  Pattern p;
  auto g = p.Quantized(p.b.Op("multiply", {p.dqa, p.dqb}), 0.05f, 11);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"qnn.mul", 1}}));
  EXPECT_EQ(g->outputs()[0]->type()->ToString(), "u8[1,2,4,4]");
}

TEST(QdqFusionTest, Concat) {
  Pattern p;
  auto g = p.Quantized(p.b.Op("concat", {p.dqa, p.dqb}, A({{"axis", int64_t{1}}})), 0.5f, 3);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"qnn.concat", 1}}));
  EXPECT_EQ(g->outputs()[0]->type()->ToString(), "u8[1,4,4,4]");
}

TEST(QdqFusionTest, DataMovementNeedsEqualQuantization) {
  Attrs pool = A({{"pool_size", std::vector<int64_t>{2, 2}},
                  {"strides", std::vector<int64_t>{2, 2}}});
  Pattern same;
  auto g = same.Quantized(same.b.Op("nn.max_pool2d", {same.dqa}, pool), 0.5f, 3);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"nn.max_pool2d", 1}}));
  EXPECT_EQ(g->outputs()[0]->type()->ToString(), "u8[1,2,2,2]");
  Pattern reshape;
  g = reshape.Quantized(
      reshape.b.Op("reshape", {reshape.dqa}, A({{"newshape", std::vector<int64_t>{2, 16}}})), 0.5f,
      3);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"reshape", 1}}));
  Pattern slice;
  g = slice.Quantized(slice.b.Op("strided_slice", {slice.dqa},
                                 A({{"begin", std::vector<int64_t>{0, 1, 0, 0}},
                                    {"end", std::vector<int64_t>{1, 2, 4, 4}},
                                    {"strides", std::vector<int64_t>{1, 1, 2, 1}}})),
                      0.5f, 3);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"strided_slice", 1}}));
  EXPECT_EQ(g->outputs()[0]->type()->ToString(), "u8[1,1,2,4]");
  Pattern pad;  // a float pad of 0 pads with the zero point
  g = pad.Quantized(pad.b.Op("nn.pad", {pad.dqa},
                             A({{"pad_width", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1}},
                                {"pad_value", 0.0}})),
                    0.5f, 3);
  EXPECT_EQ(Counts(*g), (std::map<std::string, int>{{"nn.pad", 1}}));
  EXPECT_EQ(*g->nodes()[0]->attrs().GetFloat("pad_value"), 3.0);
  Pattern pad1;  // another value: stays float
  g = pad1.Quantized(pad1.b.Op("nn.pad", {pad1.dqa},
                               A({{"pad_width", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1}},
                                  {"pad_value", 1.0}})),
                     0.5f, 3);
  EXPECT_EQ(Counts(*g)["qnn.dequantize"], 1);
  Pattern other;  // another output scale: stays float
  g = other.Quantized(other.b.Op("nn.max_pool2d", {other.dqa}, pool), 0.4f, 3);
  EXPECT_EQ(Counts(*g)["qnn.dequantize"], 1);
  Pattern avg;  // average pooling stays float
  g = avg.Quantized(avg.b.Op("nn.avg_pool2d", {avg.dqa}, pool), 0.5f, 3);
  EXPECT_EQ(Counts(*g),
            (std::map<std::string, int>{{"nn.avg_pool2d", 1}, {"qnn.dequantize", 1}, {"qnn.quantize", 1}}));
}

TEST(QdqFusionTest, DenseWithBias) {
  Builder b;
  Value* x = b.Input("x", {DType::kI8, {2, 4}});
  Value* dx = b.Op("qnn.dequantize", {x, b.Scalar<float>(0.5f), b.Scalar<int8_t>(1)});
  Value* w = b.Constant(Tensor::FromVector<int8_t>({3, 4}, std::vector<int8_t>(12, 2)));
  Value* dw = b.Op("qnn.dequantize", {w, b.Scalar<float>(0.25f), b.Scalar<int8_t>(0)});
  Value* bias = b.Constant(Tensor::FromVector<int32_t>({3}, {1, 2, 3}));
  Value* db = b.Op("qnn.dequantize", {bias, b.Scalar<float>(0.125f), b.Scalar<int32_t>(0)});
  Value* y = b.Op("nn.bias_add", {b.Op("nn.dense", {dx, dw}), db}, A({{"axis", int64_t{1}}}));
  b.Output(b.Op("qnn.quantize", {y, b.Scalar<float>(1.0f), b.Scalar<int8_t>(0)},
                A({{"out_dtype", std::string("i8")}})));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_TRUE(FuseQdq(**g).ok());
  EXPECT_EQ(Counts(**g), (std::map<std::string, int>{
                             {"nn.bias_add", 1}, {"qnn.dense", 1}, {"qnn.requantize", 1}}));
  EXPECT_EQ(g.value()->outputs()[0]->type()->ToString(), "i8[2,3]");
}

TEST(QdqFusionTest, FloatWeightsAreLeftAlone) {
  Builder b;
  Value* x = b.Input("x", {DType::kU8, {1, 2, 4, 4}});
  Value* dx = b.Op("qnn.dequantize", {x, b.Scalar<float>(0.5f), b.Scalar<uint8_t>(1)});
  Value* w = b.Constant(Tensor::Zeros(DType::kF32, {3, 2, 1, 1}));
  Value* y = b.Op("nn.conv2d", {dx, w}, ConvAttrs());
  b.Output(b.Op("qnn.quantize", {y, b.Scalar<float>(1.0f), b.Scalar<uint8_t>(0)},
                A({{"out_dtype", std::string("u8")}})));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(FuseQdq(**g).ok());
  EXPECT_EQ(Counts(**g)["nn.conv2d"], 1);
}

}  // namespace
}  // namespace qnnc::passes
