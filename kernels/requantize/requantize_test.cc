#include "kernels/requantize/requantize.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/requantize.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::requantize {
namespace {

using int128 = __int128;
using tensor::DType;
using tensor::Tensor;

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr Rounding kUp = Rounding::kUpward;
constexpr Rounding kNear = Rounding::kToNearest;
constexpr Rounding kEven = Rounding::kFloatToNearestEven;

FixedPointMultiplier Quantized(double real) {
  absl::StatusOr<FixedPointMultiplier> m = QuantizeMultiplier(real);
  EXPECT_TRUE(m.ok()) << real << ": " << m.status();
  return m.value_or(FixedPointMultiplier{});
}


Tensor F(float v) { return Tensor::Scalar<float>(v); }
Tensor I(int32_t v) { return Tensor::Scalar<int32_t>(v); }

// ---- Exact models, independent of the implementation: num / den, den > 0.
int128 FloorDiv(int128 num, int128 den) {
  int128 q = num / den;
  if (num % den != 0 && num < 0) --q;
  return q;
}
int128 RoundHalfUp(int128 num, int128 den) {
  const int128 q = FloorDiv(num, den), rem = num - q * den;
  return 2 * rem >= den ? q + 1 : q;
}
int128 RoundHalfAway(int128 num, int128 den) {
  const int128 q = FloorDiv(num, den), rem = num - q * den;
  return (2 * rem > den || (2 * rem == den && num > 0)) ? q + 1 : q;
}
bool IsTie(int128 num, int128 den) { return 2 * (num - FloorDiv(num, den) * den) == den; }

struct Exact {
  int128 num, den;  // x * real as used by the fixed-point modes
  int left, right;
};
Exact ExactProduct(int32_t x, FixedPointMultiplier m) {
  const int left = std::max(m.shift, 0), right = std::max(-m.shift, 0);
  return {int128{x} * m.multiplier * (int128{1} << left), int128{1} << (31 + right), left, right};
}
int64_t ModelUpward(int32_t x, FixedPointMultiplier m) {
  const Exact e = ExactProduct(x, m);
  return static_cast<int64_t>(RoundHalfUp(e.num, e.den));
}
// TFLite: round half up to 2^-right, then half away from zero to an integer.
int64_t ModelToNearest(int32_t x, FixedPointMultiplier m) {
  const Exact e = ExactProduct(x, m);
  const int128 step1 = RoundHalfUp(e.num, int128{1} << 31);
  return static_cast<int64_t>(RoundHalfAway(step1, int128{1} << e.right));
}

// ---- Scalar functions.

TEST(RequantizeValueTest, HandComputedTable) {
  const FixedPointMultiplier quarter{1 << 30, -1}, half{1 << 30, 0}, one{1 << 30, 1};
  struct Case {
    int32_t x;
    FixedPointMultiplier m;
    int64_t upward, to_nearest, even;
  };
  const Case cases[] = {
      // x * 0.25: ties go up / away from zero / to even.
      {10, quarter, 3, 3, 2},      // 2.5
      {-10, quarter, -2, -3, -2},  // -2.5
      {6, quarter, 2, 2, 2},       // 1.5
      {-6, quarter, -1, -2, -2},   // -1.5
      {2, quarter, 1, 1, 0},       // 0.5
      {-2, quarter, 0, -1, 0},     // -0.5
      {-7, quarter, -2, -2, -2},   // -1.75
      // TONEAREST double rounding: 1.25 -> 2.5 halves (ties up) -> 1.5 -> 2.
      {5, quarter, 1, 2, 1},
      // x * 0.5 (shift 0): TONEAREST's only rounding is the high-mul, ties up.
      {5, half, 3, 3, 2},      // 2.5
      {-5, half, -2, -2, -2},  // -2.5
      {-3, half, -1, -1, -2},  // -1.5
      {-1, half, 0, 0, 0},     // -0.5
      // x * 0.3 (shift -1): TFLite's double rounding, 2.4 -> 4.8 -> 5 halves
      // -> 2.5 -> 3 (exact rounding gives 2); float32 2.4000001 -> 2.
      {8, Quantized(0.3), 2, 3, 2},
      {-8, Quantized(0.3), -2, -3, -2},
      {7, Quantized(0.3), 2, 2, 2},  // 2.1
      // x * 1.0 (shift 1) is exact, including the int32 extremes (TFLite's
      // scalar x * 2 would overflow there).
      {kMax, one, kMax, kMax, int64_t{1} << 31},  // float(kMax) == 2^31
      {kMin, one, kMin, kMin, kMin},
      {-7, one, -7, -7, -7},
      // x * 3.7 and 255.9 (above one).
      {10, Quantized(3.7), 37, 37, 37},
      {-10, Quantized(3.7), -37, -37, -37},
      {5, Quantized(3.7), 18, 18, 18},  // 18.4999999963 (float32: exactly 18.5 -> 18)
      {100, Quantized(255.9), 25590, 25590, 25590},
      {-3, Quantized(255.9), -768, -768, -768},  // -767.7
      // 2^-32, the smallest nonzero multiplier: kMin * 2^-32 = -0.5 exactly.
      {kMin, {1 << 30, -31}, 0, -1, 0},
      // (2^31 - 1) * 2^-32 = 0.49999999977: TONEAREST's high-mul gives 2^30
      // (2^30 - 1/2 ties up), then 2^30 / 2^31 = 0.5 goes away from zero.
      {kMax, {1 << 30, -31}, 0, 1, 0},
      // 1e9 (shift 30): the product needs 61 bits.
      {3, Quantized(1e9), 3000000000, 3000000000, 3000000000},
      {kMax, Quantized(1e9), int64_t{kMax} * 1000000000, int64_t{kMax} * 1000000000,
       2147483648000000000 /* 2^31 * 1e9 rounds to this float */},
      {kMin, Quantized(1e9), int64_t{kMin} * 1000000000, int64_t{kMin} * 1000000000,
       -2147483648000000000},
      // Zero multiplier.
      {kMax, {0, 0}, 0, 0, 0},
      {kMin, {0, 0}, 0, 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.x << " * " << c.m.ToDouble());
    EXPECT_EQ(RequantizeValue(c.x, c.m, kUp), c.upward);
    EXPECT_EQ(RequantizeValue(c.x, c.m, kNear), c.to_nearest);
    EXPECT_EQ(RequantizeValue(c.x, c.m, kEven), c.even);
  }
}

TEST(RequantizeValueTest, FloatModeExtremes) {
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
  const float inf = std::numeric_limits<float>::infinity();
  const float big = std::numeric_limits<float>::max();
  EXPECT_EQ(RequantizeValueFloat(kMax, big), kMax64);
  EXPECT_EQ(RequantizeValueFloat(kMin, big), kMin64);
  EXPECT_EQ(RequantizeValueFloat(1, inf), kMax64);
  EXPECT_EQ(RequantizeValueFloat(-1, inf), kMin64);
  EXPECT_EQ(RequantizeValueFloat(0, inf), 0);  // NaN
  EXPECT_EQ(RequantizeValueFloat(3, std::nanf("")), 0);
  EXPECT_EQ(RequantizeValueFloat(7, 0.5f), 4);    // 3.5
  EXPECT_EQ(RequantizeValueFloat(-7, 0.5f), -4);  // -3.5
  EXPECT_EQ(RequantizeValueFloat(-5, 0.5f), -2);  // -2.5
  EXPECT_EQ(RequantizeValueFloat(5, -0.5f), -2);  // negative multipliers work
  EXPECT_EQ(RequantizeValueFloat(kMax, 1e-10f), 0);
}

// Every tie: x * odd / 2^p for all small x, all three rounding rules.
TEST(RequantizeValueTest, ExhaustiveTiesAgainstExactModels) {
  for (int p = 1; p <= 9; ++p) {
    for (int odd = 1; odd < (1 << p); odd += 2) {
      const double real = std::ldexp(odd, -p);
      const FixedPointMultiplier m = Quantized(real);
      for (int32_t x = -1000; x <= 1000; ++x) {
        const int128 num = int128{x} * odd, den = int128{1} << p;
        ASSERT_EQ(RequantizeValue(x, m, kUp), RoundHalfUp(num, den)) << x << " * " << real;
        ASSERT_EQ(RequantizeValue(x, m, kNear), ModelToNearest(x, m)) << x << " * " << real;
        // 2^-p with p > 1 and even x: the high-mul x / 2 is exact, so only
        // the final rounding remains and ties go away from zero.
        if (odd == 1 && p > 1 && x % 2 == 0) {
          ASSERT_EQ(RequantizeValue(x, m, kNear), RoundHalfAway(num, den)) << x << " * " << real;
        }
        ASSERT_EQ(RequantizeValue(x, m, kEven), std::nearbyint(static_cast<double>(x) * real))
            << x << " * " << real;
      }
    }
  }
}

// Random (x, multiplier) over the whole range against exact 128-bit models
// (and a long double cross-check of UPWARD).
TEST(RequantizeValueTest, RandomAgainstExactModels) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log2_real(-33.0, 29.99);
  std::uniform_real_distribution<double> log2_near_one(-3.0, 1.0);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  std::uniform_int_distribution<int32_t> small(-5000, 5000);
  int single_rounding_mismatches = 0, quarter_mismatches = 0, quarter_total = 0;
  for (int i = 0; i < 1000000; ++i) {
    const double real = std::exp2(i % 2 ? log2_real(rng) : log2_near_one(rng));
    const FixedPointMultiplier m = Quantized(real);
    int32_t x = i % 3 == 0 ? small(rng) : any(rng);
    if (i % 101 == 0) x = i % 202 ? kMin : kMax;
    SCOPED_TRACE(testing::Message()
                 << x << " * " << real << " {" << m.multiplier << ", " << m.shift << "}");
    const int64_t up = RequantizeValue(x, m, kUp), near = RequantizeValue(x, m, kNear);
    ASSERT_EQ(up, ModelUpward(x, m));
    ASSERT_EQ(near, ModelToNearest(x, m));
    if (std::numeric_limits<long double>::digits >= 64) {  // x87: exact here
      const long double v = std::ldexp(static_cast<long double>(x) * m.multiplier, m.shift - 31);
      ASSERT_EQ(up, static_cast<int64_t>(std::floor(v + 0.5L)));
    }
    // TONEAREST vs one rounding of the exact product. shift >= 0: a single
    // rounding with ties up. shift < 0: ties away from zero, and 1 apart from
    // that only where the first rounding landed exactly on a tie.
    const Exact e = ExactProduct(x, m);
    if (e.right == 0) {
      ASSERT_EQ(near, up);
    }
    const int64_t single = static_cast<int64_t>(RoundHalfAway(e.num, e.den));
    if (e.right > 0 && near != single) {
      ++single_rounding_mismatches;
      ASSERT_EQ(std::abs(near - single), 1);
      ASSERT_TRUE(IsTie(RoundHalfUp(e.num, int128{1} << 31), int128{1} << e.right));
      ASSERT_FALSE(IsTie(e.num, e.den));
    }
    if (e.right == 1 && x % 3 != 0) {
      ++quarter_total;
      quarter_mismatches += near != single;
    }
  }
  // Double rounding is common for multipliers in [0.25, 0.5) (shift -1):
  // every fraction in [0.25, 0.5) rounds the wrong way, i.e. about 1 in 4.
  EXPECT_GT(single_rounding_mismatches, 0);
  EXPECT_NEAR(static_cast<double>(quarter_mismatches) / quarter_total, 0.25, 0.02);
}

