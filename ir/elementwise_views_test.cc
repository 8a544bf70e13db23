#include "ir/elementwise_views.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::ir {
namespace {

using tensor::DType;

Node* Add(Graph& g, const std::string& op, Attrs attrs = {}, size_t inputs = 1) {
  Value* x = g.AddInput("x" + std::to_string(g.nodes().size()), {DType::kF32, {1, 4, 2, 2}});
  return g.AddNode(op, std::vector<Value*>(inputs, x), std::move(attrs));
}

void ExpectError(const absl::Status& status, const std::string& text) {
  ASSERT_FALSE(status.ok()) << text;
  EXPECT_NE(status.message().find(text), std::string::npos) << status;
}

TEST(ClipView, UnboundedByDefault) {
  Graph g;
  auto v = ClipView::Of(*Add(g, "clip"));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->min, -INFINITY);
  EXPECT_EQ(v->max, INFINITY);

  Attrs a;
  a.Set("min", int64_t{0});  // an int reads as a float
  a.Set("max", 6.0);
  auto given = ClipView::Of(*Add(g, "clip", a));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->min, 0.0);
  EXPECT_EQ(given->max, 6.0);

  a.Set("min", 7.0);
  ExpectError(ClipView::Of(*Add(g, "clip", a)).status(), "min 7 > max 6");
  a.Set("min", NAN);
  EXPECT_TRUE(ClipView::Of(*Add(g, "clip", a)).ok()) << "a NaN bound is not refused here";
  a.Set("max", std::string("6"));
  ExpectError(ClipView::Of(*Add(g, "clip", a)).status(), "attribute 'max' must be a float");
}

TEST(ActivationView, DefaultsPerOp) {
  Graph g;
  auto leaky = ActivationView::Of(*Add(g, "leaky_relu"));
  ASSERT_TRUE(leaky.ok()) << leaky.status();
  EXPECT_EQ(leaky->alpha, 0.01);
  auto hard = ActivationView::Of(*Add(g, "hard_sigmoid"));
  ASSERT_TRUE(hard.ok()) << hard.status();
  EXPECT_EQ(hard->alpha, 0.2);
  EXPECT_EQ(hard->beta, 0.5);

  Attrs a;
  a.Set("alpha", 0.1);
  a.Set("beta", 0.25);
  auto given = ActivationView::Of(*Add(g, "hard_sigmoid", a));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->alpha, 0.1);
  EXPECT_EQ(given->beta, 0.25);
  EXPECT_TRUE(ActivationView::Of(*Add(g, "tanh", {})).ok()) << "no parameters to read";

  a.Set("beta", std::string("half"));
  ExpectError(ActivationView::Of(*Add(g, "hard_sigmoid", a)).status(), "attribute 'beta' must be a float");
  EXPECT_TRUE(ActivationView::Of(*Add(g, "leaky_relu", a)).ok()) << "leaky_relu reads no beta";
}

TEST(ReduceView, AllAxesKeptByDefault) {
  Graph g;
  auto v = ReduceView::Of(*Add(g, "reduce_mean"));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->axes.empty());
  EXPECT_TRUE(v->keepdims);

  Attrs a;
  a.Set("axes", std::vector<int64_t>{-2, -1});
  a.Set("keepdims", int64_t{0});
  auto given = ReduceView::Of(*Add(g, "reduce_sum", a));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->axes, (std::vector<int64_t>{-2, -1}));
  EXPECT_FALSE(given->keepdims);

  a.Set("keepdims", 1.0);
  ExpectError(ReduceView::Of(*Add(g, "reduce_sum", a)).status(), "attribute 'keepdims' must be an int");
}

TEST(FixedPointMultiplyView, UpwardOnAxisOneByDefault) {
  Graph g;
  auto v = FixedPointMultiplyView::Of(*Add(g, "fixed_point_multiply", {}, 3));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->axis, 1);
  EXPECT_EQ(v->rounding, tensor::Rounding::kUpward);

  Attrs a;
  a.Set("axis", int64_t{-1});
  a.Set("rounding", std::string("TONEAREST"));
  auto given = FixedPointMultiplyView::Of(*Add(g, "fixed_point_multiply", a, 3));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->axis, -1);
  EXPECT_EQ(given->rounding, tensor::Rounding::kToNearest);

  a.Set("rounding", std::string("DOWNWARD"));
  ExpectError(FixedPointMultiplyView::Of(*Add(g, "fixed_point_multiply", a, 3)).status(), "DOWNWARD");
}

}  // namespace
}  // namespace qnnc::ir
