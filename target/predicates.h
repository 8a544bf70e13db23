// Building blocks of applicability predicates: each returns OK or an error
// saying what the implementation cannot do.
#ifndef QNNC_TARGET_PREDICATES_H_
#define QNNC_TARGET_PREDICATES_H_

#include "absl/status/status.h"
#include "target/target.h"
#include "target/workload.h"

namespace qnnc::target {

absl::Status NeedsEightBitOperands(const Workload& w);      // u8/i8 data and weight
absl::Status NeedsConstantZeroPoints(const Workload& w);     // known at compile time
absl::Status NeedsConstantWeights(const Workload& w);
absl::Status NeedsPerTensorKernel(const Workload& w);        // scale and zero point
absl::Status NeedsPerChannelScale(const Workload& w);
absl::Status NeedsZeroKernelZeroPoint(const Workload& w);    // symmetric weights
absl::Status NeedsLayout(const Workload& w, const ir::Layout& data, const ir::Layout& kernel);
// The requantization multipliers are known and below `limit` (XNNPACK: 256).
absl::Status NeedsRequantScaleBelow(const Workload& w, double limit);
// Every constant weight minus its zero point lies in [lo, hi].
absl::Status NeedsWeightOffsetsIn(const Workload& w, int64_t lo, int64_t hi);
// A convolution whose kernel runs only fused with its requantize: a
// float-mode (TONEAREST_EVEN) qnn.requantize with constant scales and a zero
// input zero point consumes it (dense ops pass).
absl::Status NeedsFusedRequantize(const Workload& w);
absl::Status NeedsFeature(const Target& t, Feature f);
absl::Status NeedsArch(const Target& t, Arch a);
absl::Status NeedsRealArch(const Target& t);  // not "generic"

}  // namespace qnnc::target

#endif  // QNNC_TARGET_PREDICATES_H_