// The fixed-point modes agree with the float mode within 1, and all three are
// the exactly rounded x * in / out when that is not close to a tie.
TEST(RequantizeValueTest, FixedPointAgreesWithFloatMode) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> log_scale(-12.0f, 2.0f);
  std::uniform_int_distribution<int32_t> acc(-(1 << 20), 1 << 20);
  int exact_checked = 0;
  for (int i = 0; i < 300000; ++i) {
    const float in = std::exp2(log_scale(rng)), out = std::exp2(log_scale(rng) / 4);
    const double real = static_cast<double>(in) / out;
    if (real > 2.0) continue;  // keeps |x * real| <= 2^21: float32 error < 1/4
    const FixedPointMultiplier m = Quantized(real);
    const int32_t x = acc(rng);
    const int64_t up = RequantizeValue(x, m, kUp), near = RequantizeValue(x, m, kNear);
    const int64_t even = RequantizeValueFloat(x, in / out);
    SCOPED_TRACE(testing::Message() << x << " * " << in << " / " << out);
    ASSERT_LE(std::abs(up - even), 1);
    ASSERT_LE(std::abs(near - even), 1);
    ASSERT_LE(std::abs(up - near), 1);
    const long double t = static_cast<long double>(x) * in / out;
    const long double tie_distance = std::fabs(t - std::floor(t) - 0.5L);
    const long double nearest = std::floor(t + 0.5L);
    const long double float_error = std::fabs(t) * 0x1p-22L;
    const long double fixed_error = std::fabs(t) * 0x1p-30L + 0x1p-60L;
    const long double double_rounding = m.shift < 0 ? std::ldexp(1.0L, m.shift - 1) : 0.0L;
    if (tie_distance > float_error) {
      ASSERT_EQ(even, nearest);
    }
    if (tie_distance > fixed_error) {
      ASSERT_EQ(up, nearest);
    }
    if (tie_distance > fixed_error + double_rounding) {
      ASSERT_EQ(near, nearest);
    }
    exact_checked += tie_distance > float_error + double_rounding;
  }
  EXPECT_GT(exact_checked, 100000);
}

