#include "ir/graph.h"

#include "gtest/gtest.h"
#include "ir/builder.h"

namespace qnnc::ir {
namespace {

TEST(Graph, NamesAreUnique) {
  Graph g;
  Value* a = g.AddInput("x", {DType::kF32, {2}});
  Value* b = g.AddConstant("x", tensor::Tensor::Scalar<float>(1.0f));
  EXPECT_EQ(a->name(), "x");
  EXPECT_EQ(b->name(), "x_1");
  EXPECT_EQ(g.FindValue("x_1"), b);
  Node* n = g.AddNode("add", {a, b});
  EXPECT_EQ(n->output()->producer(), n);
  EXPECT_FALSE(n->output()->name().empty());
}

TEST(Graph, ReplaceUsesAndDeadCode) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {2}});
  Value* unused_c = g.AddConstant("c", tensor::Tensor::Scalar<float>(2.0f));
  Node* relu = g.AddNode("relu", {x});
  Node* sig = g.AddNode("sigmoid", {relu->output()});
  g.AddNode("multiply", {x, unused_c});  // dead
  g.SetOutputs({sig->output()});
  EXPECT_EQ(g.CountUses(relu->output()), 1);
  g.ReplaceAllUsesWith(relu->output(), x);
  EXPECT_EQ(g.RemoveDeadCode(), 2);
  EXPECT_EQ(g.num_nodes(), 1u);
  EXPECT_TRUE(g.constants().empty());
  EXPECT_EQ(g.FindValue("c"), nullptr);
  EXPECT_TRUE(g.Verify().ok());
}

TEST(Graph, TopologicalSortFixesInsertOrderAndFindsCycles) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {2}});
  Node* second = g.AddNode("relu", {x});
  g.SetOutputs({second->output()});
  // Insert a producer after its consumer, then redirect the consumer to it.
  Node* first = g.AddNode("sigmoid", {x});
  second->set_input(0, first->output());
  EXPECT_FALSE(g.Verify().ok());
  ASSERT_TRUE(g.TopologicalSort().ok());
  EXPECT_EQ(g.nodes()[0], first);

  first->set_input(0, second->output());  // now a cycle
  absl::Status s = g.TopologicalSort();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cycle"), std::string::npos);
}

TEST(Graph, InsertNodeBefore) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {2}});
  Node* relu = g.AddNode("relu", {x});
  Node* before = g.InsertNodeBefore(relu, "sigmoid", {x});
  EXPECT_EQ(g.nodes()[0], before);
  EXPECT_EQ(g.nodes()[1], relu);
}

TEST(Graph, CloneIsDeep) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {2}});
  b.Output(b.Op("relu", {x}, {}, "my_relu"));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok());
  auto copy = (*g)->Clone();
  ASSERT_EQ(copy->num_nodes(), 1u);
  EXPECT_NE(copy->nodes()[0], (*g)->nodes()[0]);
  EXPECT_EQ(copy->nodes()[0]->name(), "my_relu");
  EXPECT_EQ(copy->outputs()[0]->type()->ToString(), "f32[2]");
}

TEST(Attrs, TypedGetters) {
  Attrs a;
  a.Set("i", int64_t{3});
  a.Set("s", std::string("NCHW"));
  a.Set("l", std::vector<int64_t>{1, 2});
  EXPECT_EQ(*a.GetInt("i"), 3);
  EXPECT_EQ(*a.GetFloat("i"), 3.0);
  EXPECT_EQ(*a.GetString("s"), "NCHW");
  EXPECT_EQ(*a.GetInt("missing", 7), 7);
  EXPECT_FALSE(a.GetInt("s").ok());
  EXPECT_FALSE(a.GetInt("s", 1).ok());
  EXPECT_FALSE(a.GetString("missing").ok());
  EXPECT_EQ(a.GetFloats("l")->size(), 2u);
}

}  // namespace
}  // namespace qnnc::ir
