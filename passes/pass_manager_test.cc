#include "passes/pass_manager.h"

#include <algorithm>
#include <sstream>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "passes/pass_registry.h"
#include "passes/pipeline.h"

namespace qnnc::passes {
namespace {

constexpr char kGraph[] = R"(
graph @g(%x: f32[2]) {
  %a = const f32[2] [1, 2]
  %b = const f32[2] [3, 4]
  %c = add(%a, %b)
  %y = add(%x, %c)
  return %y
}
)";

TEST(PassManager, RunsPipelineAndPrintsMatchingPasses) {
  auto g = ir::ParseGraph(kGraph);
  ASSERT_TRUE(g.ok()) << g.status();
  PassManagerOptions options;
  options.print_ir_after = "Fold.*";
  options.time_passes = true;
  std::ostringstream log;
  PassContext context;
  ASSERT_TRUE(PassManager(options).Run(DefaultPipeline(), **g, context, log).ok());
  std::string text = log.str();
  EXPECT_NE(text.find("# IR after FoldConstant"), std::string::npos) << text;
  EXPECT_EQ(text.find("# IR after InferTypes"), std::string::npos) << text;
  EXPECT_NE(text.find("pass DeadCodeElimination"), std::string::npos) << text;
  EXPECT_NE(text.find("(total)"), std::string::npos);
  EXPECT_EQ((*g)->num_nodes(), 1u);  // the constant add was folded
}

TEST(PassManager, ImportAndDefaultPipelinesAreRegisteredPasses) {
  std::vector<std::string> names = PassRegistry::Global().Names();
  std::vector<std::string> all = ImportPipeline();
  for (const std::string& pass : DefaultPipeline()) all.push_back(pass);
  for (const std::string& pass : all) {
    EXPECT_NE(std::find(names.begin(), names.end(), pass), names.end()) << pass;
  }
  EXPECT_EQ(ImportPipeline(false, false),
            (std::vector<std::string>{"DeadCodeElimination", "InferTypes"}));
  EXPECT_EQ(ImportPipeline(true, false).size(), 4u);
}

TEST(PassManager, Errors) {
  auto g = ir::ParseGraph(kGraph);
  ASSERT_TRUE(g.ok());
  std::ostringstream log;
  PassContext context;
  absl::Status unknown = PassManager().Run({"NoSuchPass"}, **g, context, log);
  EXPECT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("FoldConstant"), std::string::npos) << unknown;  // lists known
  PassManagerOptions bad;
  bad.print_ir_after = "(";
  EXPECT_FALSE(PassManager(bad).Validate().ok());
}

TEST(PassRegistry, DuplicateRejected) {
  PassRegistry r;
  EXPECT_TRUE(RegisterBuiltinPasses(r).ok());
  EXPECT_FALSE(RegisterBuiltinPasses(r).ok());
}

}  // namespace
}  // namespace qnnc::passes
