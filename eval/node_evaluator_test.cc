#include "eval/node_evaluator.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/builder.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "tensor/tensor.h"

namespace qnnc::eval {
namespace {

using tensor::DType;
using tensor::Tensor;

// A pool of NCHW16c data (as AlterOpLayout leaves it where a kernel refuses)
// gives the NCHW pool's values, blocked: 20 channels, so the second block
// holds 4 real lanes.
TEST(NodeEvaluator, BlockedPoolsGiveTheNchwPoolsValues) {
  Tensor x = *Tensor::Create(DType::kF32, {1, 20, 6, 7});
  for (int64_t i = 0; i < x.num_elements(); ++i) x.data<float>()[i] = float((i * 37) % 29) - 11.5f;
  const Tensor xb = *kernels::spatial_pack::ToBlocked(x, 16);
  for (const std::string op : {"nn.max_pool2d", "nn.avg_pool2d"}) {
    SCOPED_TRACE(op);
    ir::Attrs attrs;
    attrs.Set("pool_size", std::vector<int64_t>{3, 3});
    attrs.Set("strides", std::vector<int64_t>{2, 2});
    attrs.Set("padding", std::vector<int64_t>{1, 1, 1, 1});
    ir::Builder plain;
    ir::Value* pin = plain.Input("x", {DType::kF32, x.shape()});
    plain.Output(plain.Op(op, {pin}, attrs));
    auto g = *plain.Finish();
    attrs.Set("layout", std::string("NCHW16c"));
    ir::Builder blocked;
    ir::Value* bin = blocked.Input("x", {DType::kF32, xb.shape()});
    blocked.Output(blocked.Op(op, {bin}, attrs));
    auto gb = *blocked.Finish();
    auto want = EvaluateNode(*g->nodes()[0], {x}, nullptr);
    auto got = EvaluateNode(*gb->nodes()[0], {xb}, nullptr);
    ASSERT_TRUE(want.ok()) << want.status();
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ((*got)[0].rank(), 5);
    auto back = kernels::spatial_pack::FromBlocked((*got)[0], 20);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(back->BitwiseEquals((*want)[0]));
  }
}

}  // namespace
}  // namespace qnnc::eval