// ---- Multipliers.

TEST(ComputeMultipliersTest, PerChannelAndBroadcast) {
  auto m = ComputeMultipliers(Tensor::FromVector<float>({3}, {0.5f, 3.7f, 1e-10f}), F(1.0f), 3);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ((*m)[0], (FixedPointMultiplier{1 << 30, 0}));
  EXPECT_EQ((*m)[1], (FixedPointMultiplier{1986422400, 2}));  // float(3.7) = 15518925 * 2^-22
  EXPECT_EQ((*m)[2], (FixedPointMultiplier{0, 0}));
  m = ComputeMultipliers(F(1.0f), Tensor::FromVector<float>({2}, {4.0f, 0.5f}), 2);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)[0], (FixedPointMultiplier{1 << 30, -1}));
  EXPECT_EQ((*m)[1], (FixedPointMultiplier{1 << 30, 2}));
  m = ComputeMultipliers(F(2.0f), F(2.0f), 4);  // per-tensor, broadcast
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, std::vector<FixedPointMultiplier>(4, FixedPointMultiplier{1 << 30, 1}));
  auto f = ComputeFloatMultipliers(Tensor::FromVector<float>({2}, {1.0f, -3.0f}), F(2.0f), 2);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f, (std::vector<float>{0.5f, -1.5f}));
}

