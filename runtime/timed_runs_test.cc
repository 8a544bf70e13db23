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
  auto timed = RunTimed(**executor, {x}, 5);
  ASSERT_TRUE(timed.ok()) << timed.status();
  ASSERT_EQ(timed->run_ms.size(), 5u);
  std::vector<double> sorted = timed->run_ms;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(timed->median_ms, sorted[2]);
  ASSERT_EQ(timed->timings.size(), 2u);
  EXPECT_EQ(timed->timings[0].op, "relu");
  ASSERT_EQ(timed->outputs.size(), 1u);
  EXPECT_FLOAT_EQ(timed->outputs[0].data<float>()[3], 1.0f / (1.0f + std::exp(-2.0f)));
  EXPECT_FALSE(RunTimed(**executor, {x}, 0).ok());
  EXPECT_FALSE(RunTimed(**executor, {}, 1).ok()) << "a run's error stops it";
}

}  // namespace
}  // namespace qnnc::runtime
