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

// qnn.global_avg_pool2d evaluates as the three ops it fuses (dequantize,
// the f32 pool, quantize), in NCHW and blocked (20 channels: 4 real lanes in
// the second block), u8 in and i8 out.
TEST(NodeEvaluator, QnnGlobalPoolIsTheThreeOps) {
  Tensor x = *Tensor::Create(DType::kU8, {1, 20, 5, 7});
  for (int64_t i = 0; i < x.num_elements(); ++i) x.data<uint8_t>()[i] = static_cast<uint8_t>((i * 97) % 251);
  const Tensor xb = *kernels::spatial_pack::ToBlocked(x, 16);
  const Tensor s = Tensor::Scalar<float>(0.0371f), z = Tensor::Scalar<uint8_t>(131);
  const Tensor so = Tensor::Scalar<float>(0.0113f), zo = Tensor::Scalar<int8_t>(-7);
  ir::Builder chain;
  ir::Value* cx = chain.Input("x", {DType::kU8, x.shape()});
  ir::Value* f = chain.Op("qnn.dequantize", {cx, chain.Constant(s), chain.Constant(z)});
  ir::Value* pooled = chain.Op("nn.global_avg_pool2d", {f});
  ir::Attrs to_i8;
  to_i8.Set("out_dtype", std::string("i8"));
  chain.Output(chain.Op("qnn.quantize", {pooled, chain.Constant(so), chain.Constant(zo)}, to_i8));
  auto g = *chain.Finish();
  Tensor want = x;
  for (const ir::Node* n : g->nodes()) {
    std::vector<Tensor> in = {want};
    for (size_t i = 1; i < n->inputs().size(); ++i) in.push_back(n->input(i)->data());
    auto out = EvaluateNode(*n, in, nullptr);
    ASSERT_TRUE(out.ok()) << out.status();
    want = (*out)[0];
  }
  for (bool blocked : {false, true}) {
    SCOPED_TRACE(blocked ? "NCHW16c" : "NCHW");
    ir::Attrs attrs = to_i8;
    if (blocked) attrs.Set("layout", std::string("NCHW16c"));
    ir::Builder fused;
    ir::Value* in = fused.Input("x", {DType::kU8, blocked ? xb.shape() : x.shape()});
    fused.Output(fused.Op("qnn.global_avg_pool2d",
                          {in, fused.Constant(s), fused.Constant(z), fused.Constant(so), fused.Constant(zo)},
                          attrs));
    auto gf = *fused.Finish();
    auto got = EvaluateNode(*gf->nodes()[0], {blocked ? xb : x, s, z, so, zo}, nullptr);
    ASSERT_TRUE(got.ok()) << got.status();
    Tensor result = (*got)[0];
    if (blocked) result = *kernels::spatial_pack::FromBlocked(result, 20);
    EXPECT_EQ(result.dtype(), DType::kI8);
    EXPECT_TRUE(result.BitwiseEquals(want));
  }
}

}  // namespace
}  // namespace qnnc::eval