TEST(ComputeMultipliersTest, Errors) {
  const Tensor two = Tensor::FromVector<float>({2}, {1.0f, 1.0f});
  EXPECT_FALSE(ComputeMultipliers(two, F(1.0f), 3).ok());       // wrong size
  EXPECT_FALSE(ComputeMultipliers(F(1.0f), F(0.0f), 1).ok());   // zero output scale
  EXPECT_FALSE(ComputeMultipliers(F(-1.0f), F(1.0f), 1).ok());  // negative
  EXPECT_FALSE(ComputeMultipliers(F(std::nanf("")), F(1.0f), 1).ok());
  EXPECT_FALSE(ComputeMultipliers(F(1e10f), F(1.0f), 1).ok());  // >= 2^30
  EXPECT_FALSE(ComputeMultipliers(I(1), F(1.0f), 1).ok());      // not a float tensor
  EXPECT_FALSE(ComputeMultipliers(Tensor(), F(1.0f), 1).ok());  // undefined
  EXPECT_FALSE(ComputeFloatMultipliers(F(1.0f), F(0.0f), 1).ok());
  EXPECT_TRUE(ComputeFloatMultipliers(F(1e30f), F(1e-30f), 1).ok());  // inf is fine
  auto error = ComputeMultipliers(Tensor::FromVector<float>({2}, {1.0f, 2e9f}), F(1.0f), 2);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.status().message().find("channel 1"), absl::string_view::npos) << error.status();
}

// ---- Tensor kernel.

TEST(RequantizeKernelTest, PerChannelMixedScales) {
  // Channels along axis 0: x * 3.7 (above one), x * 1e-10 (zero multiplier),
  // x * 0.25 (ties); output zero point 128.
  const Tensor x =
      Tensor::FromVector<int32_t>({3, 4}, {10, -10, 5, 100, kMax, kMin, 12345, -1, -10, 10, -6, 6});
  const Tensor in_scale = Tensor::FromVector<float>({3}, {3.7f, 1e-10f, 0.25f});
  const Tensor out_zp = Tensor::Scalar<uint8_t>(128);
  struct Case {
    Rounding rounding;
    std::vector<uint8_t> expected;
  };
  // float(3.7) * 5 = 18.5000002: the fixed-point modes round it to 19, float32
  // rounds the product to exactly 18.5 and then to even.
  const Case cases[] = {
      {kUp, {165, 91, 147, 255, 128, 128, 128, 128, 126, 131, 127, 130}},
      {kNear, {165, 91, 147, 255, 128, 128, 128, 128, 125, 131, 126, 130}},
      {kEven, {165, 91, 146, 255, 128, 128, 128, 128, 126, 130, 126, 130}},
  };
  for (const Case& c : cases) {
    auto y = Requantize(x, in_scale, I(0), F(1.0f), out_zp, 0, DType::kU8, c.rounding);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<uint8_t>(), c.expected) << RoundingName(c.rounding);
  }
}

