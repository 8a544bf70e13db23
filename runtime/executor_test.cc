#include "runtime/executor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "gtest/gtest.h"
#include "ir/builder.h"
#include "kernels/cpu/isa.h"
#include "eval/node_evaluator.h"

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

// A borrowed input (memory the caller owns, not padded) is read in place
// when its readers read within it, as the quantize kernel does; any other
// reader gets a padded copy. The data vectors are exactly sized, so that
// AddressSanitizer (the sanitize build) sees a read past them.
TEST(Executor, UsesABorrowedInputInPlaceOnlyForReadersWithinIt) {
  auto exec = *Executor::Create(QuantizedScale(), {1});
  EXPECT_TRUE(exec->input_in_place(0));
  std::vector<float> data = {0.0f, 1.0f, -2.0f, 100.0f};
  auto x = Tensor::Borrow(data.data(), DType::kF32, {1, 1, 1, 4});
  ASSERT_TRUE(x.ok()) << x.status();
  auto out = exec->Run({*x});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].span<float>()[3], 122.5f);

  Builder b;  // the input read by a reference kernel: copied
  Value* u = b.Input("u", {DType::kU8, {1, 1, 1, 4}});
  Value* w = b.Constant(Tensor::FromVector<int8_t>({1, 1, 1, 1}, {3}));
  b.Output(b.Op("qnn.conv2d", {u, w, b.Scalar<uint8_t>(1), b.Scalar<int8_t>(0),
                               b.Scalar<float>(1.0f), b.Scalar<float>(1.0f)}));
  auto conv = *Executor::Create(*b.Finish(), {1});
  EXPECT_FALSE(conv->input_in_place(0));
  std::vector<uint8_t> bytes = {1, 2, 3, 4};
  auto y = conv->Run({*Tensor::Borrow(bytes.data(), DType::kU8, {1, 1, 1, 4})});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ((*y)[0].span<int32_t>()[3], 9);
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

// A chain of four f32[1,256] ops and a flatten of the last: the arena holds
// two of them at a time (each op reads one and writes the next), the flatten
// shares its input's bytes, and the outputs the caller holds survive the
// next run.
std::unique_ptr<ir::Graph> Chain() {
  Builder b;
  Value* v = b.Input("x", {DType::kF32, {1, 256}});
  for (int i = 0; i < 4; ++i) v = b.Op(i % 2 ? "round" : "relu", {v});
  Attrs a;
  a.Set("newshape", std::vector<int64_t>{256});
  Value* flat = b.Op("reshape", {v}, a);
  b.Output(b.Op("relu", {flat}));
  b.Output(flat);
  return *b.Finish();
}

