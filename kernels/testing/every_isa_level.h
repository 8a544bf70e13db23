// Runs a check at every instruction-set level the host allows (the cap of
// kernels/cpu/isa.h), so one test covers the explicit AVX2 vectors, GCC's
// AVX-512 and baseline clones of a loop, and whatever else a kernel picks
// by level; then restores the host's level.
#ifndef QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_
#define QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_

#include "kernels/cpu/isa.h"
#include "gtest/gtest.h"

namespace qnnc::kernels::testing {

template <typename F> void AtEveryIsaLevel(F check) {
  const cpu::IsaLevel host = cpu::HostIsaLevel();
  for (cpu::IsaLevel level : cpu::kAllIsaLevels) {
    if (level > host)
      continue;
    cpu::SetIsaCap(level);
    SCOPED_TRACE(cpu::IsaLevelName(level));
    check();
  }
  cpu::SetIsaCap(host);
}

} // namespace qnnc::kernels::testing

#endif // QNNC_KERNELS_TESTING_EVERY_ISA_LEVEL_H_