TEST(RequantizeKernelTest, ZeroPointsAtLimitsAndSaturation) {
  const Tensor x = Tensor::FromVector<int32_t>({6}, {-10, 10, 0, 1000, -1000, 3});
  for (Rounding r : {kUp, kNear, kEven}) {
    SCOPED_TRACE(RoundingName(r));
    auto y = Requantize(x, F(1.0f), I(0), F(1.0f), Tensor::Scalar<uint8_t>(255), 0, DType::kU8, r);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{245, 255, 255, 255, 0, 255}));
    y = Requantize(x, F(1.0f), I(0), F(1.0f), Tensor::Scalar<uint8_t>(0), 0, DType::kU8, r);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{0, 10, 0, 255, 0, 3}));
    y = Requantize(x, F(1.0f), I(0), F(1.0f), Tensor::Scalar<int8_t>(-128), 0, DType::kI8, r);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{-128, -118, -128, 127, -128, -125}));
    y = Requantize(x, F(1.0f), I(0), F(1.0f), Tensor::Scalar<int8_t>(127), 0, DType::kI8, r);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{117, 127, 127, 127, -128, 127}));
    // Input zero points at the u8 limits, with clamps (a fused ReLU6-like range).
    const Tensor u = Tensor::FromVector<uint8_t>({4}, {0, 255, 128, 200});
    y = Requantize(u, F(0.5f), Tensor::Scalar<uint8_t>(255), F(0.25f), Tensor::Scalar<uint8_t>(0),
                   0, DType::kU8, r, /*clamp_min=*/10, /*clamp_max=*/1000);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{10, 10, 10, 10}));
    y = Requantize(u, F(0.5f), Tensor::Scalar<uint8_t>(0), F(0.25f), Tensor::Scalar<uint8_t>(0), 0,
                   DType::kU8, r, /*clamp_min=*/10, /*clamp_max=*/300);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{10, 255, 255, 255}));
  }
}

TEST(RequantizeKernelTest, Int32ExtremesWithZeroPoints) {
  const Tensor x = Tensor::FromVector<int32_t>({4}, {kMax, kMin, kMax, kMin});
  const Tensor in_zp = Tensor::FromVector<int32_t>({4}, {-5, 10, 0, 0});
  for (Rounding r : {kUp, kNear, kEven}) {
    SCOPED_TRACE(RoundingName(r));
    // x - zp leaves int32 for the first two: saturated (fixed point) or
    // float(exact difference) (float mode); either way the output saturates.
    auto y = Requantize(x, F(1.0f), in_zp, F(1.0f), I(0), 0, DType::kI32, r);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{kMax, kMin, kMax, kMin}));
    y = Requantize(x, F(1000.0f), in_zp, F(1e-3f), I(0), 0, DType::kI32, r);  // 1e6
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{kMax, kMin, kMax, kMin}));
    y = Requantize(x, F(1e-5f), in_zp, F(1e5f), I(7), 0, DType::kI32, r);  // ~1e-10
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{7, 7, 7, 7}));
    y = Requantize(x, F(1.0f), in_zp, F(1024.0f), I(0), 0, DType::kI32, r);  // 2^-10
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{2097152, -2097152, 2097152, -2097152}));
  }
}

