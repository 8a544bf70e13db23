// The legalizations of qnn.conv2d and qnn.dense, one per kind of kernel.
// Each rewrites the op (given its decision) into the form its implementation
// consumes and returns the value replacing the op's output; the op carrying
// the decision gets its attributes (ir::DecisionView::Store). All are exact: the
// rewritten graph computes the same int32 accumulator.
//
//   keep         qnn op unchanged (reference kernel)
//   xnnpack_qu8  u8 data x u8 weights with both zero points (i8 weights are
//                shifted by +128, with their zero point)
//   xnnpack_qs8  i8 data (u8 data shifted by -128, with its zero point) x i8
//                weights whose zero point is 0, per-tensor scale
//   xnnpack_qc8  as qs8 with per-channel weight scales
//   int16        zero points subtracted, cast to int16: nn.conv2d/nn.dense
//                i16 x i16 -> i32 (zero points may be computed at run time)
//   u8s8         u8 data (i8 shifted) padded with its zero point, weights
//                minus their zero point as i8; the constant zero-point
//                compensation -zx * sum(w') folded into a bias
//   s8s8         the same pairing with i8 data (Arm dotprod)
#ifndef QNNC_TARGET_LEGALIZATIONS_H_
#define QNNC_TARGET_LEGALIZATIONS_H_

#include <string>

#include "absl/status/statusor.h"
#include "target/dispatch_context.h"
#include "target/implementation.h"
#include "target/registry.h"

namespace qnnc::target {

// Applies `impl.legalization` to the op of `call` (whose workload is
// `workload`) for `decision`.
absl::StatusOr<ir::Value*> ApplyLegalization(const LegalizeCall& call, const Implementation& impl,
                                             const Workload& workload, const Decision& decision);

// The legalize function of qnn.conv2d and qnn.dense registered for every
// target under "default": extract the workload, decide through the dispatch
// context among the target's implementations, apply the decision's
// legalization. `require_tuned` is read from the registry's caller.
absl::StatusOr<ir::Value*> LegalizeTunableOp(const LegalizeCall& call);

}  // namespace qnnc::target

#endif  // QNNC_TARGET_LEGALIZATIONS_H_
