#include "runtime/timed_runs.h"

#include <algorithm>
#include <cmath>

#include "gtest/gtest.h"
#include "ir/text_parser.h"

namespace qnnc::runtime {
namespace {

TEST(RunTimed, MediansOfRunsAndOfEachOp) {
  auto graph = ir::ParseGraph(R"(graph @g(%x: f32[4]) {
  %y = relu(%x)
  %z = sigmoid(%y)
  return %z
})");
  ASSERT_TRUE(graph.ok()) << graph.status();
  auto executor = Executor::Create(*std::move(graph), {});
  ASSERT_TRUE(executor.ok()) << executor.status();
  const tensor::Tensor x = tensor::Tensor::FromVector<float>({4}, {-1, 0, 1, 2});
  auto timed = RunTimed(**executor, {x}, RunCount{5});
  ASSERT_TRUE(timed.ok()) << timed.status();
  ASSERT_EQ(timed->run_ms.size(), 5u);
  std::vector<double> sorted = timed->run_ms;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(timed->median_ms, sorted[2]);
  ASSERT_EQ(timed->timings.size(), 2u);
  EXPECT_EQ(timed->timings[0].op, "relu");
  ASSERT_EQ(timed->outputs.size(), 1u);
  EXPECT_FLOAT_EQ(timed->outputs[0].data<float>()[3], 1.0f / (1.0f + std::exp(-2.0f)));
  EXPECT_GT(timed->cold_ms, 0.0);
  EXPECT_FALSE(RunTimed(**executor, {x}, RunCount{-1}).ok());
  EXPECT_FALSE(RunTimed(**executor, {}, RunCount{1}).ok()) << "a run's error stops it";
}

TEST(RunTimed, ByDefaultEnoughRunsToFillTheTimeAtLeastTheMinimum) {
  auto graph = ir::ParseGraph(R"(graph @g(%x: f32[4]) {
  %y = relu(%x)
  return %y
})");
  ASSERT_TRUE(graph.ok()) << graph.status();
  auto executor = Executor::Create(*std::move(graph), {});
  ASSERT_TRUE(executor.ok()) << executor.status();
  const tensor::Tensor x = tensor::Tensor::FromVector<float>({4}, {-1, 0, 1, 2});
  // A tiny model fills 20 ms only with many runs, and the cap stops it.
  RunCount count;
  count.min_seconds = 0.02;
  count.max_runs = 50;
  auto capped = RunTimed(**executor, {x}, count);
  ASSERT_TRUE(capped.ok()) << capped.status();
  double sum = 0;
  for (double ms : capped->run_ms) sum += ms;
  EXPECT_TRUE(capped->run_ms.size() == 50u || sum >= 20.0) << capped->run_ms.size() << " runs, " << sum << " ms";
  EXPECT_GE(capped->run_ms.size(), 10u);
  // No time to fill: the minimum number of runs.
  count.min_seconds = 0;
  auto minimum = RunTimed(**executor, {x}, count);
  ASSERT_TRUE(minimum.ok()) << minimum.status();
  EXPECT_EQ(minimum->run_ms.size(), 10u);
  count.min_runs = 0;
  EXPECT_FALSE(RunTimed(**executor, {x}, count).ok());
}

}  // namespace
}  // namespace qnnc::runtime