TEST(RequantizeKernelTest, Errors) {
  const Tensor x = Tensor::FromVector<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  for (Rounding r : {kUp, kNear, kEven}) {
    SCOPED_TRACE(RoundingName(r));
    EXPECT_FALSE(Requantize(x, F(1.0f), I(0), F(0.0f), I(0), 0, DType::kI8, r).ok());
    EXPECT_FALSE(Requantize(x, F(std::nanf("")), I(0), F(1.0f), I(0), 0, DType::kI8, r).ok());
    EXPECT_FALSE(Requantize(x, Tensor::FromVector<float>({2}, {1.0f, 1.0f}), I(0), F(1.0f), I(0), 1,
                            DType::kI8, r)
                     .ok());  // 2 scales, 3 channels
    EXPECT_FALSE(Requantize(x, Tensor::FromVector<float>({2}, {1.0f, 1.0f}), I(0), F(1.0f), I(0), 2,
                            DType::kI8, r)
                     .ok());  // bad axis
    EXPECT_FALSE(Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kF32, r).ok());
    EXPECT_FALSE(Requantize(Tensor::FromVector<float>({1}, {1.0f}), F(1.0f), I(0), F(1.0f), I(0), 0,
                            DType::kI8, r)
                     .ok());
    EXPECT_FALSE(Requantize(x, F(1.0f), F(0.0f), F(1.0f), I(0), 0, DType::kI8, r).ok());
    EXPECT_FALSE(Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI8, r, 10, 5).ok());
    EXPECT_FALSE(Requantize(Tensor(), F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI8, r).ok());
  }
  // Only the fixed-point modes need nonnegative multipliers below 2^30.
  for (const Tensor& scale : {F(-1.0f), F(2e9f)}) {
    EXPECT_FALSE(Requantize(x, scale, I(0), F(1.0f), I(0), 0, DType::kI8, kUp).ok());
    EXPECT_FALSE(Requantize(x, scale, I(0), F(1.0f), I(0), 0, DType::kI8, kNear).ok());
    EXPECT_TRUE(Requantize(x, scale, I(0), F(1.0f), I(0), 0, DType::kI8, kEven).ok());
  }
}

// ---- Random tensors.

struct RandomCase {
  Tensor x, in_scale, in_zp, out_scale, out_zp;
  int64_t axis;
  DType out_dtype;
  std::optional<int64_t> lo, hi;
};

Tensor RandomInts(std::mt19937_64& rng, DType dtype, tensor::Shape shape) {
  Tensor t = Tensor::Zeros(dtype, std::move(shape));
  // Mostly values near zero, some anywhere in the dtype.
  const int64_t lo = tensor::DTypeMin(dtype), hi = tensor::DTypeMax(dtype);
  std::uniform_int_distribution<int64_t> any(lo, hi),
      near(std::max<int64_t>(lo, -3000), std::min<int64_t>(hi, 3000));
  std::uniform_int_distribution<int> pick(0, 9);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const int k = pick(rng);
    const int64_t v = k == 0 ? lo : (k == 1 ? hi : (k < 4 ? any(rng) : near(rng)));
    switch (dtype) {
      case DType::kU8:
        t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
        break;
      case DType::kI8:
        t.data<int8_t>()[i] = static_cast<int8_t>(v);
        break;
      case DType::kU16:
        t.data<uint16_t>()[i] = static_cast<uint16_t>(v);
        break;
      case DType::kI16:
        t.data<int16_t>()[i] = static_cast<int16_t>(v);
        break;
      case DType::kI32:
        t.data<int32_t>()[i] = static_cast<int32_t>(v);
        break;
      default:
        t.data<int64_t>()[i] = v;
        break;
    }
  }
  return t;
}

Tensor RandomScales(std::mt19937_64& rng, int64_t n, bool allow_odd) {
  std::uniform_real_distribution<float> log2_scale(-20.0f, 8.0f);
  std::uniform_int_distribution<int> pick(0, 19);
  std::vector<float> v(n);
  for (float& s : v) {
    s = std::exp2(log2_scale(rng));
    const int k = pick(rng);
    if (allow_odd && k == 0) s = 0.0f;
    if (allow_odd && k == 1) s = -s;
    if (k == 2) s = 1.0f;
  }
  return Tensor::FromVector<float>({n}, v);
}

