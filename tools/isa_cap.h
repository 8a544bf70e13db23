// The tools' --isa flag: an instruction-set cap that makes this host behave
// like a lesser one (kernels/cpu/isa.h). Without the flag, QNNC_ISA applies.
#ifndef QNNC_TOOLS_ISA_CAP_H_
#define QNNC_TOOLS_ISA_CAP_H_

#include <string>

#include "absl/status/status.h"

namespace qnnc::tools {

// The help text of --isa.
inline constexpr char kIsaFlagHelp[] =
    "cap the instruction sets qnnc's own kernels and `--target=host` may use: on x86-64 scalar, "
    "avx2, avxvnni (AVX2 with AVX-VNNI, where the CPU has it), avx512bw or avx512vnni; on AArch64 "
    "scalar, neon, dotprod or i8mm (default: the QNNC_ISA environment variable, else everything the "
    "CPU has; XNNPACK chooses its own microkernels and is not capped)";

// Applies `--isa=flag` (empty: keep QNNC_ISA); an error names the flag or
// the variable and the valid values.
absl::Status ApplyIsaFlag(const std::string& flag);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_ISA_CAP_H_
