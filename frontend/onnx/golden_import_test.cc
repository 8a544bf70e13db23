// Golden import tests: every testdata/import/<case>.onnx (written by
// scripts/make_import_cases.py) imports to <case>.expected.qnnir,
// structurally. One test per case, named after it.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "ir/infer_types.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

namespace qnnc::frontend::onnx {
namespace {

namespace fs = std::filesystem;

constexpr char kDir[] = "testdata/import";

std::vector<std::string> Cases() {
  std::vector<std::string> cases;
  for (const auto& f : fs::directory_iterator(kDir)) {
    const std::string name = f.path().filename();
    if (absl::EndsWith(name, ".onnx")) cases.push_back(name.substr(0, name.size() - 5));
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

class GoldenImport : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenImport, MatchesExpectedIr) {
  const std::string base = std::string(kDir) + "/" + GetParam();
  auto graph = ImportOnnxFile(base + ".onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  ASSERT_TRUE(ir::InferTypes(**graph).ok());
  std::ifstream in(base + ".expected.qnnir");
  ASSERT_TRUE(in.good()) << base << ".expected.qnnir is missing";
  std::stringstream text;
  text << in.rdbuf();
  auto expected = ir::ParseGraph(text.str(), base + ".expected.qnnir");
  ASSERT_TRUE(expected.ok()) << expected.status();
  EXPECT_EQ(ir::StructuralDiff(**graph, **expected), "") << "got:\n" << ir::PrintGraph(**graph);
}

INSTANTIATE_TEST_SUITE_P(Cases, GoldenImport, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The directory holds the cases the script writes.
TEST(GoldenImportCases, AreThere) { EXPECT_GE(Cases().size(), 13u); }

}  // namespace
}  // namespace qnnc::frontend::onnx
