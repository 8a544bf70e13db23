#include "passes/import_pipeline.h"

#include <functional>
#include <memory>

#include "absl/strings/str_cat.h"
#include "ir/infer_types.h"
#include "passes/dead_code_elimination.h"
#include "passes/fold_constant.h"
#include "passes/fold_constant_keep_dequantize.h"
#include "passes/fuse_qdq.h"
#include "passes/infer_types_pass.h"

namespace qnnc::passes {
namespace {

// The passes ImportPipeline names (the registry holds them too, in
// pipeline.cc; this list avoids linking the rest of the pipeline).
absl::StatusOr<std::unique_ptr<Pass>> Create(const std::string& name) {
  if (name == "FoldConstantKeepDequantize") return std::make_unique<FoldConstantKeepDequantizePass>();
  if (name == "FuseQdq") return std::make_unique<FuseQdqPass>();
  if (name == "FoldConstant") return std::make_unique<FoldConstantPass>();
  if (name == "DeadCodeElimination") return std::make_unique<DeadCodeEliminationPass>();
  if (name == "InferTypes") return std::make_unique<InferTypesPass>();
  return absl::InternalError(absl::StrCat("the import pipeline has no pass ", name));
}

}  // namespace

std::vector<std::string> ImportPipeline(bool fold_constants, bool fuse_qdq) {
  std::vector<std::string> names;
  if (fold_constants) names.push_back("FoldConstantKeepDequantize");
  if (fuse_qdq) names.push_back("FuseQdq");
  if (fold_constants) names.push_back("FoldConstant");
  names.push_back("DeadCodeElimination");
  names.push_back("InferTypes");
  return names;
}

absl::Status RunImportPipeline(ir::Graph& graph, bool fold_constants, bool fuse_qdq,
                               int64_t max_bytes) {
  PassContext context;
  context.max_bytes = max_bytes;
  for (const std::string& name : ImportPipeline(fold_constants, fuse_qdq)) {
    absl::StatusOr<std::unique_ptr<Pass>> pass = Create(name);
    if (!pass.ok()) return pass.status();
    // Types re-inferred after each pass, as the PassManager does.
    absl::Status s = (*pass)->Run(graph, context);
    if (s.ok()) s = ir::InferTypes(graph);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("pass ", name, ": ", s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace qnnc::passes