TEST(Executor, PlansActivationsInOneArena) {
  auto exec = *Executor::Create(Chain(), {1});
  ASSERT_TRUE(exec->CheckMemory().ok()) << exec->CheckMemory();
  const MemoryStats& m = exec->memory();
  // Four planned buffers of 1024 + 64 bytes (the relu/round results before
  // the reshape; the reshape is an output, outside), two live at once.
  EXPECT_EQ(m.sum_bytes, 4 * 1088);
  EXPECT_EQ(m.peak_bytes, 2 * 1088);
  EXPECT_EQ(m.arena_bytes, 2 * 1088);
  EXPECT_EQ(m.io_bytes, 3 * 1024);
  std::vector<float> xs(256);
  for (int i = 0; i < 256; ++i) xs[i] = static_cast<float>(i) - 100.25f;
  auto first = exec->Run({Tensor::FromVector<float>({1, 256}, xs)});
  ASSERT_TRUE(first.ok()) << first.status();
  // relu, round, relu, round: round(relu(x)) (no ties); the flatten and its
  // relu are outputs.
  for (int i = 0; i < 256; ++i) {
    const float want = std::round(std::max(xs[i], 0.0f));
    ASSERT_EQ((*first)[1].data<float>()[i], want) << i;
    ASSERT_EQ((*first)[0].data<float>()[i], want) << i;
  }
  const std::vector<Tensor> kept = {(*first)[0].Clone(), (*first)[1].Clone()};
  auto second = exec->Run({Tensor::FromVector<float>({1, 256}, std::vector<float>(256, 7.0f))});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ((*second)[1].data<float>()[3], 7.0f);
  // The first run's outputs do not view the arena the second run rewrote.
  EXPECT_TRUE((*first)[0].BitwiseEquals(kept[0]));
  EXPECT_TRUE((*first)[1].BitwiseEquals(kept[1]));
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

namespace qnnc::runtime {
namespace {

// qnn.add of two u8 inputs of `b_shape` and [2, 3] with constant per-tensor
// parameters.
std::unique_ptr<ir::Graph> QuantizedAdd(const tensor::Shape& b_shape) {
  ir::Builder b;
  ir::Value* x = b.Input("x", {tensor::DType::kU8, {2, 3}});
  ir::Value* y = b.Input("y", {tensor::DType::kU8, b_shape});
  b.Output(b.Op("qnn.add",
                {x, y, b.Scalar<float>(0.5f), b.Scalar<uint8_t>(3), b.Scalar<float>(0.25f),
                 b.Scalar<uint8_t>(200), b.Scalar<float>(0.75f), b.Scalar<uint8_t>(20)},
                {}, "add"));
  return *b.Finish();
}

// Same-shape adds are bound to the fast kernel at load; broadcasting ones run
// on the reference kernel; both give the reference's values.
TEST(Executor, BindsSameShapeAddsToTheElementwiseKernel) {
  tensor::Tensor x = tensor::Tensor::FromVector<uint8_t>({2, 3}, {0, 3, 9, 100, 254, 255});
  tensor::Tensor y = tensor::Tensor::FromVector<uint8_t>({2, 3}, {0, 200, 203, 7, 255, 250});
  auto same = *Executor::Create(QuantizedAdd({2, 3}), {1});
  auto out = same->Run({x, y});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(same->last_timings()[0].kernel, "elementwise qnn_add");
  // (0.5 (x - 3) + 0.25 (y - 200)) / 0.75 + 20, rounded, saturated:
  // x=0,y=0: -68.67 -> -49 -> 0; x=3,y=200: 20; x=9,y=203: 25; x=100,y=7:
  // 20 + (48.5 - 48.25) / 0.75 = 20.33 -> 20; x=254,y=255: 20 + 185.67 ->
  // 206; x=255,y=250: 20 + 184.67 -> 205.
  const std::vector<uint8_t> want = {0, 20, 25, 20, 206, 205};
  for (int i = 0; i < 6; ++i) EXPECT_EQ((*out)[0].data<uint8_t>()[i], want[i]) << i;

  auto broadcast = *Executor::Create(QuantizedAdd({3}), {1});
  auto out2 = broadcast->Run({x, tensor::Tensor::FromVector<uint8_t>({3}, {0, 200, 203})});
  ASSERT_TRUE(out2.ok()) << out2.status();
  EXPECT_EQ(broadcast->last_timings()[0].kernel, "reference");
  for (int i = 0; i < 3; ++i) EXPECT_EQ((*out2)[0].data<uint8_t>()[i], want[i]) << i;
}

// i32 -> u8 requantize: to the elementwise kernel in the default rounding,
// to the reference kernel in another; both give the same values.
std::unique_ptr<ir::Graph> Requantize(const char* rounding) {
  Builder b;
  Value* x = b.Input("x", {DType::kI32, {1, 6}});
  Attrs a;
  a.Set("out_dtype", std::string("u8"));
  a.Set("clamp_max", int64_t{200});
  if (rounding) a.Set("rounding", std::string(rounding));
  b.Output(b.Op("qnn.requantize",
                {x, b.Scalar<float>(0.5f), b.Scalar<int32_t>(0), b.Scalar<float>(2.0f),
                 b.Scalar<int32_t>(10)},
                a));
  return *b.Finish();
}

TEST(Executor, BindsF32GlobalAveragePoolToThePoolKernel) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 2, 2, 2}});
  b.Output(b.Op("nn.global_avg_pool2d", {x}));
  auto exec = *Executor::Create(*b.Finish(), {1});
  auto out = exec->Run({Tensor::FromVector<float>({1, 2, 2, 2}, {1, 2, 3, 4, -1, 0.5f, 0, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(exec->last_timings()[0].kernel, "pool global average f32");
  ASSERT_EQ((*out)[0].shape(), (tensor::Shape{1, 2, 1, 1}));
  EXPECT_EQ((*out)[0].data<float>()[0], 2.5f);
  EXPECT_EQ((*out)[0].data<float>()[1], -0.125f);
}

// Which ops run on the calling thread alone: a depthwise convolution by the
// bytes it writes (47 KB of a 7x7x240 map: shared, though its 106K
// multiply-adds are few), a dense one by its multiply-adds.
TEST(Executor, SerialWorkCountsDepthwiseByItsBytes) {
  auto conv = [](int64_t channels, int64_t in_per_group, int64_t k) {
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, channels, 7, 7}});
    ir::Attrs a;
    a.Set("strides", std::vector<int64_t>{1, 1});
    a.Set("padding", std::vector<int64_t>{k / 2, k / 2, k / 2, k / 2});
    a.Set("dilation", std::vector<int64_t>{1, 1});
    a.Set("groups", channels / in_per_group);
    Value* w = b.Constant(Tensor::Zeros(DType::kF32, {channels, in_per_group, k, k}));
    b.Output(b.Op("nn.conv2d", {x, w}, a));
    return *b.Finish();
  };
  EXPECT_FALSE(SerialWork(*conv(240, 1, 3)->nodes()[0]));  // depthwise, 47 KB
  EXPECT_TRUE(SerialWork(*conv(96, 1, 3)->nodes()[0]));    // depthwise, 19 KB
  EXPECT_TRUE(SerialWork(*conv(96, 96, 1)->nodes()[0]));   // 1x1, 452K multiply-adds
  EXPECT_FALSE(SerialWork(*conv(128, 128, 1)->nodes()[0]));  // 1x1, 803K
}

