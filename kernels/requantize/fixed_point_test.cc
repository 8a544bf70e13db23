#include "kernels/requantize/fixed_point.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "gtest/gtest.h"
#include "kernels/requantize/rounding.h"

namespace qnnc::kernels::requantize {
namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t k2p30 = 1 << 30;

TEST(QuantizeMultiplierTest, HandComputedTable) {
  struct Case {
    double real;
    int32_t multiplier;
    int32_t shift;
  };
  const Case cases[] = {
      {0.0, 0, 0},
      {1.0, k2p30, 1},  // 0.5 * 2^1
      {0.5, k2p30, 0},
      {0.75, 1610612736, 0},               // 0.75 * 2^31 exactly
      {0.1, 1717986918, -3},               // 0.8 * 2^31 = 1717986918.4
      {1.0 / 3, 1431655765, -1},           // 2/3 * 2^31 = 1431655765.33
      {3.7, 1986422374, 2},                // 0.925 * 2^31 = 1986422374.4
      {255.9, 2146644787, 8},              // 255.9 / 256 * 2^31 = 2146644787.2
      {1e9, 2000000000, 30},               // 1e9 / 2^30 * 2^31
      {0.99999999999, k2p30, 1},           // frac * 2^31 = 2147483647.998 rounds to 2^31
      {std::ldexp(1.0, -32), k2p30, -31},  // smallest representable power of two
      {1e-10, 0, 0},                       // 0.859 * 2^-33: shift -33 underflows
      {std::ldexp(0.999, -32), 0, 0},      // shift -32 underflows
      {1e-300, 0, 0},
      {std::numeric_limits<double>::denorm_min(), 0, 0},
  };
  for (const Case& c : cases) {
    auto m = QuantizeMultiplier(c.real);
    ASSERT_TRUE(m.ok()) << c.real << ": " << m.status();
    EXPECT_EQ(m->multiplier, c.multiplier) << c.real;
    EXPECT_EQ(m->shift, c.shift) << c.real;
  }
}

TEST(QuantizeMultiplierTest, RejectsNegativeNonFiniteAndHuge) {
  for (double bad : {-1.0, -1e-20, std::nan(""), std::numeric_limits<double>::infinity(),
                     std::ldexp(1.0, 30), 2e9, 1e300,
                     // frac * 2^31 rounds to 2^31, pushing the shift to 31.
                     std::ldexp(1.0, 30) - std::ldexp(1.0, -20)}) {
    EXPECT_FALSE(QuantizeMultiplier(bad).ok()) << bad;
  }
  auto largest = QuantizeMultiplier(std::ldexp(1.0, 30) - 1);
  ASSERT_TRUE(largest.ok());
  EXPECT_EQ(largest->shift, 30);
  EXPECT_EQ(largest->multiplier, kMax - 1);  // (2^30 - 1) / 2^30 * 2^31 = 2^31 - 2
}

TEST(QuantizeMultiplierTest, RandomRealsAreWithinHalfAnUlpAndNormalized) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-31.5, 29.9);
  for (int i = 0; i < 100000; ++i) {
    const double real = std::exp2(exponent(rng));
    auto m = QuantizeMultiplier(real);
    ASSERT_TRUE(m.ok()) << real;
    if (m->multiplier == 0) {
      EXPECT_LT(real, std::ldexp(1.0, -32));
      continue;
    }
    EXPECT_GE(m->multiplier, k2p30);
    EXPECT_GE(m->shift, -31);
    EXPECT_LE(m->shift, 30);
    // |q - frac * 2^31| <= 1/2, i.e. relative error <= 2^-31.
    EXPECT_LE(std::fabs(m->ToDouble() - real), std::ldexp(real, -31)) << real;
  }
}

