#include "kernels/elementwise/float_ops.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/unary.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Mixed magnitudes and the special values (one NaN operand at a time: two
// NaNs may keep either payload).
Tensor RandomF32(const Shape& shape, std::mt19937& rng, bool specials) {
  Tensor t = *Tensor::Create(DType::kF32, shape);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> e(-30, 30);
  float* v = t.data<float>();
  for (int64_t i = 0; i < t.num_elements(); ++i) v[i] = std::ldexp(u(rng), e(rng));
  if (specials && t.num_elements() > 8) {
    const float s[] = {kInf, -kInf, std::nanf(""), -0.0f, 0.0f, std::numeric_limits<float>::denorm_min(),
                       std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
    for (int i = 0; i < 8; ++i) v[(i * 7919) % t.num_elements()] = s[i];
  }
  return t;
}

// The same shapes as the models' ops: same shape, scalar, per-channel bias,
// trailing vector; the broadcast operand on either side (not for subtract).
TEST(FloatBinary, MatchesTheReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(31);
  struct Case {
    Shape big, small;
  };
  const std::vector<Case> cases = {
      {{1, 32, 56, 56}, {1, 32, 56, 56}}, {{1, 32, 56, 56}, {}},       {{1, 32, 56, 56}, {1}},
      {{1, 32, 56, 56}, {1, 32, 1, 1}},   {{2, 16, 9, 7}, {16, 1, 1}},  {{1, 1000}, {1000}},
      {{3, 5}, {1, 5}},                   {{7, 3}, {7, 1}},             {{1, 4, 130, 130}, {1, 4, 1, 1}},
  };
  int checked = 0;
  for (FloatBinaryOp op : {FloatBinaryOp::kAdd, FloatBinaryOp::kSubtract, FloatBinaryOp::kMultiply}) {
    for (const Case& c : cases) {
      for (bool small_left : {false, true}) {
        if (small_left && op == FloatBinaryOp::kSubtract && c.small != c.big) continue;
        const Tensor big = RandomF32(c.big, rng, true), small = RandomF32(c.small, rng, false);
        const Tensor& a = small_left ? small : big;
        const Tensor& b = small_left ? big : small;
        SCOPED_TRACE(::testing::Message() << "op " << static_cast<int>(op) << " [" << absl::StrJoin(a.shape(), ",")
                                        << "] [" << absl::StrJoin(b.shape(), ",") << "]");
        ASSERT_TRUE(FloatBinarySupported(op, a.shape(), b.shape()));
        auto want = op == FloatBinaryOp::kAdd        ? reference::Add(a, b)
                    : op == FloatBinaryOp::kSubtract ? reference::Subtract(a, b)
                                                     : reference::Multiply(a, b);
        ASSERT_TRUE(want.ok()) << want.status();
        for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
          Tensor got;
          ASSERT_TRUE(FloatBinary(op, a, b, &got, threads).ok());
          EXPECT_TRUE(got.BitwiseEquals(*want));
          ++checked;
          // In place (the memory plan's reuse of a dying operand): over the
          // operand with the result's shape (either when both have it).
          for (bool over_a : {true, false}) {
            const Tensor& over = over_a ? a : b;
            if (over.shape() != want->shape()) continue;
            Tensor ca = a.Clone(), cb = b.Clone();
            Tensor io = over_a ? ca : cb;  // shares the operand's bytes
            ASSERT_TRUE(FloatBinary(op, ca, cb, &io, threads).ok());
            EXPECT_EQ(io.raw_data(), (over_a ? ca : cb).raw_data()) << "written in place";
            EXPECT_TRUE(io.BitwiseEquals(*want)) << (over_a ? "over a" : "over b");
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * (3 * 9 * 2 - 8));
}

TEST(FloatBinary, InPlaceOverBothOperands) {
  std::mt19937 rng(5);
  const Tensor x = RandomF32({2, 16, 9, 9}, rng, true);
  const Tensor want = reference::Add(x, x).value();
  Tensor io = x.Clone();
  ASSERT_TRUE(FloatBinary(FloatBinaryOp::kAdd, io, io, &io, nullptr).ok());
  EXPECT_TRUE(io.BitwiseEquals(want));
}

TEST(FloatBinary, RefusesOtherBroadcasts) {
  EXPECT_FALSE(FloatBinarySupported(FloatBinaryOp::kAdd, {3, 1}, {1, 4}));        // both grow
  EXPECT_FALSE(FloatBinarySupported(FloatBinaryOp::kAdd, {2, 3}, {3, 2}));        // no broadcast
  EXPECT_FALSE(FloatBinarySupported(FloatBinaryOp::kAdd, {2, 3, 4}, {2, 1, 4}));  // two runs
  EXPECT_FALSE(FloatBinarySupported(FloatBinaryOp::kSubtract, {1}, {5}));         // a broadcast
  Tensor out;
  EXPECT_FALSE(FloatBinary(FloatBinaryOp::kAdd, Tensor::Zeros(DType::kI32, {2}), Tensor::Zeros(DType::kI32, {2}),
                           &out, nullptr)
                   .ok());
}

TEST(FloatUnary, ReluClipSigmoidAndCastMatchTheReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(37);
  const Tensor x = RandomF32({2, 8, 90, 70}, rng, true);  // past the 64K serial limit
  for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
    Tensor got;
    ASSERT_TRUE(ReluF32(x, &got, threads).ok());
    EXPECT_TRUE(got.BitwiseEquals(*reference::Relu(x)));
    Tensor sig;
    ASSERT_TRUE(SigmoidF32(x, &sig, threads).ok());
    EXPECT_TRUE(sig.BitwiseEquals(*reference::Sigmoid(x)));
    for (auto [lo, hi] : {std::pair<float, float>{0.0f, 6.0f}, {-1e-3f, 1e-3f}, {-kInf, kInf}, {2.0f, 2.0f}}) {
      Tensor clipped;
      ASSERT_TRUE(ClipF32(x, lo, hi, &clipped, threads).ok());
      EXPECT_TRUE(clipped.BitwiseEquals(*reference::Clip(x, lo, hi))) << lo << " " << hi;
    }
    // i32 values that float cannot hold exactly round to even, as the reference.
    std::vector<int32_t> ints = {0, 1, -1, 16777217, -16777219, 2147483647, -2147483647 - 1, 33554435};
    std::uniform_int_distribution<int32_t> any;
    while (ints.size() < 100000) ints.push_back(any(rng));
    for (const Tensor& in : {Tensor::FromVector<int32_t>({1, 100000}, ints), Tensor::Zeros(DType::kU8, {3, 70000}),
                             Tensor::FromVector<int8_t>({4}, {-128, -1, 0, 127})}) {
      Tensor f;
      ASSERT_TRUE(CastToF32(in, &f, threads).ok());
      EXPECT_TRUE(f.BitwiseEquals(*reference::Cast(in, DType::kF32))) << tensor::DTypeName(in.dtype());
    }
  }
}

// LeakyRelu, HardSigmoid, HardSwish and Tanh at every level the host
// allows (the cloned loops), with NaN and infinities, serial and threaded.
TEST(FloatUnary, ActivationsMatchTheReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(41);
  const Tensor x = RandomF32({2, 8, 90, 70}, rng, true);
  testing::AtEveryIsaLevel([&] {
    for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
      Tensor got;
      ASSERT_TRUE(ActivationF32(FloatActivation::kLeakyRelu, x, 0.1f, 0, &got, threads).ok());
      EXPECT_TRUE(got.BitwiseEquals(*reference::LeakyRelu(x, 0.1f)));
      ASSERT_TRUE(ActivationF32(FloatActivation::kHardSigmoid, x, 0.2f, 0.5f, &got, threads).ok());
      EXPECT_TRUE(got.BitwiseEquals(*reference::HardSigmoid(x, 0.2f, 0.5f)));
      ASSERT_TRUE(ActivationF32(FloatActivation::kHardSwish, x, 0, 0, &got, threads).ok());
      EXPECT_TRUE(got.BitwiseEquals(*reference::HardSwish(x)));
      ASSERT_TRUE(ActivationF32(FloatActivation::kTanh, x, 0, 0, &got, threads).ok());
      EXPECT_TRUE(got.BitwiseEquals(*reference::Tanh(x)));
    }
  });
  Tensor out;
  EXPECT_FALSE(ActivationF32(FloatActivation::kTanh, Tensor::Zeros(DType::kU8, {2}), 0, 0, &out, nullptr).ok());
}

void ExpectDynamicQuantizeMatches(const Tensor& x, pthreadpool_t pool, const std::string& what) {
  SCOPED_TRACE(what);
  auto want = reference::DynamicQuantize(x);
  ASSERT_TRUE(want.ok()) << want.status();
  Tensor y, scale, zp;
  ASSERT_TRUE(DynamicQuantizeU8(x, &y, &scale, &zp, pool).ok());
  EXPECT_TRUE(y.BitwiseEquals(want->y));
  EXPECT_TRUE(scale.BitwiseEquals(want->y_scale));
  EXPECT_TRUE(zp.BitwiseEquals(want->y_zero_point));
}

TEST(DynamicQuantize, MatchesTheReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-3.0f, 5.0f);
  Tensor mixed = *Tensor::Create(DType::kF32, {1, 16, 100, 100});  // several 64K chunks
  for (float& v : mixed.span<float>()) v = u(rng);
  mixed.data<float>()[12345] = std::nanf("");  // ignored by min/max, quantizes to zp
  Tensor positive = mixed.Clone(), negative = mixed.Clone();
  for (float& v : positive.span<float>()) v = std::fabs(v);
  for (float& v : negative.span<float>()) v = -std::fabs(v) - 1.0f;
  for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
    ExpectDynamicQuantizeMatches(mixed, threads, "mixed");
    ExpectDynamicQuantizeMatches(positive, threads, "positive (zero point 0)");
    ExpectDynamicQuantizeMatches(negative, threads, "negative (zero point 255)");
    ExpectDynamicQuantizeMatches(Tensor::Zeros(DType::kF32, {5, 7}), threads, "zeros (scale 1)");
    ExpectDynamicQuantizeMatches(Tensor::FromVector<float>({4}, {0.5f, 1.5f, -2.5f, 127.5f}), threads, "ties");
  }
  // With the range given by the producer: the same results; an infinite
  // range falls back to the pass, which names the element.
  for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
    float range[2] = {0.0f, 0.0f};
    for (float v : mixed.span<float>()) {
      range[0] = v < range[0] ? v : range[0];
      range[1] = v > range[1] ? v : range[1];
    }
    Tensor y1, s1, z1, y2, s2, z2;
    ASSERT_TRUE(DynamicQuantizeU8(mixed, &y1, &s1, &z1, threads).ok());
    ASSERT_TRUE(DynamicQuantizeU8(mixed, &y2, &s2, &z2, threads, range).ok());
    EXPECT_TRUE(y1.BitwiseEquals(y2) && s1.BitwiseEquals(s2) && z1.BitwiseEquals(z2));
  }
  Tensor inf = mixed.Clone();
  inf.data<float>()[99999] = -kInf;
  inf.data<float>()[150000] = kInf;
  Tensor y, s, z;
  const absl::Status bad = DynamicQuantizeU8(inf, &y, &s, &z, pool.get());
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.message()).find("element 99999 is infinite"), std::string::npos) << bad;
  const float infinite_range[2] = {-kInf, kInf};
  const absl::Status bad2 = DynamicQuantizeU8(inf, &y, &s, &z, pool.get(), infinite_range);
  EXPECT_NE(std::string(bad2.message()).find("element 99999 is infinite"), std::string::npos) << bad2;
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
