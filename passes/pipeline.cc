#include "passes/pipeline.h"

#include "passes/alter_op_layout.h"
#include "passes/dead_code_elimination.h"
#include "passes/fold_constant.h"
#include "passes/fold_constant_keep_dequantize.h"
#include "passes/fuse_lookup.h"
#include "passes/fuse_ops.h"
#include "passes/fuse_qdq.h"
#include "passes/gather_channels.h"
#include "passes/infer_types_pass.h"
#include "passes/qnn_canonicalize.h"
#include "passes/qnn_legalize.h"
#include "passes/simplify_layout.h"
#include "util/status_macros.h"

namespace qnnc::passes {

template <typename P>
static PassFactory Factory() {
  return [] { return std::make_unique<P>(); };
}

absl::Status RegisterBuiltinPasses(PassRegistry& r) {
  RETURN_IF_ERROR(r.Register("InferTypes", Factory<InferTypesPass>()));
  RETURN_IF_ERROR(r.Register("FoldConstant", Factory<FoldConstantPass>()));
  RETURN_IF_ERROR(r.Register("FoldConstantKeepDequantize", Factory<FoldConstantKeepDequantizePass>()));
  RETURN_IF_ERROR(r.Register("FuseQdq", Factory<FuseQdqPass>()));
  RETURN_IF_ERROR(r.Register("DeadCodeElimination", Factory<DeadCodeEliminationPass>()));
  RETURN_IF_ERROR(r.Register("QnnLegalize", Factory<QnnLegalizePass>()));
  RETURN_IF_ERROR(r.Register("QnnCanonicalize", Factory<QnnCanonicalizePass>()));
  RETURN_IF_ERROR(r.Register("FuseLookup", Factory<FuseLookupPass>()));
  RETURN_IF_ERROR(r.Register("GatherChannels", Factory<GatherChannelsPass>()));
  RETURN_IF_ERROR(r.Register("FuseOps", Factory<FuseOpsPass>()));
  RETURN_IF_ERROR(r.Register("AlterOpLayout", Factory<AlterOpLayoutPass>()));
  RETURN_IF_ERROR(r.Register("SimplifyLayout", Factory<SimplifyLayoutPass>()));
  return absl::OkStatus();
}

std::vector<std::string> DefaultPipeline() {
  return {"InferTypes",     "FoldConstant",  "QnnLegalize", "QnnCanonicalize", "FoldConstant",
          "FuseLookup",     "GatherChannels", "FuseOps",    "AlterOpLayout",   "SimplifyLayout",
          "DeadCodeElimination"};
}

}  // namespace qnnc::passes
