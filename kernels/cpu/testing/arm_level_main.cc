// Prints the instruction-set level this CPU's hardware capabilities make
// (arm_hwcaps.h) and the features behind it, one line: built for AArch64 and
// run under qemu at each CPU model by arm_hwcaps_qemu_test.sh.
#include <cstdio>

#include "kernels/cpu/arm_hwcaps.h"

int main() {
  using namespace qnnc::kernels::cpu;
  const ArmFeatures f = ReadArmFeatures();
  std::printf("%s neon=%d dotprod=%d i8mm=%d\n", IsaLevelName(ArmLevel(f)), f.neon, f.dotprod, f.i8mm);
  return 0;
}