TEST(Executor, BindsPerTensorRequantizeToTheElementwiseKernel) {
  // x / 4 + 10, ties to even, in [0, 200]: -100 -> -15 -> 0; 2 (0.5) -> 10;
  // 6 (1.5) -> 12; 10 (2.5) -> 12; 400 -> 110; 1000 -> 260 -> 200.
  const Tensor x = Tensor::FromVector<int32_t>({1, 6}, {-100, 2, 6, 10, 400, 1000});
  const std::vector<uint8_t> want = {0, 10, 12, 12, 110, 200};
  for (const char* rounding : {static_cast<const char*>(nullptr), "TONEAREST_EVEN"}) {
    auto exec = *Executor::Create(Requantize(rounding), {1});
    auto out = exec->Run({x});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(exec->last_timings()[0].kernel, "elementwise requantize");
    for (int i = 0; i < 6; ++i) EXPECT_EQ((*out)[0].data<uint8_t>()[i], want[i]) << i;
  }
  // Another rounding (half up: 10 / 4 = 2.5 -> 13) stays on the reference.
  auto upward = *Executor::Create(Requantize("UPWARD"), {1});
  auto out = upward->Run({x});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(upward->last_timings()[0].kernel, "reference");
  EXPECT_EQ((*out)[0].data<uint8_t>()[3], 13);
}

}  // namespace
}  // namespace qnnc::runtime

namespace qnnc::runtime {
namespace {

// An integer nn.dense whose implementation has no kernel of its own (the
// u8s8 legalization's) runs on the generic int8 dense kernel, exactly.
// Under its implementation's current name, and under the old name a plan
// written before may carry (kernels/spatial_pack/variants.h).
TEST(Executor, BindsIntegerDenseToTheDenseKernel) {
  for (const char* impl : {"x86.spatial_pack.u8s8.avx512vnni", "x86.spatial_pack.u8s8.vnni"}) {
    SCOPED_TRACE(impl);
    ir::Builder b;
    ir::Value* x = b.Input("x", {tensor::DType::kU8, {1, 3}});
    ir::Value* w = b.Constant(tensor::Tensor::FromVector<int8_t>({2, 3}, {1, -2, 3, -128, 127, 0}));
    ir::Attrs a;
    a.Set("impl", std::string(impl));
    a.Set("out_dtype", std::string("i32"));
    b.Output(b.Op("nn.dense", {x, w}, a, "fc"));
    auto exec = Executor::Create(*b.Finish(), {1});
    ASSERT_TRUE(exec.ok()) << exec.status();
    auto out = (*exec)->Run({tensor::Tensor::FromVector<uint8_t>({1, 3}, {255, 10, 2})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*exec)->last_timings()[0].kernel, "dense int8");
    // 255 - 20 + 6 = 241; -128 * 255 + 1270 = -31370.
    EXPECT_EQ((*out)[0].data<int32_t>()[0], 241);
    EXPECT_EQ((*out)[0].data<int32_t>()[1], -31370);
  }
}

}  // namespace
}  // namespace qnnc::runtime