RandomCase MakeRandomCase(std::mt19937_64& rng, bool allow_odd_scales) {
  std::uniform_int_distribution<int> rank_dist(1, 4), dim_dist(1, 5), coin(0, 1);
  const DType in_types[] = {DType::kI32, DType::kI32, DType::kI16,
                            DType::kU8,  DType::kI8,  DType::kI64};
  const DType out_types[] = {DType::kU8, DType::kI8, DType::kU16, DType::kI16, DType::kI32};
  RandomCase c;
  tensor::Shape shape(rank_dist(rng));
  for (int64_t& d : shape) d = dim_dist(rng);
  const int64_t rank = static_cast<int64_t>(shape.size());
  c.axis = std::uniform_int_distribution<int64_t>(-rank, rank - 1)(rng);
  const int64_t channels = shape[c.axis < 0 ? c.axis + rank : c.axis];
  c.x = RandomInts(rng, in_types[std::uniform_int_distribution<int>(0, 5)(rng)], shape);
  c.out_dtype = out_types[std::uniform_int_distribution<int>(0, 4)(rng)];
  c.in_scale = RandomScales(rng, coin(rng) ? channels : 1, allow_odd_scales);
  c.out_scale = RandomScales(rng, coin(rng) ? channels : 1, false);
  c.in_zp = RandomInts(rng, c.x.dtype() == DType::kI64 ? DType::kI32 : c.x.dtype(),
                       {coin(rng) ? channels : 1});
  c.out_zp = RandomInts(rng, c.out_dtype, {coin(rng) ? channels : 1});
  if (coin(rng)) c.lo = std::uniform_int_distribution<int64_t>(-200, 100)(rng);
  if (coin(rng)) c.hi = std::uniform_int_distribution<int64_t>(100, 70000)(rng);
  return c;
}

TEST(RequantizeKernelTest, FloatModeMatchesReferenceKernel) {
  std::mt19937_64 rng(2024);
  for (int i = 0; i < 3000; ++i) {
    const RandomCase c = MakeRandomCase(rng, /*allow_odd_scales=*/true);
    SCOPED_TRACE(testing::Message() << "case " << i);
    auto expected = reference::Requantize(c.x, c.in_scale, c.in_zp, c.out_scale, c.out_zp, c.axis,
                                          c.out_dtype, c.lo, c.hi);
    auto actual = Requantize(c.x, c.in_scale, c.in_zp, c.out_scale, c.out_zp, c.axis, c.out_dtype,
                             kEven, c.lo, c.hi);
    ASSERT_EQ(actual.ok(), expected.ok()) << actual.status() << " vs " << expected.status();
    if (!actual.ok()) continue;
    ASSERT_TRUE(actual->BitwiseEquals(*expected));
  }
}

// The fixed-point kernels are clamp(RequantizeValue(sat32(x - zp)) + zp).
TEST(RequantizeKernelTest, FixedPointModesMatchScalarFunction) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 2000; ++i) {
    const RandomCase c = MakeRandomCase(rng, /*allow_odd_scales=*/false);
    const Rounding r = i % 2 ? kUp : kNear;
    SCOPED_TRACE(testing::Message() << "case " << i << " " << RoundingName(r));
    auto y = Requantize(c.x, c.in_scale, c.in_zp, c.out_scale, c.out_zp, c.axis, c.out_dtype, r,
                        c.lo, c.hi);
    if (!y.ok()) {  // only a too-large multiplier or an empty clamp range
      continue;
    }
    const int64_t rank = c.x.rank(), a = c.axis < 0 ? c.axis + rank : c.axis;
    const int64_t channels = c.x.dim(a);
    int64_t inner = 1;
    for (int64_t d = a + 1; d < rank; ++d) inner *= c.x.dim(d);
    auto m = ComputeMultipliers(c.in_scale, c.out_scale, channels);
    ASSERT_TRUE(m.ok()) << m.status();
    const int64_t lo = std::max(c.lo.value_or(INT64_MIN), tensor::DTypeMin(c.out_dtype));
    const int64_t hi = std::min(c.hi.value_or(INT64_MAX), tensor::DTypeMax(c.out_dtype));
    for (int64_t i2 = 0; i2 < c.x.num_elements(); ++i2) {
      const int64_t ch = (i2 / inner) % channels;
      const int64_t zp_in = c.in_zp.GetAsInt(c.in_zp.num_elements() == 1 ? 0 : ch);
      const int64_t zp_out = c.out_zp.GetAsInt(c.out_zp.num_elements() == 1 ? 0 : ch);
      const int128 d = int128{c.x.GetAsInt(i2)} - zp_in;
      const int32_t d32 = d > kMax ? kMax : (d < kMin ? kMin : static_cast<int32_t>(d));
      const int64_t q = RequantizeValue(d32, (*m)[ch], r) + zp_out;
      ASSERT_EQ(y->GetAsInt(i2), std::clamp(q, lo, hi)) << "element " << i2;
    }
  }
}

}  // namespace
}  // namespace qnnc::kernels::requantize
