// QnnCanonicalize: lowers the qnn ops that no implementation consumes into
// integer and float nn ops. Today that is qnn.requantize whose producer's
// implementation does not apply it in its kernel epilogue: it becomes the op
// sequence of its rounding mode (TONEAREST_EVEN: the float sequence, exactly
// as ONNX Runtime computes it; UPWARD / TONEAREST: fixed_point_multiply).
// It reads the decisions QnnLegalize stored; it decides nothing.
#ifndef QNNC_PASSES_QNN_CANONICALIZE_H_
#define QNNC_PASSES_QNN_CANONICALIZE_H_

#include "passes/pass.h"

namespace qnnc::passes {

class QnnCanonicalizePass : public Pass {
 public:
  std::string name() const override { return "QnnCanonicalize"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_QNN_CANONICALIZE_H_
