// Golden IR tests: for every testdata/passes/<Pass>/<case>.input.qnnir, run
// <Pass> and compare with <case>.expected.qnnir structurally. An input whose
// first line is "# target: T" is compiled for T.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "passes/pass_manager.h"
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

TEST(GoldenIr, EveryCase) {
  int cases = 0;
  for (const auto& pass_dir : fs::directory_iterator("testdata/passes")) {
    if (!pass_dir.is_directory()) continue;
    std::string pass = pass_dir.path().filename();
    for (const auto& file : fs::directory_iterator(pass_dir.path())) {
      std::string name = file.path().filename();
      if (!absl::EndsWith(name, ".input.qnnir")) continue;
      std::string base = name.substr(0, name.size() - std::string(".input.qnnir").size());
      SCOPED_TRACE(pass + "/" + base);
      auto input = ir::ParseGraph(Read(file.path()), file.path().string());
      ASSERT_TRUE(input.ok()) << input.status();
      fs::path expected_path = pass_dir.path() / (base + ".expected.qnnir");
      auto expected = ir::ParseGraph(Read(expected_path), expected_path.string());
      ASSERT_TRUE(expected.ok()) << expected.status();
      PassContext context;
      // An optional first line "# target: T" names the target (default generic).
      std::string text = Read(file.path());
      if (absl::StartsWith(text, "# target: ")) {
        auto target = target::ParseTarget(text.substr(10, text.find('\n') - 10));
        ASSERT_TRUE(target.ok()) << target.status();
        context.target = *target;
      }
      std::ostringstream log;
      absl::Status s = PassManager().Run({pass}, **input, context, log);
      ASSERT_TRUE(s.ok()) << s;
      std::string diff = ir::StructuralDiff(**input, **expected);
      EXPECT_EQ(diff, "") << "got:\n" << ir::PrintGraph(**input);
      ++cases;
    }
  }
  EXPECT_GE(cases, 5);
}

}  // namespace
}  // namespace qnnc::passes