namespace qnnc::runtime {
namespace {

// A max pool in NCHW16c gives the NCHW pool's values, f32 and u8, both on
// the bound pool kernel (//kernels/pool:max_pool_test checks it against the
// reference).
TEST(Executor, BlockedMaxPoolMatchesNchw) {
  for (tensor::DType dt : {tensor::DType::kF32, tensor::DType::kU8}) {
    auto build = [&](bool blocked) {
      ir::Builder b;
      ir::Value* x = b.Input("x", {dt, {1, 3, 5, 5}});
      ir::Attrs pool;
      pool.Set("pool_size", std::vector<int64_t>{3, 3});
      pool.Set("strides", std::vector<int64_t>{2, 2});
      pool.Set("padding", std::vector<int64_t>{1, 1, 1, 1});
      if (!blocked) {
        b.Output(b.Op("nn.max_pool2d", {x}, pool));
        return *b.Finish();
      }
      ir::Attrs to, back;
      to.Set("src_layout", std::string("NCHW"));
      to.Set("dst_layout", std::string("NCHW16c"));
      back.Set("src_layout", std::string("NCHW16c"));
      back.Set("dst_layout", std::string("NCHW"));
      back.Set("channels", int64_t{3});
      pool.Set("layout", std::string("NCHW16c"));
      ir::Value* t = b.Op("layout_transform", {x}, to);
      b.Output(b.Op("layout_transform", {b.Op("nn.max_pool2d", {t}, pool)}, back));
      return *b.Finish();
    };
    tensor::Tensor x = *tensor::Tensor::Create(dt, {1, 3, 5, 5});
    auto* bytes = static_cast<uint8_t*>(x.raw_data());
    for (int64_t i = 0; i < x.num_elements() * int64_t(tensor::DTypeSize(dt)); ++i) {
      bytes[i] = static_cast<uint8_t>(i * 37 + 11);
    }
    if (dt == tensor::DType::kF32) {
      for (int64_t i = 0; i < x.num_elements(); ++i) x.data<float>()[i] = float((i * 37) % 23) - 9;
    }
    auto plain = *Executor::Create(build(false), {1});
    auto blocked = *Executor::Create(build(true), {1});
    auto want = plain->Run({x});
    auto got = blocked->Run({x});
    ASSERT_TRUE(want.ok() && got.ok()) << want.status() << got.status();
    EXPECT_TRUE((*got)[0].BitwiseEquals((*want)[0])) << tensor::DTypeName(dt);
    EXPECT_EQ(blocked->last_timings()[1].kernel, "pool max");
  }
}

// A fused convolution decided for the VNNI kernel (x: u8[1,16,2,2] NCHW).
std::unique_ptr<ir::Graph> VnniConv() {
  Builder b;
  Value* x = b.Input("x", {DType::kU8, {1, 16, 2, 2}});
  std::vector<int8_t> w(16 * 16);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i % 7) - 3);
  Attrs a;
  a.Set("impl", std::string("x86.spatial_pack.u8s8.avx512vnni"));
  a.Set("out_dtype", std::string("u8"));
  a.Set("pad_value", 0.0);
  Value* y = b.Op("qnn.conv2d_requantize",
                  {x, b.Constant(Tensor::FromVector<int8_t>({16, 16, 1, 1}, w)),
                   b.Constant(Tensor::Zeros(DType::kI32, {16})), b.Scalar<uint8_t>(0),
                   b.Scalar<int8_t>(0), b.Scalar<float>(1.0f), b.Scalar<float>(1.0f),
                   b.Scalar<float>(0.25f), b.Scalar<float>(1.0f), b.Scalar<uint8_t>(3)},
                  a, "conv");
  b.Output(y);
  return *b.Finish();
}

