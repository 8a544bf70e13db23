// Golden IR tests: for every testdata/passes/<Pass>/<case>.input.qnnir, run
// <Pass> and compare with <case>.expected.qnnir structurally. An input whose
// first line is "# target: T" is compiled for T.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "target/target.h"

namespace qnnc::passes {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr char kDir[] = "testdata/passes";

// "<Pass>/<case>" for every <Pass>/<case>.input.qnnir, sorted.
std::vector<std::string> Cases() {
  std::vector<std::string> cases;
  for (const auto& pass_dir : fs::directory_iterator(kDir)) {
    if (!pass_dir.is_directory()) continue;
    const std::string pass = pass_dir.path().filename();
    for (const auto& file : fs::directory_iterator(pass_dir.path())) {
      const std::string name = file.path().filename();
      if (!absl::EndsWith(name, ".input.qnnir")) continue;
      cases.push_back(pass + "/" + name.substr(0, name.size() - std::string(".input.qnnir").size()));
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

// <Pass>/<case>.input.qnnir run through the pass named by its directory is
// <case>.expected.qnnir, structurally. One test per case, named after it.
class GoldenIr : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenIr, MatchesExpectedIr) {
  const std::string pass = GetParam().substr(0, GetParam().find('/'));
  const fs::path input_path = fs::path(kDir) / (GetParam() + ".input.qnnir");
  const fs::path expected_path = fs::path(kDir) / (GetParam() + ".expected.qnnir");
  const std::string text = Read(input_path);
  auto input = ir::ParseGraph(text, input_path.string());
  ASSERT_TRUE(input.ok()) << input.status();
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing";
  auto expected = ir::ParseGraph(Read(expected_path), expected_path.string());
  ASSERT_TRUE(expected.ok()) << expected.status();
  PassContext context;
  // An optional first line "# target: T" names the target (default generic).
  if (absl::StartsWith(text, "# target: ")) {
    auto target = target::ParseTarget(text.substr(10, text.find('\n') - 10));
    ASSERT_TRUE(target.ok()) << target.status();
    context.target = *target;
  }
  std::ostringstream log;
  absl::Status s = PassManager().Run({pass}, **input, context, log);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(ir::StructuralDiff(**input, **expected), "") << "got:\n" << ir::PrintGraph(**input);
}

// Test names may hold only letters, digits and underscores.
std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, GoldenIr, ::testing::ValuesIn(Cases()), TestName);

// Every pass of the pipelines has cases.
TEST(GoldenIrCases, CoverEveryPipelinePass) {
  std::vector<std::string> passes = ImportPipeline();
  for (const std::string& p : DefaultPipeline()) passes.push_back(p);
  for (const std::string& p : passes) {
    EXPECT_TRUE(fs::is_directory(fs::path(kDir) / p)) << "no golden cases for " << p;
  }
}

}  // namespace
}  // namespace qnnc::passes
