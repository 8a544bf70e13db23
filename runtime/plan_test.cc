#include "runtime/plan.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"

namespace qnnc::runtime {
namespace {

constexpr char kGraph[] = R"(graph @g(%x: u8[1,4]) {
  %y = relu(%x)
  return %y
}
)";

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = std::string(::testing::TempDir()) + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Plan, RoundTripsTheGraphAndTheTarget) {
  auto graph = ir::ParseGraph(kGraph);
  ASSERT_TRUE(graph.ok()) << graph.status();
  const std::string text = PlanText(**graph, "x86_64+avx2");
  EXPECT_EQ(text.rfind("# qnnc plan v1 target=x86_64+avx2\n", 0), 0u) << text;
  const std::string path = Write("rt.plan", text);
  auto target = ReadPlanTarget(path);
  ASSERT_TRUE(target.ok()) << target.status();
  EXPECT_EQ(*target, "x86_64+avx2");
  // The header is a comment to the IR parser: the plan is the graph.
  auto back = ir::ParseGraph(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(ir::StructuralDiff(**back, **graph), "");
}

TEST(Plan, HeaderWithCrlf) {
  auto target = ParsePlanHeader("# qnnc plan v1 target=generic\r", "p");
  ASSERT_TRUE(target.ok()) << target.status();
  EXPECT_EQ(*target, "generic");
}

TEST(Plan, BadHeadersNameTheFile) {
  auto not_plan = ReadPlanTarget(Write("not.plan", kGraph));
  ASSERT_FALSE(not_plan.ok());
  EXPECT_NE(not_plan.status().message().find("not.plan' is not a qnnc plan"), std::string::npos)
      << not_plan.status();
  auto empty_target = ParsePlanHeader("# qnnc plan v1 target=", "e.plan");
  ASSERT_FALSE(empty_target.ok());
  EXPECT_NE(empty_target.status().message().find("e.plan' line 1: no target"), std::string::npos);
  auto missing = ReadPlanTarget(std::string(::testing::TempDir()) + "/missing.plan");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace qnnc::runtime
