// FuseOps: conv + bias + requantize + clamp become one qnn.conv2d_requantize
// when the conv's implementation applies the requantization in its kernel
// epilogue (Implementation::fuses_requantize). The pattern is
//   [nn.pad] -> (nn.conv2d | qnn.conv2d) -> nn.bias_add* -> qnn.requantize
// with constant biases, a float-mode (TONEAREST_EVEN) requantize with a zero
// input zero point, and every intermediate used once. A leading nn.pad (the
// u8 x s8 legalization pads with the data zero point) becomes the fused op's
// padding and pad_value. The decision attributes move to the fused op.
// Likewise a dynamically quantized convolution (ConvInteger's epilogue)
//   qnn.conv2d -> cast f32 -> multiply(scale) [-> add(constant bias)] [-> clip | relu]
// becomes one qnn.conv2d_dynamic when its implementation applies that
// epilogue (Implementation::fuses_dynamic_epilogue); scale and bias hold 1
// or out-channels values, every intermediate is used once.
#ifndef QNNC_PASSES_FUSE_OPS_H_
#define QNNC_PASSES_FUSE_OPS_H_

#include "passes/pass.h"

namespace qnnc::passes {

class FuseOpsPass : public Pass {
 public:
  std::string name() const override { return "FuseOps"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FUSE_OPS_H_
