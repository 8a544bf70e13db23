#include "ir/op_views.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ir/conv_epilogue.h"

namespace qnnc::ir {
namespace {

using tensor::DType;
using tensor::Tensor;

Node* AddConv(Graph& g, Attrs attrs) {
  Value* x = g.AddInput("x", {DType::kU8, {1, 4, 8, 8}});
  Value* w = g.AddConstant("w", Tensor::Zeros(DType::kI8, {4, 4, 3, 3}));
  return g.AddNode("qnn.conv2d",
                   {x, w, g.AddConstant("", Tensor::Scalar<int32_t>(0)),
                    g.AddConstant("", Tensor::Scalar<int32_t>(0)),
                    g.AddConstant("", Tensor::Scalar<float>(1)),
                    g.AddConstant("", Tensor::Scalar<float>(1))},
                   std::move(attrs));
}

TEST(Conv2DView, DefaultsAndGivenValues) {
  Graph g;
  auto v = Conv2DView::Of(*AddConv(g, {}));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->strides, (std::array<int64_t, 2>{1, 1}));
  EXPECT_TRUE(v->unpadded());
  EXPECT_EQ(v->groups, 1);
  EXPECT_EQ(v->data_layout, Layout::Nchw());
  EXPECT_EQ(v->kernel_layout, Layout::Oihw());
  EXPECT_EQ(v->out_layout, Layout::Nchw());

  Attrs a;
  a.Set("strides", std::vector<int64_t>{2, 1});
  a.Set("padding", std::vector<int64_t>{1, 2, 3, 4});
  a.Set("dilation", std::vector<int64_t>{1, 2});
  a.Set("groups", int64_t{4});
  a.Set("data_layout", std::string("NCHW16c"));
  auto w = Conv2DView::Of(a);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->strides, (std::array<int64_t, 2>{2, 1}));
  EXPECT_EQ(w->padding_vector(), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_FALSE(w->unpadded());
  EXPECT_EQ(w->dilation, (std::array<int64_t, 2>{1, 2}));
  EXPECT_EQ(w->groups, 4);
  EXPECT_EQ(w->out_layout, Layout::ChannelBlocked(16)) << "the out layout defaults to the data layout";
}

TEST(Conv2DView, RefusesBadValuesNamingTheAttribute) {
  struct Case {
    const char* name;
    AttrValue value;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"strides", std::vector<int64_t>{1}, "strides needs 2 values"},
           {"strides", std::vector<int64_t>{0, 1}, "strides must be at least 1"},
           {"padding", std::vector<int64_t>{0, 0, -1, 0}, "padding must be at least 0"},
           {"dilation", std::vector<int64_t>{1, 1, 1}, "dilation needs 2 values"},
           {"groups", int64_t{0}, "groups must be at least 1"},
           {"data_layout", int64_t{3}, "data_layout"},
       }) {
    Attrs a;
    a.Set(c.name, c.value);
    auto v = Conv2DView::Of(a);
    ASSERT_FALSE(v.ok()) << c.name;
    EXPECT_NE(v.status().message().find(c.message), std::string::npos) << v.status();
  }
}

TEST(Pool2DView, ParsesAndValidates) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kU8, {1, 4, 8, 8}});
  Attrs a;
  a.Set("pool_size", std::vector<int64_t>{3, 3});
  a.Set("strides", std::vector<int64_t>{2, 2});
  a.Set("ceil_mode", int64_t{1});
  a.Set("layout", std::string("NCHW16c"));
  auto v = Pool2DView::Of(*g.AddNode("nn.max_pool2d", {x}, a));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->has_pool_size);
  EXPECT_EQ(v->pool_size, (std::array<int64_t, 2>{3, 3}));
  EXPECT_TRUE(v->ceil_mode);
  EXPECT_FALSE(v->count_include_pad);
  EXPECT_EQ(v->layout, Layout::ChannelBlocked(16));
  EXPECT_FALSE(Pool2DView::Of(*g.AddNode("nn.max_pool2d", {x}))->has_pool_size);
  a.Set("pool_size", std::vector<int64_t>{0, 3});
  EXPECT_FALSE(Pool2DView::Of(*g.AddNode("nn.max_pool2d", {x}, a)).ok());
}

