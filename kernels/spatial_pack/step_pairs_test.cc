#include "kernels/spatial_pack/step_pairs.h"

#include <algorithm>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::spatial_pack {
namespace {

// The definition, lane by lane in int: both steps' products of one int16
// lane (channels 2i, 2i + 1 of each step's word at one output channel),
// with any u8 inputs, stay within int16, and so do each step's own.
bool ShareByRange(const int8_t* a, const int8_t* b) {
  for (int lane = 0; lane < kStepBytes / 2; ++lane) {
    int hi = 0, lo = 0;
    for (const int8_t* s : {a, b}) {
      int own_hi = 0, own_lo = 0;
      for (int k = 0; k < 2; ++k) {
        const int w = s[2 * lane + k];
        (w > 0 ? own_hi : own_lo) += 255 * w;
      }
      if (own_hi > 32767 || own_lo < -32768) return false;
      hi += own_hi;
      lo += own_lo;
    }
    if (hi > 32767 || lo < -32768) return false;
  }
  return true;
}

std::vector<int8_t> RandomSteps(int64_t count, int magnitude, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> w(count * kStepBytes);
  for (auto& v : w) v = static_cast<int8_t>(static_cast<int>(rng() % (2 * magnitude + 1)) - magnitude);
  return w;
}

TEST(StepsShareMaddTest, AtTheLimit) {
  std::vector<int8_t> a(kStepBytes, 32), b(kStepBytes, 32);
  EXPECT_TRUE(StepsShareMadd(a.data(), b.data()));  // 4 x 32 = 128 per lane
  b[5] = 33;
  EXPECT_FALSE(StepsShareMadd(a.data(), b.data()));
  // Negative weights count apart from the positive ones.
  std::fill(a.begin(), a.end(), -64);
  std::fill(b.begin(), b.end(), 0);
  EXPECT_TRUE(StepsShareMadd(a.data(), b.data()));
  b[7] = -1;
  EXPECT_FALSE(StepsShareMadd(a.data(), b.data()));
  b[7] = 127;  // in the lane of -64, -64: its other sign
  EXPECT_TRUE(StepsShareMadd(a.data(), b.data()));
  // A step whose own pair saturates shares with none.
  std::fill(a.begin(), a.end(), 0);
  a[0] = a[1] = 100;
  EXPECT_FALSE(StepsShareMadd(a.data(), b.data()));
}

TEST(StepsShareMaddTest, MatchesTheInt16Range) {
  for (int magnitude : {20, 40, 64, 128}) {
    const std::vector<int8_t> w = RandomSteps(200, magnitude == 128 ? 127 : magnitude, magnitude);
    int shared = 0;
    for (int64_t i = 0; i + 1 < 200; i += 2) {
      const bool want = ShareByRange(&w[i * kStepBytes], &w[(i + 1) * kStepBytes]);
      EXPECT_EQ(StepsShareMadd(&w[i * kStepBytes], &w[(i + 1) * kStepBytes]), want) << magnitude << " " << i;
      shared += want;
    }
    if (magnitude == 20) {
      EXPECT_EQ(shared, 100);
    }
    if (magnitude == 128) {
      EXPECT_EQ(shared, 0);
    }
  }
}

// Half h's lanes of two steps (output channels 8h..8h+7) by ShareByRange.
bool ShareHalfByRange(const int8_t* a, const int8_t* b, int h) {
  std::vector<int8_t> ha(kStepBytes, 0), hb(kStepBytes, 0);
  std::copy(a + 32 * h, a + 32 * h + 32, ha.begin() + 32 * h);
  std::copy(b + 32 * h, b + 32 * h + 32, hb.begin() + 32 * h);
  return ShareByRange(ha.data(), hb.data());
}

// Every step with a nonzero weight exactly once, pairs that may share, half
// pairs that may share their half and not both, and no two singles that
// could have shared either half (maximal matchings); the same twice.
TEST(PairStepsTest, PairsEveryStepOnceAndMaximally) {
  for (int magnitude : {20, 34, 40, 60}) {
    const int64_t count = 150;
    std::vector<int8_t> w = RandomSteps(count, magnitude, 7 + magnitude);
    std::fill(w.begin() + 3 * kStepBytes, w.begin() + 4 * kStepBytes, 0);  // step 3: all zero
    const StepPairing p = PairSteps(w.data(), count);
    auto at = [&](int32_t s) { return &w[s * kStepBytes]; };
    std::vector<int> seen(count, 0);
    for (const auto& pair : p.pairs) {
      EXPECT_TRUE(ShareByRange(at(pair[0]), at(pair[1])));
      ++seen[pair[0]];
      ++seen[pair[1]];
    }
    for (int h = 0; h < 2; ++h) {
      for (const auto& pair : p.half_pairs[h]) {
        EXPECT_TRUE(ShareHalfByRange(at(pair[0]), at(pair[1]), h));
        EXPECT_FALSE(ShareByRange(at(pair[0]), at(pair[1])));
        ++seen[pair[0]];
        ++seen[pair[1]];
      }
    }
    for (int32_t s : p.singles) ++seen[s];
    for (int64_t s = 0; s < count; ++s) EXPECT_EQ(seen[s], s == 3 ? 0 : 1) << "step " << s;
    for (size_t i = 0; i < p.singles.size(); ++i) {
      for (size_t j = i + 1; j < p.singles.size(); ++j) {
        for (int h = 0; h < 2; ++h) EXPECT_FALSE(ShareHalfByRange(at(p.singles[i]), at(p.singles[j]), h));
      }
    }
    EXPECT_TRUE(std::is_sorted(p.singles.begin(), p.singles.end()));
    if (magnitude == 20) {
      EXPECT_EQ(p.singles.size(), 1u);  // 149 steps, any two share
    }
    if (magnitude == 34) {
      EXPECT_GT(p.pairs.size(), 0u);
    }
    const StepPairing again = PairSteps(w.data(), count);
    EXPECT_EQ(again.pairs, p.pairs);
    EXPECT_EQ(again.half_pairs[0], p.half_pairs[0]);
    EXPECT_EQ(again.half_pairs[1], p.half_pairs[1]);
    EXPECT_EQ(again.singles, p.singles);
  }
}

// Weights of 64 in the second half: no two steps share it (or both), and
// any two share the first (small weights): every step half paired there.
TEST(PairStepsTest, HalfPairsWhereTheOtherHalfIsLarge) {
  const int64_t count = 40;
  std::vector<int8_t> w = RandomSteps(count, 20, 3);
  std::mt19937 rng(5);
  for (int64_t s = 0; s < count; ++s) {
    for (int i = 32; i < 64; ++i) w[s * kStepBytes + i] = static_cast<int8_t>(rng() % 2 ? 64 : -64);
  }
  const StepPairing p = PairSteps(w.data(), count);
  EXPECT_TRUE(p.pairs.empty());
  EXPECT_EQ(p.half_pairs[0].size(), static_cast<size_t>(count / 2));
  EXPECT_TRUE(p.half_pairs[1].empty());
  EXPECT_TRUE(p.singles.empty());
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack
