// PickForIsa: the widest body a level runs, on either architecture; the
// fallback where no body applies.
#include "kernels/cpu_clones.h"

#include "gtest/gtest.h"

namespace qnnc::kernels {
namespace {

using cpu::IsaLevel;

int Avx512() { return 512; }
int Avx2() { return 2; }
int Neon() { return 128; }
int Fallback() { return 0; }
using Fn = int (*)();

int Picked(IsaLevel level, const IsaBodies<Fn>& bodies) { return PickForIsa<Fn>(level, bodies, &Fallback)(); }

TEST(PickForIsa, WidestBodyTheLevelRuns) {
  const IsaBodies<Fn> all{&Avx512, &Avx2, &Neon};
  EXPECT_EQ(Picked(IsaLevel::kScalar, all), 0);
  EXPECT_EQ(Picked(IsaLevel::kAvx2, all), 2);
  EXPECT_EQ(Picked(IsaLevel::kAvxvnni, all), 2);
  EXPECT_EQ(Picked(IsaLevel::kAvx512bw, all), 512);
  EXPECT_EQ(Picked(IsaLevel::kAvx512vnni, all), 512);
  EXPECT_EQ(Picked(IsaLevel::kNeon, all), 128);
  EXPECT_EQ(Picked(IsaLevel::kDotprod, all), 128);
  EXPECT_EQ(Picked(IsaLevel::kI8mm, all), 128);
}

TEST(PickForIsa, MissingBodiesFallThrough) {
  EXPECT_EQ(Picked(IsaLevel::kAvx512bw, {nullptr, &Avx2, nullptr}), 2);
  EXPECT_EQ(Picked(IsaLevel::kAvx2, {&Avx512, nullptr, &Neon}), 0);
  EXPECT_EQ(Picked(IsaLevel::kNeon, {&Avx512, &Avx2, nullptr}), 0);
}

TEST(PickForIsa, BodiesNamedOnlyWhereCompiled) {
  const IsaBodies<Fn> named{QNNC_X86_BODY(Avx512), QNNC_X86_BODY(Avx2), QNNC_NEON_BODY(Neon)};
  EXPECT_EQ(named.avx512 != nullptr, QNNC_HAS_CPU_CLONES == 1);
#if defined(__aarch64__)
  EXPECT_NE(named.neon, nullptr);
#else
  EXPECT_EQ(named.neon, nullptr);
#endif
}

}  // namespace
}  // namespace qnnc::kernels