TEST(RequantizeView, ClampIsTheDtypeRangeNarrowedByTheAttributes) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kI32, {1, 4, 2, 2}});
  Attrs a;
  a.Set("out_dtype", std::string("u8"));
  a.Set("clamp_min", int64_t{-5});
  a.Set("clamp_max", int64_t{100});
  a.Set("axis", int64_t{-3});
  auto v = RequantizeView::Of(*g.AddNode("qnn.requantize", {x, x, x, x, x}, a));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->out_dtype, DType::kU8);
  EXPECT_EQ(v->clamp_min, 0);
  EXPECT_EQ(v->clamp_max, 100);
  EXPECT_EQ(*v->AxisFor(4), 1);
  EXPECT_FALSE(v->AxisFor(2).ok());
  EXPECT_TRUE(v->nearest_even());
  a.Set("rounding", std::string("DOWNWARD"));
  EXPECT_FALSE(RequantizeView::Of(*g.AddNode("qnn.requantize", {x, x, x, x, x}, a)).ok());
  a.Set("rounding", std::string("UPWARD"));
  a.Set("out_dtype", std::string("f32"));
  EXPECT_FALSE(RequantizeView::Of(*g.AddNode("qnn.requantize", {x, x, x, x, x}, a)).ok());
}

TEST(FusedConvView, DefaultsPerOp) {
  Graph g;
  auto plain = FusedConvView::Of(*AddConv(g, {}));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->out_dtype, DType::kI32) << "qnn.conv2d gives its accumulator";
  EXPECT_FALSE(plain->pad_value.has_value());
  EXPECT_FALSE(plain->clamp_min.has_value());
  EXPECT_FALSE(plain->clamp_max.has_value());
  EXPECT_FALSE(plain->clip);
  EXPECT_EQ(plain->clip_min, -INFINITY);
  EXPECT_EQ(plain->clip_max, INFINITY);

  Value* x = g.AddInput("x8", {DType::kU8, {1, 4, 8, 8}});
  std::vector<Value*> ten(10, x);
  auto fused = FusedConvView::Of(*g.AddNode("qnn.conv2d_requantize", ten));
  ASSERT_TRUE(fused.ok()) << fused.status();
  EXPECT_EQ(fused->out_dtype, DType::kU8) << "qnn.conv2d_requantize requantizes to u8";
  EXPECT_FALSE(FusedConvView::Of(*g.AddNode("nn.max_pool2d", {x})).ok());
}

TEST(FusedConvView, GivenValues) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kU8, {1, 4, 8, 8}});
  Attrs a;
  a.Set("out_dtype", std::string("i8"));
  a.Set("pad_value", int64_t{-3});  // an int reads as a float
  a.Set("clamp_min", int64_t{-100});
  a.Set("clamp_max", int64_t{300});
  auto v = FusedConvView::Of(*g.AddNode("qnn.conv2d_requantize", std::vector<Value*>(10, x), a));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->out_dtype, DType::kI8);
  EXPECT_EQ(v->pad_value, -3.0);
  EXPECT_EQ(v->clamp_min, -100) << "as given, not narrowed to the dtype";
  EXPECT_EQ(v->clamp_max, 300);

  Attrs d;
  d.Set("clip_max", 6.0);
  auto dynamic = FusedConvView::Of(*g.AddNode("qnn.conv2d_dynamic", std::vector<Value*>(5, x), d, 2));
  ASSERT_TRUE(dynamic.ok()) << dynamic.status();
  EXPECT_TRUE(dynamic->clip) << "either bound clips";
  EXPECT_EQ(dynamic->clip_min, -INFINITY);
  EXPECT_EQ(dynamic->clip_max, 6.0);
}

TEST(FusedConvView, RefusesBadValuesNamingTheAttribute) {
  struct Case {
    const char* name;
    AttrValue value;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"out_dtype", std::string("int8"), "unknown dtype 'int8'"},
           {"pad_value", std::string("zero"), "attribute 'pad_value' must be a float"},
           {"clamp_min", 1.5, "attribute 'clamp_min' must be an int"},
           {"clamp_max", std::string("x"), "attribute 'clamp_max' must be an int"},
           {"clip_min", std::string("x"), "attribute 'clip_min' must be a float"},
       }) {
    Graph g;
    Value* x = g.AddInput("x", {DType::kU8, {1, 4, 8, 8}});
    Attrs a;
    a.Set(c.name, c.value);
    auto v = FusedConvView::Of(*g.AddNode("qnn.conv2d_requantize", std::vector<Value*>(10, x), a));
    ASSERT_FALSE(v.ok()) << c.name;
    EXPECT_NE(v.status().message().find(c.message), std::string::npos) << v.status();
  }
}

