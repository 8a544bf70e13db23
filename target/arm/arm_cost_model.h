// The static cost model of the Arm fallback: no Arm CPU can be measured
// here, so each implementation's cycles for a convolution are estimated
// from its kernel's inner loop on the core's scheduling model (llvm-mca-19,
// bench/arm_mca.py --cost-table writes arm_loop_costs.inc): the
// multiply-accumulates the kernel performs, its tiles' padding included,
// over the loop's MACs per cycle. Records measured on a board still win.
#ifndef QNNC_TARGET_ARM_ARM_COST_MODEL_H_
#define QNNC_TARGET_ARM_ARM_COST_MODEL_H_

#include <optional>
#include <string>

#include "target/config.h"
#include "target/target.h"
#include "target/workload.h"

namespace qnnc::target {

// The Arm kernels the model knows.
enum class ArmKernel { kDotprod, kI8mm, kInt16 };

// The core whose table estimates for `target`: its model (":neoverse-n1",
// or the host's core from MIDR_EL1) when the table has it, else the one
// standing for its level: neoverse-v1 (i8mm), neoverse-n1 (dotprod),
// cortex-a55 (NEON only; the in-order little core).
std::string ArmCostCore(const Target& target);

// The inner loop `kernel` runs `workload` with at `config` (its tile_co and
// tile_ow), as the table names it ("sdot 32x2 c16", "int16 dense 16x8
// strided"); "" for a workload the model does not cover (not a
// convolution, a depthwise window other than 3x3 or 5x5 on the NEON rows,
// an int16 depthwise stride above 2).
std::string ArmLoop(ArmKernel kernel, const Workload& workload, const Config& config);

// The estimated cycles of `kernel` running `workload` at `config` on the
// target's core; none where the model has no loop for it.
std::optional<double> ArmConvCycles(ArmKernel kernel, const Workload& workload, const Target& target,
                                    const Config& config);

}  // namespace qnnc::target

#endif  // QNNC_TARGET_ARM_ARM_COST_MODEL_H_
