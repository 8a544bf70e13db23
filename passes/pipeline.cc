#include "passes/pipeline.h"

#include "passes/dead_code_elimination.h"
#include "passes/fold_constant.h"
#include "passes/infer_types_pass.h"
#include "util/status_macros.h"

namespace qnnc::passes {

template <typename P>
static PassFactory Factory() {
  return [] { return std::make_unique<P>(); };
}

absl::Status RegisterBuiltinPasses(PassRegistry& r) {
  RETURN_IF_ERROR(r.Register("InferTypes", Factory<InferTypesPass>()));
  RETURN_IF_ERROR(r.Register("FoldConstant", Factory<FoldConstantPass>()));
  RETURN_IF_ERROR(r.Register("DeadCodeElimination", Factory<DeadCodeEliminationPass>()));
  return absl::OkStatus();
}

std::vector<std::string> DefaultPipeline() {
  // Legalization, layout and fusion passes join here with the target issue.
  return {"InferTypes", "FoldConstant", "DeadCodeElimination"};
}

}  // namespace qnnc::passes