TEST(SaturatingRoundingDoublingHighMulTest, Table) {
  struct Case {
    int32_t a, b, expected;
  };
  const Case cases[] = {
      {kMin, kMin, kMax},                             // the only overflow: saturates
      {kMax, kMax, kMax - 1},                         // 2^31 - 2 + 2^-31
      {kMin, kMax, -kMax},                            // exact
      {kMax, kMin, -kMax},    {kMin, k2p30, -k2p30},  // -2^61 / 2^31, exact
      {1, k2p30, 1},                                  // 0.5 -> 1 (ties up)
      {-1, k2p30, 0},                                 // -0.5 -> 0 (ties up)
      {-3, k2p30, -1},                                // -1.5 -> -1
      {3, k2p30, 2},                                  // 1.5 -> 2
      {-5, k2p30, -2},                                // -2.5 -> -2
      {10, 1610612736, 8},                            // 10 * 0.75 = 7.5 -> 8
      {-10, 1610612736, -7},                          // -7.5 -> -7
      {-7, 1610612736, -5},                           // -5.25 -> -5
      {-9, 1610612736, -7},                           // -6.75 -> -7
      {0, kMin, 0},           {12345, 0, 0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(SaturatingRoundingDoublingHighMul(c.a, c.b), c.expected) << c.a << " * " << c.b;
  }
}

TEST(SaturatingRoundingDoublingHighMulTest, RandomAgainstExactHalfUp) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  for (int i = 0; i < 200000; ++i) {
    const int32_t a = any(rng), b = any(rng);
    if (a == kMin && b == kMin) continue;
    const long double exact = static_cast<long double>(a) * b / 2147483648.0L;  // exact
    EXPECT_EQ(SaturatingRoundingDoublingHighMul(a, b),
              static_cast<int64_t>(std::floor(exact + 0.5L)))
        << a << " * " << b;
  }
}

TEST(RoundingDivideByPOTTest, Table) {
  struct Case {
    int32_t x;
    int exponent;
    int32_t expected;
  };
  const Case cases[] = {
      {5, 0, 5},          {-5, 0, -5},         {5, 1, 3},        {-5, 1, -3},  // +-2.5
      {4, 1, 2},          {-4, 1, -2},         {6, 2, 2},        {-6, 2, -2},  // +-1.5
      {7, 2, 2},          {-7, 2, -2},         {5, 2, 1},        {-5, 2, -1},  // 1.75, 1.25
      {1, 1, 1},          {-1, 1, -1},         {1, 2, 0},        {-1, 2, 0},
      {kMax, 31, 1},      {kMin, 31, -1},      {k2p30, 31, 1},   {-k2p30, 31, -1},
      {k2p30 - 1, 31, 0}, {-k2p30 + 1, 31, 0}, {kMax, 1, k2p30}, {kMin, 1, -k2p30},
      {kMax, 30, 2},      {kMin, 30, -2},      {0, 31, 0},       {3, 40, 0},  // exponent clamped
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RoundingDivideByPOT(c.x, c.exponent), c.expected) << c.x << " / 2^" << c.exponent;
  }
}

TEST(RoundingDivideByPOTTest, RandomAgainstExactHalfAwayFromZero) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  std::uniform_int_distribution<int> exponent(0, 31);
  for (int i = 0; i < 200000; ++i) {
    const int32_t x = any(rng);
    const int e = exponent(rng);
    const long double v = std::ldexp(static_cast<long double>(x), -e);
    EXPECT_EQ(RoundingDivideByPOT(x, e), static_cast<int64_t>(std::round(v))) << x << " " << e;
  }
}

TEST(RoundingTest, NamesRoundTrip) {
  for (Rounding r : {Rounding::kUpward, Rounding::kToNearest, Rounding::kFloatToNearestEven}) {
    auto parsed = ParseRounding(RoundingName(r));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, r);
  }
  EXPECT_STREQ(RoundingName(Rounding::kUpward), "UPWARD");
  EXPECT_STREQ(RoundingName(Rounding::kToNearest), "TONEAREST");
  EXPECT_STREQ(RoundingName(Rounding::kFloatToNearestEven), "TONEAREST_EVEN");
  for (const char* bad : {"", "upward", "TONEAREST ", "NEAREST", "TONEAREST_ODD"}) {
    EXPECT_FALSE(ParseRounding(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace qnnc::kernels::requantize