TEST(AxisView, EachOpsDefault) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {1, 4, 2, 2}});
  for (const auto& [op, axis] : std::vector<std::pair<std::string, int64_t>>{
           {"softmax", -1},
           {"concat", 0},
           {"take", 0},
           {"flatten", 1},
           {"nn.bias_add", 1},
           {"qnn.quantize", 1},
           {"qnn.dequantize", 1},
           {"qnn.requantize", 1},
           {"qnn.concat", 1},
           {"fixed_point_multiply", 1},
       }) {
    auto v = AxisView::Of(*g.AddNode(op, {x}));
    ASSERT_TRUE(v.ok()) << op << ": " << v.status();
    EXPECT_EQ(v->axis, axis) << op;
  }
  auto none = AxisView::Of(*g.AddNode("relu", {x}));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("op 'relu' has no axis attribute"), std::string::npos) << none.status();
}

TEST(AxisView, GivenValueNormalizedAgainstTheRank) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {1, 4, 2, 2}});
  Attrs a;
  a.Set("axis", int64_t{-3});
  auto v = AxisView::Of(*g.AddNode("concat", {x}, a));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->axis, -3) << "as given";
  EXPECT_EQ(*v->AxisFor(4), 1);
  auto out = v->AxisFor(2);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("axis -3 is out of range for rank 2"), std::string::npos) << out.status();
  a.Set("axis", std::string("1"));
  auto bad = AxisView::Of(*g.AddNode("concat", {x}, a));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("attribute 'axis' must be an int"), std::string::npos) << bad.status();
}

// conv -> bias_add -> bias_add -> requantize, with the requantize's
// parameters as given.
struct Chain {
  Graph g;
  Node* conv;
  Node* requantize;
  Chain(Value* (*in_zp)(Graph&), const std::string& rounding = "TONEAREST_EVEN") {
    conv = AddConv(g, {});
    Value* v = conv->output();
    for (int i = 0; i < 2; ++i) {
      v = g.AddNode("nn.bias_add", {v, g.AddConstant("", Tensor::Zeros(DType::kI32, {4}))})->output();
    }
    Attrs a;
    a.Set("rounding", rounding);
    requantize = g.AddNode("qnn.requantize",
                           {v, g.AddConstant("", Tensor::Scalar<float>(0.5f)), in_zp(g),
                            g.AddConstant("", Tensor::Scalar<float>(1)),
                            g.AddConstant("", Tensor::Scalar<int32_t>(3))},
                           a);
    g.SetOutputs({requantize->output()});
  }
};

Value* ZeroPoint0(Graph& g) { return g.AddConstant("", Tensor::Scalar<int32_t>(0)); }
Value* ZeroPoint7(Graph& g) { return g.AddConstant("", Tensor::Scalar<int32_t>(7)); }

TEST(ConvEpilogue, MatchesFromEitherEnd) {
  Chain c(&ZeroPoint0);
  auto back = MatchConvEpilogue(c.g, *c.requantize);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->conv, c.conv);
  ASSERT_EQ(back->bias_adds.size(), 2u);
  EXPECT_EQ(back->bias_adds[0]->input(0), c.conv->output()) << "ordered from the conv";
  EXPECT_TRUE(back->fusable()) << back->not_fusable;
  auto forward = MatchConvEpilogueFrom(c.g, *c.conv);
  ASSERT_TRUE(forward.has_value());
  EXPECT_EQ(forward->requantize, c.requantize);
  EXPECT_EQ(forward->bias_adds, back->bias_adds);
}

TEST(ConvEpilogue, SaysWhyItCannotBeFused) {
  Chain zp(&ZeroPoint7);
  auto e = MatchConvEpilogue(zp.g, *zp.requantize);
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->not_fusable.find("input zero point"), std::string::npos) << e->not_fusable;
  Chain upward(&ZeroPoint0, "UPWARD");
  e = MatchConvEpilogue(upward.g, *upward.requantize);
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->not_fusable.find("rounding UPWARD"), std::string::npos) << e->not_fusable;
}

TEST(ConvEpilogue, NeedsEveryValueOnTheChainUsedOnce) {
  Chain c(&ZeroPoint0);
  // The accumulator is also a graph output: the chain cannot be fused away.
  c.g.SetOutputs({c.requantize->output(), c.conv->output()});
  EXPECT_FALSE(MatchConvEpilogue(c.g, *c.requantize).has_value());
  EXPECT_FALSE(MatchConvEpilogueFrom(c.g, *c.conv).has_value());
  EXPECT_EQ(SoleUser(c.g, c.conv->output()), nullptr);
}

}  // namespace
}  // namespace qnnc::ir
