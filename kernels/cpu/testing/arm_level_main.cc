// Prints the instruction-set level this CPU's hardware capabilities make
// (arm_hwcaps.h), the features behind it and the core MIDR_EL1 names
// ("core=" and nothing for one the table lacks), one line: built for AArch64 and
// run under qemu at each CPU model by arm_hwcaps_qemu_test.sh.
#include <cstdio>

#include "kernels/cpu/arm_hwcaps.h"

int main() {
  using namespace qnnc::kernels::cpu;
  const ArmFeatures f = ReadArmFeatures();
  std::printf("%s neon=%d dotprod=%d i8mm=%d core=%s\n", IsaLevelName(ArmLevel(f)), f.neon, f.dotprod,
              f.i8mm, ArmCoreName(ReadArmMidr()));
  return 0;
}
