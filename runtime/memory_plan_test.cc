#include "runtime/memory_plan.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace qnnc::runtime {
namespace {

TEST(MemoryPlan, BuffersLiveApartShareTheirBytes) {
  // a: steps 0-1, b: 1-2 (live with a), c: 2-3 (a is dead by then).
  const std::vector<BufferLifetime> buffers = {{128, 0, 1}, {64, 1, 2}, {128, 2, 3}};
  const MemoryPlan plan = PlanMemory(buffers);
  ASSERT_TRUE(CheckMemoryPlan(buffers, plan).ok());
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);  // a's bytes reused by c
  EXPECT_NE(plan.offsets[1], plan.offsets[0]);
  EXPECT_EQ(plan.arena_bytes, 192);
  EXPECT_EQ(plan.peak_bytes, 192);
  EXPECT_EQ(plan.sum_bytes, 320);
}

TEST(MemoryPlan, ArenaBytesKeepThePaddingAndTheAlignment) {
  EXPECT_EQ(ArenaBytes(1), 128);   // 1 + 64 bytes of padding, rounded to 64
  EXPECT_EQ(ArenaBytes(64), 128);
  EXPECT_EQ(ArenaBytes(65), 192);
}

TEST(MemoryPlan, CheckFindsOverlappingLiveBuffers) {
  const std::vector<BufferLifetime> buffers = {{128, 0, 2}, {128, 1, 3}};
  MemoryPlan plan = PlanMemory(buffers);
  ASSERT_TRUE(CheckMemoryPlan(buffers, plan).ok());
  plan.offsets[1] = 64;  // inside buffer 0, both live at steps 1-2
  const absl::Status bad = CheckMemoryPlan(buffers, plan);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.message()).find("buffers 0 (steps 0-2) and 1 (steps 1-3)"), std::string::npos)
      << bad;
  plan.offsets[1] = 256;
  plan.arena_bytes = 300;  // buffer 1 ends at 384
  EXPECT_FALSE(CheckMemoryPlan(buffers, plan).ok());
}

// Random graphs' lifetimes: chains, fans and long-lived tensors of random
// sizes. Every plan is valid, no smaller than the peak and no larger than
// the sum; on these it reuses memory.
TEST(MemoryPlan, RandomLifetimesNeverOverlap) {
  std::mt19937 rng(17);
  int64_t reused = 0;
  for (int graph = 0; graph < 300; ++graph) {
    const int steps = 1 + static_cast<int>(rng() % 60);
    std::vector<BufferLifetime> buffers;
    for (int s = 0; s < steps; ++s) {
      const int outputs = 1 + static_cast<int>(rng() % 2);
      for (int o = 0; o < outputs; ++o) {
        const int span = rng() % 4 == 0 ? static_cast<int>(rng() % steps) : static_cast<int>(rng() % 3);
        buffers.push_back({ArenaBytes(static_cast<int64_t>(rng() % 100000)), s, std::min(steps - 1, s + span)});
      }
    }
    const MemoryPlan plan = PlanMemory(buffers);
    ASSERT_TRUE(CheckMemoryPlan(buffers, plan).ok()) << "graph " << graph;
    EXPECT_GE(plan.arena_bytes, plan.peak_bytes) << "graph " << graph;
    EXPECT_LE(plan.arena_bytes, plan.sum_bytes) << "graph " << graph;
    reused += plan.sum_bytes - plan.arena_bytes;
  }
  EXPECT_GT(reused, 0);
}

}  // namespace
}  // namespace qnnc::runtime