// Restores the instruction-set cap a test found.
class CappedExecutor : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = kernels::cpu::IsaCap(); }
  void TearDown() override { kernels::cpu::SetIsaCap(saved_); }
  std::optional<kernels::cpu::IsaLevel> saved_;
};

// Build anywhere, run where it fits: capped below VNNI, the kernel is only
// described; Create refuses the plan unless asked to allow it, and Run
// refuses to run it, each naming the op, the kernel and the instruction set.
TEST_F(CappedExecutor, KernelsTheHostCannotRunAreDescribedNotCreated) {
  kernels::cpu::SetIsaCap(kernels::cpu::IsaLevel::kAvx2);
  auto refused = Executor::Create(VnniConv());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("node 'conv'"), std::string::npos) << refused.status();
  EXPECT_NE(refused.status().message().find("needs the instruction set avx512vnni"),
            std::string::npos)
      << refused.status();
  ExecutorOptions options;
  options.allow_unrunnable = true;
  auto described = Executor::Create(VnniConv(), options);
  ASSERT_TRUE(described.ok()) << described.status();
  EXPECT_NE((*described)->unrunnable().find("avx512vnni"), std::string::npos);
  EXPECT_EQ((*described)->last_timings()[0].kernel,
            "spatial_pack u8s8.avx512vnni.dense tile_co=16 tile_ow=14");
  auto run = (*described)->Run({Tensor::Zeros(DType::kU8, {1, 16, 2, 2})});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("avx512vnni"), std::string::npos) << run.status();
}

// Where the host has VNNI, the same graph creates and runs its kernel.
TEST_F(CappedExecutor, TheSameGraphRunsWhereTheHostHasTheInstructionSet) {
  kernels::cpu::SetIsaCap(saved_);
  if (!kernels::cpu::Includes(kernels::cpu::HostIsaLevel(), kernels::cpu::IsaLevel::kAvx512vnni)) {
    GTEST_SKIP() << "needs avx512vnni, which this host may not use: "
                 << kernels::cpu::DescribeHostIsa();
  }
  auto exec = Executor::Create(VnniConv());
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_TRUE((*exec)->unrunnable().empty());
  Tensor x = Tensor::Zeros(DType::kU8, {1, 16, 2, 2});
  for (int64_t i = 0; i < x.num_elements(); ++i) x.data<uint8_t>()[i] = static_cast<uint8_t>(i * 5);
  auto run = (*exec)->Run({x});
  ASSERT_TRUE(run.ok()) << run.status();
  // Checked against the reference: the same graph without a decision.
  std::unique_ptr<ir::Graph> reference = VnniConv();
  reference->nodes()[0]->mutable_attrs().Erase("impl");
  auto ref = Executor::Create(std::move(reference));
  ASSERT_TRUE(ref.ok()) << ref.status();
  auto want = (*ref)->Run({x});
  ASSERT_TRUE(want.ok()) << want.status();
  EXPECT_EQ((*ref)->last_timings()[0].kernel, "reference");
  EXPECT_TRUE((*run)[0].BitwiseEquals((*want)[0]));
}

}  // namespace
}  // namespace qnnc::runtime

namespace qnnc::runtime {
namespace {

// A decision is a promise: an op whose decision names an implementation
// without a kernel for that op, or whose kernel cannot take it, is refused
// at plan load instead of running on another kernel.
TEST(Executor, RefusesADecisionItsKernelsCannotKeep) {
  {
    // An unfused integer convolution decided for the AVX2 u8 x s8 kernel,
    // which runs only the fused qnn.conv2d_requantize.
    Builder b;
    Value* x = b.Input("x", {DType::kU8, {1, 1, 1, 4}});
    Attrs a;
    a.Set("impl", std::string("x86.spatial_pack.u8s8.avx2"));
    a.Set("out_dtype", std::string("i32"));
    Value* w = b.Constant(Tensor::FromVector<int8_t>({1, 1, 1, 1}, {2}));
    b.Output(b.Op("nn.conv2d", {x, w}, a, "conv"));
    auto exec = Executor::Create(*b.Finish(), {1});
    ASSERT_FALSE(exec.ok());
    EXPECT_NE(exec.status().message().find(
                  "its decision is x86.spatial_pack.u8s8.avx2, but no kernel runs "
                  "x86.spatial_pack.u8s8.avx2 for nn.conv2d"),
              std::string::npos)
        << exec.status();
  }
  {
    // A dense decided for u8 x s8 whose weights are not the i8 constants the
    // int8 dense kernel takes.
    Builder b;
    Value* x = b.Input("x", {DType::kU8, {1, 4}});
    Value* w = b.Input("w", {DType::kI8, {2, 4}});
    Attrs a;
    a.Set("impl", std::string("x86.spatial_pack.u8s8.avx2"));
    a.Set("out_dtype", std::string("i32"));
    b.Output(b.Op("nn.dense", {x, w}, a, "fc"));
    auto exec = Executor::Create(*b.Finish(), {1});
    ASSERT_FALSE(exec.ok());
    EXPECT_NE(exec.status().message().find("its kernel cannot run this op"), std::string::npos)
        << exec.status();
  }
  {
    // The same dense decided for the reference runs (on any kernel that
    // matches the reference).
    Builder b;
    Value* x = b.Input("x", {DType::kU8, {1, 4}});
    Value* w = b.Input("w", {DType::kI8, {2, 4}});
    Attrs a;
    a.Set("impl", std::string("reference"));
    a.Set("out_dtype", std::string("i32"));
    b.Output(b.Op("nn.dense", {x, w}, a, "fc"));
    auto exec = Executor::Create(*b.Finish(), {1});
    EXPECT_TRUE(exec.ok()) << exec.status();
  }
}

}  // namespace
}  // namespace qnnc::runtime

namespace qnnc::runtime {
namespace {

// Random graphs of f32[1,64] values (relu, round, add of two earlier values,
// reshape, some results returned mid-graph): run through the planned arena,
// twice, they give what the reference kernels give one op at a time with
// nothing reused, and the plan never overlaps two live tensors.
// A float add whose operand dies there writes over it: one buffer fewer.
TEST(Executor, RunsAddsInPlaceOverADyingOperand) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 256}});
  Value* a = b.Op("relu", {x});
  Value* c = b.Op("round", {x});
  Value* sum = b.Op("add", {a, c});       // over a (its last use)
  Value* twice = b.Op("add", {sum, sum});  // over sum, read twice
  b.Output(b.Op("relu", {twice}));
  auto exec = *Executor::Create(*b.Finish(), {1});
  ASSERT_TRUE(exec->CheckMemory().ok()) << exec->CheckMemory();
  // relu, round live together; the sums reuse relu's buffer.
  EXPECT_EQ(exec->memory().sum_bytes, 2 * 1088);
  EXPECT_EQ(exec->memory().arena_bytes, 2 * 1088);
  std::vector<float> xs(256);
  for (int i = 0; i < 256; ++i) xs[i] = static_cast<float>(i) * 0.75f - 90.0f;
  auto out = exec->Run({Tensor::FromVector<float>({1, 256}, xs)});
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 256; ++i) {
    const float s = std::max(xs[i], 0.0f) + std::nearbyint(xs[i]);
    ASSERT_EQ((*out)[0].data<float>()[i], std::max(s + s, 0.0f)) << i;
  }
}

// Inputs of the concat tests: [n, 64] values from -20 by 0.75.
Tensor ConcatInput(int64_t n) {
  std::vector<float> xs(n * 64);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i) * 0.75f - 20.0f;
  return Tensor::FromVector<float>({n, 64}, xs);
}

Attrs Axis(int64_t axis) {
  Attrs a;
  a.Set("axis", axis);
  return a;
}

// Runs the graph in the arena and through the reference, one node at a
// time; returns the executor's count of in-place concats.
int64_t RunAgainstReference(std::unique_ptr<ir::Graph> graph, const Tensor& input) {
  std::map<const Value*, Tensor> env;
  env[graph->inputs()[0]] = input;
  for (const ir::Node* n : graph->nodes()) {
    std::vector<Tensor> args;
    for (const Value* v : n->inputs()) args.push_back(env.at(v));
    auto out = eval::EvaluateNode(*n, args, nullptr);
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return -1;
    env[n->output()] = (*out)[0].Clone();
  }
  std::vector<Tensor> want;
  for (const Value* v : graph->outputs()) want.push_back(env.at(v));
  auto exec = Executor::Create(graph->Clone(), {1});
  EXPECT_TRUE(exec.ok()) << exec.status();
  if (!exec.ok()) return -1;
  EXPECT_TRUE((*exec)->CheckMemory().ok()) << (*exec)->CheckMemory();
  for (int r = 0; r < 2; ++r) {
    auto out = (*exec)->Run({input});
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return -1;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_TRUE((*out)[i].BitwiseEquals(want[i])) << "run " << r << " output " << i;
    }
  }
  return (*exec)->memory().in_place_concats;
}

