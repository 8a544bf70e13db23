// AlterOpLayout: gives each fused convolution the activation layouts its
// decision's kernel reads and writes (impl_layout and impl_out_layout, from
// the implementation: NCHW16c for the spatial-pack u8 x s8 kernels, NCHW4c
// for their stem's input, NHWC for XNNPACK) and inserts layout_transform ops
// around it; the ops between such convolutions that can run blocked (pools,
// residual adds, lookups, concats, takes, quantize/dequantize, pads, resize
// and the dynamic models' float ops) follow their producers' layout, each by
// its op's rule (layout_rules.h; a family's rules are in
// ops/<family>/<family>_layout.cc). It runs for fallback decisions as for
// tuned ones (docs/fallback.md). SimplifyLayout (simplify_layout.h) then
// removes the transforms that cancel.
#ifndef QNNC_PASSES_ALTER_OP_LAYOUT_H_
#define QNNC_PASSES_ALTER_OP_LAYOUT_H_

#include "passes/pass.h"

namespace qnnc::passes {

class AlterOpLayoutPass : public Pass {
 public:
  std::string name() const override { return "AlterOpLayout"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_ALTER_OP_LAYOUT_H_
