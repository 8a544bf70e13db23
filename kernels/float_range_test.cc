#include "kernels/float_range.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/every_isa_level.h"

namespace qnnc::kernels {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// At every level the host allows (AVX-512, AVX2 or NEON vectors, the
// scalar loop), each length up to a few vectors past the widest: the range
// the serial loop gives, bit for bit (a NaN never enters, -0 never replaces
// +0), and the infinities counted.
TEST(FloatRangeTest, TheSerialLoopsRangeAtEveryLevel) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-50.0f, 50.0f);
  std::vector<float> x(100);
  testing::AtEveryIsaLevel([&] {
    const FloatRangeFn range = PickFloatRange();
    for (int trial = 0; trial < 40; ++trial) {
      for (float& v : x) v = trial % 4 == 0 ? std::fabs(u(rng)) : u(rng);
      // Specials at random places: NaN, -0, the extremes, infinities.
      const float specials[] = {std::nanf(""), -0.0f, std::numeric_limits<float>::lowest(),
                                std::numeric_limits<float>::max(), kInf, -kInf};
      for (int k = 0; k < trial % 7; ++k) x[rng() % x.size()] = specials[rng() % 6];
      for (int64_t n = 0; n <= static_cast<int64_t>(x.size()); n += 1 + trial % 5) {
        const FloatRange want = internal::RangeScalar(x.data(), n);
        const FloatRange got = range(x.data(), n);
        ASSERT_TRUE(SameBits(got.lo, want.lo) && SameBits(got.hi, want.hi))
            << "n " << n << ": [" << got.lo << ", " << got.hi << "], want [" << want.lo << ", " << want.hi << "]";
        ASSERT_EQ(got.infinities, want.infinities) << "n " << n;
      }
    }
  });
  // All -0 and NaN: the range stays [+0, +0].
  std::vector<float> odd(37, -0.0f);
  odd[5] = std::nanf("");
  const FloatRange r = PickFloatRange()(odd.data(), static_cast<int64_t>(odd.size()));
  EXPECT_TRUE(SameBits(r.lo, 0.0f) && SameBits(r.hi, 0.0f));
  EXPECT_EQ(r.infinities, 0);
}

}  // namespace
}  // namespace qnnc::kernels