TEST(Executor, ConcatInPlaceWhenItsInputsAreSlicesOfItsResult) {
  {  // relu and round write their halves of the concat: no copy, and the
     // arena holds the concat's buffer only while they live.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* c = b.Op("concat", {b.Op("relu", {x}), b.Op("round", {x})}, Axis(1));
    b.Output(b.Op("relu", {c}));
    auto exec = *Executor::Create(*b.Finish(), {1});
    EXPECT_EQ(exec->memory().in_place_concats, 1);
    EXPECT_EQ(exec->memory().sum_bytes, 512 + 64);  // one f32[1,128] buffer
    auto out = exec->Run({ConcatInput(1)});
    ASSERT_TRUE(out.ok()) << out.status();
    const Tensor x0 = ConcatInput(1);
    for (int i = 0; i < 64; ++i) {
      const float v = x0.data<float>()[i];
      ASSERT_EQ((*out)[0].data<float>()[i], std::max(v, 0.0f)) << i;
      ASSERT_EQ((*out)[0].data<float>()[64 + i], std::max(std::nearbyint(v), 0.0f)) << i;
    }
  }
  {  // A concat of concats, the inner one along a negative axis.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* inner = b.Op("concat", {b.Op("round", {x}), b.Op("relu", {x})}, Axis(-1));
    Value* outer = b.Op("concat", {b.Op("sigmoid", {x}), inner}, Axis(1));
    b.Output(b.Op("round", {outer}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 2);
  }
  {  // One input read after the concat too (by a relu): still in place.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* a = b.Op("relu", {x});
    Value* c = b.Op("concat", {a, b.Op("round", {x})}, Axis(1));
    b.Output(b.Op("round", {c}));
    b.Output(b.Op("relu", {a}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 1);
  }
}

TEST(Executor, ConcatCopiesWhereSlicesCannotBeShared) {
  {  // A graph input is the caller's, outside the arena.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    b.Output(b.Op("round", {b.Op("concat", {x, b.Op("relu", {x})}, Axis(1))}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 0);
  }
  {  // N = 2: each input's rows interleave in the result.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {2, 64}});
    b.Output(b.Op("round", {b.Op("concat", {b.Op("relu", {x}), b.Op("round", {x})}, Axis(1))}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(2)), 0);
  }
  {  // The same value twice.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* a = b.Op("relu", {x});
    b.Output(b.Op("round", {b.Op("concat", {a, a}, Axis(1))}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 0);
  }
  {  // An add after the concat would run in place over an input (its last
     // reader), that is over a slice of the live result.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* a = b.Op("relu", {x});
    Value* c = b.Op("concat", {a, b.Op("round", {x})}, Axis(1));
    Value* d = b.Op("add", {a, x});
    b.Output(b.Op("round", {c}));
    b.Output(b.Op("round", {d}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 0);
  }
  {  // A value feeding two concats: a slice of the first, it stays there
     // (the second copies), and neither result overwrites the other's data.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* a = b.Op("relu", {x});
    Value* c1 = b.Op("concat", {a, b.Op("round", {x})}, Axis(1));
    Value* c2 = b.Op("concat", {a, b.Op("sigmoid", {x})}, Axis(1));
    b.Output(b.Op("round", {c1}));
    b.Output(b.Op("round", {c2}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 1);
  }
  {  // The same through a convolution-like chain (UNet++'s dense skips):
     // c2 reads c1's slice a and a value computed from c1.
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    Value* a = b.Op("relu", {x});
    Value* c1 = b.Op("concat", {a, b.Op("round", {x})}, Axis(1));
    Value* d = b.Op("sigmoid", {c1});
    Value* c2 = b.Op("concat", {a, d, b.Op("round", {a})}, Axis(1));
    b.Output(b.Op("round", {c2}));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 1);
  }
  {  // The result is a graph output (the caller's).
    Builder b;
    Value* x = b.Input("x", {DType::kF32, {1, 64}});
    b.Output(b.Op("concat", {b.Op("relu", {x}), b.Op("round", {x})}, Axis(1)));
    EXPECT_EQ(RunAgainstReference(*b.Finish(), ConcatInput(1)), 0);
  }
}

TEST(Executor, RandomGraphsRunTheSameInTheArena) {
  std::mt19937 rng(23);
  for (int g = 0; g < 60; ++g) {
    SCOPED_TRACE(testing::Message() << "graph " << g);
    Builder b;
    std::vector<Value*> values = {b.Input("x", {DType::kF32, {1, 64}}), b.Input("y", {DType::kF32, {1, 64}})};
    const int ops = 1 + static_cast<int>(rng() % 25);
    // Mostly recent operands (short lifetimes), sometimes old ones (long).
    auto pick = [&] {
      const size_t n = values.size();
      return values[rng() % 3 == 0 ? rng() % n : n - 1 - rng() % std::min<size_t>(n, 3)];
    };
    for (int i = 0; i < ops; ++i) {
      // (add, subtract and multiply may run in place over a dying operand.)
      switch (rng() % 6) {
        case 0: values.push_back(b.Op("relu", {pick()})); break;
        case 1: values.push_back(b.Op("round", {pick()})); break;
        case 2: values.push_back(b.Op("add", {pick(), pick()})); break;
        case 3: values.push_back(b.Op("subtract", {pick(), pick()})); break;
        case 4: values.push_back(b.Op("multiply", {pick(), pick()})); break;
        default: {
          Attrs a;
          a.Set("newshape", std::vector<int64_t>{1, 64});
          values.push_back(b.Op("reshape", {pick()}, a));
        }
      }
    }
    b.Output(values.back());
    for (size_t i = 2; i + 1 < values.size(); ++i) {
      if (rng() % 6 == 0) b.Output(values[i]);
    }
    std::unique_ptr<ir::Graph> graph = *b.Finish();
    std::vector<std::vector<Tensor>> runs;
    for (int r = 0; r < 2; ++r) {
      std::vector<float> x(64), y(64);
      for (int i = 0; i < 64; ++i) {
        x[i] = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 7.0f;
        y[i] = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 3.0f;
      }
      runs.push_back({Tensor::FromVector<float>({1, 64}, x), Tensor::FromVector<float>({1, 64}, y)});
    }
    // The reference, one node at a time, every value kept.
    std::vector<std::vector<Tensor>> want;
    for (const auto& inputs : runs) {
      std::map<const Value*, Tensor> env;
      for (size_t i = 0; i < inputs.size(); ++i) env[graph->inputs()[i]] = inputs[i];
      for (const ir::Node* n : graph->nodes()) {
        std::vector<Tensor> args;
        for (const Value* v : n->inputs()) args.push_back(env.at(v));
        auto out = eval::EvaluateNode(*n, args, nullptr);
        ASSERT_TRUE(out.ok()) << out.status();
        env[n->output()] = (*out)[0].Clone();
      }
      want.emplace_back();
      for (const Value* v : graph->outputs()) want.back().push_back(env.at(v));
    }
    auto exec = Executor::Create(graph->Clone(), {1});
    ASSERT_TRUE(exec.ok()) << exec.status();
    ASSERT_TRUE((*exec)->CheckMemory().ok()) << (*exec)->CheckMemory();
    std::vector<std::vector<Tensor>> got;
    for (const auto& inputs : runs) {
      auto out = (*exec)->Run(inputs);
      ASSERT_TRUE(out.ok()) << out.status();
      got.push_back(*out);
    }
    // Compared after both runs: the first run's outputs survive the second.
    for (size_t r = 0; r < runs.size(); ++r) {
      for (size_t i = 0; i < want[r].size(); ++i) {
        EXPECT_TRUE(got[r][i].BitwiseEquals(want[r][i])) << "run " << r << " output " << i;
      }
    }
  }
}

}  // namespace
}  // namespace qnnc::runtime
