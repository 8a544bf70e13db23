// AlterOpLayout: gives each fused convolution the activation layout its
// implementation's kernel consumes and produces (the decision's impl_layout;
// today the spatial-pack u8 x s8 kernels' NCHW16c, NCHW4c for an input of at
// most 4 channels) and inserts layout_transform ops around it. It runs for
// fallback decisions as for tuned ones (docs/fallback.md). SimplifyLayout
// then removes back-to-back inverse transforms between such ops.
#ifndef QNNC_PASSES_ALTER_OP_LAYOUT_H_
#define QNNC_PASSES_ALTER_OP_LAYOUT_H_

#include "passes/pass.h"

namespace qnnc::passes {

class AlterOpLayoutPass : public Pass {
 public:
  std::string name() const override { return "AlterOpLayout"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

class SimplifyLayoutPass : public Pass {
 public:
  std::string name() const override { return "SimplifyLayout"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_ALTER_OP_LAYOUT_H_
