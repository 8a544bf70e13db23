// Runs a check at every instruction-set level the host allows (the cap of
// kernels/cpu/isa.h), so one test covers the explicit AVX2 vectors, GCC's
// AVX-512 and baseline clones of a loop, and whatever else a kernel picks
// by level; then restores the cap that was set (or none).
#ifndef QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_
#define QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_

#include <optional>

#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"

namespace qnnc::kernels::testing {

template <typename F>
void AtEveryIsaLevel(F check) {
  // The cap as it was (none, or QNNC_ISA's), back however `check` returns:
  // setting the level detected would be a cap of its own (isa.h: a cap
  // below avx512vnni hides avxvnni and avx512vbmi).
  struct Restore {
    std::optional<cpu::IsaLevel> cap = cpu::IsaCap();
    ~Restore() { cpu::SetIsaCap(cap); }
  } restore;
  const cpu::IsaLevel host = cpu::HostIsaLevel();
  for (cpu::IsaLevel level : cpu::kBuildIsaLevels) {
    if (!cpu::Includes(host, level)) continue;
    cpu::SetIsaCap(level);
    SCOPED_TRACE(cpu::IsaLevelName(level));
    check();
  }
}

}  // namespace qnnc::kernels::testing

#endif  // QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_
