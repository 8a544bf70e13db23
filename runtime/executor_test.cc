#include "runtime/executor.h"

#include "gtest/gtest.h"
#include "ir/builder.h"

namespace qnnc::runtime {
namespace {

using ir::Attrs;
using ir::Builder;
using ir::Value;
using tensor::DType;
using tensor::Tensor;

// quantize -> qnn.conv2d (1x1, one channel, weight 2) -> requantize -> dequantize
std::unique_ptr<ir::Graph> QuantizedScale() {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 1, 1, 4}});
  Value* s = b.Scalar<float>(0.5f);
  Value* zp = b.Scalar<uint8_t>(10);
  Attrs q;
  q.Set("out_dtype", std::string("u8"));
  Value* xq = b.Op("qnn.quantize", {x, s, zp}, q);
  Value* w = b.Constant(Tensor::FromVector<int8_t>({1, 1, 1, 1}, {2}));
  Value* acc = b.Op("qnn.conv2d", {xq, w, zp, b.Scalar<int8_t>(0), s, b.Scalar<float>(1.0f)}, {},
                    "conv");
  Attrs rq;
  rq.Set("out_dtype", std::string("u8"));
  Value* y = b.Op("qnn.requantize", {acc, s, b.Scalar<int32_t>(0), s, zp}, rq);
  b.Output(b.Op("qnn.dequantize", {y, s, zp}));
  return *b.Finish();
}

TEST(Executor, RunsAQuantizedChain) {
  auto exec = Executor::Create(QuantizedScale(), {1});
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto out = (*exec)->Run({Tensor::FromVector<float>({1, 1, 1, 4}, {0.0f, 1.0f, -2.0f, 100.0f})});
  ASSERT_TRUE(out.ok()) << out.status();
  // y = 2x, saturated at (255 - 10) * 0.5 = 122.5 on the high side.
  EXPECT_EQ((*out)[0].span<float>()[0], 0.0f);
  EXPECT_EQ((*out)[0].span<float>()[1], 2.0f);
  EXPECT_EQ((*out)[0].span<float>()[2], -4.0f);
  EXPECT_EQ((*out)[0].span<float>()[3], 122.5f);
  const auto& timings = (*exec)->last_timings();
  ASSERT_EQ(timings.size(), 4u);
  EXPECT_EQ(timings[1].op, "qnn.conv2d");
  EXPECT_EQ(timings[1].node_name, "conv");
}

TEST(Executor, ThreadsGiveTheSameResult) {
  Tensor x = Tensor::FromVector<float>({1, 1, 1, 4}, {0.5f, 1.5f, -2.5f, 3.0f});
  auto one = *Executor::Create(QuantizedScale(), {1});
  auto two = *Executor::Create(QuantizedScale(), {2});
  auto a = one->Run({x});
  auto b = two->Run({x});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE((*a)[0].BitwiseEquals((*b)[0]));
}

TEST(Executor, RejectsWrongInputs) {
  auto exec = *Executor::Create(QuantizedScale());
  EXPECT_FALSE(exec->Run({}).ok());
  auto r = exec->Run({Tensor::Zeros(DType::kF32, {1, 1, 1, 5})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("input 'x' must be f32[1,1,1,4]"), std::string::npos)
      << r.status();
  EXPECT_FALSE(exec->Run({Tensor::Zeros(DType::kU8, {1, 1, 1, 4})}).ok());
}

TEST(Executor, KernelErrorsNameTheNode) {
  Builder b;
  Value* x = b.Input("x", {DType::kI32, {2}});
  b.Output(b.Op("divide", {x, b.Vector<int32_t>({1, 0})}, {}, "div_by_zero"));
  auto exec = *Executor::Create(*b.Finish());
  auto r = exec->Run({Tensor::FromVector<int32_t>({2}, {4, 4})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("div_by_zero"), std::string::npos) << r.status();
}

TEST(Executor, RefusesAGraphOverTheMemoryLimitBeforeAllocating) {
  ExecutorOptions options;
  options.max_bytes = 16;  // the f32[1,1,1,4] input alone takes 16 bytes
  auto exec = Executor::Create(QuantizedScale(), options);
  ASSERT_FALSE(exec.ok());
  EXPECT_EQ(exec.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(exec.status().message().find("over the memory limit"), std::string::npos) << exec.status();
  options.max_bytes = 1 << 20;
  EXPECT_TRUE(Executor::Create(QuantizedScale(), options).ok());
}

}  // namespace
}  // namespace qnnc::runtime
