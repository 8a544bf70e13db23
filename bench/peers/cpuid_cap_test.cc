// The CPUID cap: which bits each level clears, and, where the host can fault
// CPUID, that the capped process sees it and that other faults still crash.
#include "bench/peers/cpuid_cap.h"

#include <cpuid.h>
#include <signal.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "bench/peers/real_fault.h"
#include "gtest/gtest.h"

namespace qnnc::bench {
namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;

CpuidRegs Masked(CpuidCapLevel level, uint32_t leaf, uint32_t subleaf) {
  CpuidRegs r{kAll, kAll, kAll, kAll};
  MaskCpuid(level, leaf, subleaf, &r);
  return r;
}

bool Has(uint32_t reg, int bit) { return (reg >> bit) & 1; }

TEST(CpuidCapTest, ParsesTheLevelsAndRejectsOthers) {
  CpuidCapLevel level;
  ASSERT_TRUE(ParseCpuidCapLevel("avx2", &level));
  EXPECT_EQ(level, CpuidCapLevel::kAvx2);
  ASSERT_TRUE(ParseCpuidCapLevel("avxvnni", &level));
  EXPECT_EQ(level, CpuidCapLevel::kAvxvnni);
  ASSERT_TRUE(ParseCpuidCapLevel("avx512bw", &level));
  EXPECT_EQ(level, CpuidCapLevel::kAvx512bw);
  ASSERT_TRUE(ParseCpuidCapLevel("avx512vnni", &level));
  EXPECT_EQ(level, CpuidCapLevel::kAvx512vnni);
  ASSERT_TRUE(ParseCpuidCapLevel("scalar", &level));
  EXPECT_EQ(level, CpuidCapLevel::kScalar);
  EXPECT_FALSE(ParseCpuidCapLevel("sse4.2", &level));
  EXPECT_FALSE(ParseCpuidCapLevel("AVX2", &level));
  EXPECT_FALSE(ParseCpuidCapLevel("", &level));
}

TEST(CpuidCapTest, Avx2ClearsAvx512AvxVnniAndAmxOnly) {
  const CpuidRegs l7 = Masked(CpuidCapLevel::kAvx2, 7, 0);
  EXPECT_TRUE(Has(l7.ebx, 5));      // AVX2
  EXPECT_TRUE(Has(l7.ebx, 3));      // BMI1
  EXPECT_FALSE(Has(l7.ebx, 16));    // AVX512F
  EXPECT_FALSE(Has(l7.ebx, 30));    // AVX512BW
  EXPECT_FALSE(Has(l7.ebx, 31));    // AVX512VL
  EXPECT_FALSE(Has(l7.ecx, 11));    // AVX512_VNNI
  EXPECT_TRUE(Has(l7.ecx, 9));      // VAES (not AVX-512 only)
  EXPECT_FALSE(Has(l7.edx, 25));    // AMX-INT8
  const CpuidRegs l71 = Masked(CpuidCapLevel::kAvx2, 7, 1);
  EXPECT_FALSE(Has(l71.eax, 4));    // AVX-VNNI
  EXPECT_FALSE(Has(l71.eax, 5));    // AVX512_BF16
  // Leaf 1 (SSE*, AVX, FMA, OSXSAVE) is untouched.
  const CpuidRegs l1 = Masked(CpuidCapLevel::kAvx2, 1, 0);
  EXPECT_EQ(l1.ecx, kAll);
  EXPECT_EQ(l1.edx, kAll);
}

TEST(CpuidCapTest, ScalarClearsEveryAvxButKeepsSse) {
  const CpuidRegs l1 = Masked(CpuidCapLevel::kScalar, 1, 0);
  EXPECT_FALSE(Has(l1.ecx, 28));  // AVX
  EXPECT_FALSE(Has(l1.ecx, 12));  // FMA
  EXPECT_FALSE(Has(l1.ecx, 29));  // F16C
  EXPECT_TRUE(Has(l1.ecx, 20));   // SSE4.2
  EXPECT_TRUE(Has(l1.ecx, 27));   // OSXSAVE
  EXPECT_EQ(l1.edx, kAll);        // SSE, SSE2
  const CpuidRegs l7 = Masked(CpuidCapLevel::kScalar, 7, 0);
  EXPECT_FALSE(Has(l7.ebx, 5));   // AVX2
  EXPECT_FALSE(Has(l7.ebx, 16));  // AVX512F
  EXPECT_TRUE(Has(l7.ebx, 3));    // BMI1
  EXPECT_FALSE(Has(Masked(CpuidCapLevel::kScalar, 7, 1).eax, 4));  // AVX-VNNI
}

TEST(CpuidCapTest, AvxvnniKeepsAvxVnniAndClearsAvx512) {
  EXPECT_FALSE(Has(Masked(CpuidCapLevel::kAvxvnni, 7, 0).ebx, 16));
  EXPECT_FALSE(Has(Masked(CpuidCapLevel::kAvxvnni, 7, 0).ecx, 11));
  EXPECT_TRUE(Has(Masked(CpuidCapLevel::kAvxvnni, 7, 1).eax, 4));
}

TEST(CpuidCapTest, Avx512bwKeepsSkylakeFeaturesOnly) {
  const CpuidRegs l7 = Masked(CpuidCapLevel::kAvx512bw, 7, 0);
  EXPECT_TRUE(Has(l7.ebx, 16));   // F
  EXPECT_TRUE(Has(l7.ebx, 17));   // DQ
  EXPECT_TRUE(Has(l7.ebx, 28));   // CD
  EXPECT_TRUE(Has(l7.ebx, 30));   // BW
  EXPECT_TRUE(Has(l7.ebx, 31));   // VL
  EXPECT_FALSE(Has(l7.ebx, 21));  // IFMA
  EXPECT_FALSE(Has(l7.ecx, 11));  // VNNI
  EXPECT_FALSE(Has(l7.ecx, 1));   // VBMI
  EXPECT_FALSE(Has(Masked(CpuidCapLevel::kAvx512bw, 7, 1).eax, 4));  // AVX-VNNI
}

TEST(CpuidCapTest, Avx512vnniKeepsEverythingButAmx) {
  const CpuidRegs l7 = Masked(CpuidCapLevel::kAvx512vnni, 7, 0);
  EXPECT_EQ(l7.ebx, kAll);
  EXPECT_EQ(l7.ecx, kAll);
  EXPECT_FALSE(Has(l7.edx, 24));  // AMX-TILE
  EXPECT_TRUE(Has(Masked(CpuidCapLevel::kAvx512vnni, 7, 1).eax, 4));
  EXPECT_EQ(Masked(CpuidCapLevel::kAvx512vnni, 0x1D, 0).eax, 0u);  // AMX tile palette
}

bool HostCanFaultCpuid() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string word;
  while (cpuinfo >> word) {
    if (word == "cpuid_fault") return true;
  }
  return false;
}

// Installs the cap in this process for good (the other cases do not run
// CPUID, so their order does not matter).
TEST(CpuidCapTest, CappedProcessSeesNoAvx512AndStillCrashesOnBadPointers) {
  if (!HostCanFaultCpuid()) {
    GTEST_SKIP() << "this CPU or kernel cannot fault CPUID (no cpuid_fault in /proc/cpuinfo)";
  }
  if (const char* outer = std::getenv("QNNC_PEER_ISA"); outer != nullptr && *outer != '\0') {
    GTEST_SKIP() << "this process already runs under the CPUID cap (QNNC_PEER_ISA=" << outer
                 << "): what it reads is not the CPU's";
  }
  unsigned a, b, c, d;
  __cpuid_count(7, 0, a, b, c, d);
  const unsigned uncapped_ebx = b;
  ASSERT_EQ(InstallCpuidCap(CpuidCapLevel::kAvx2), "");
  EXPECT_TRUE(CpuidCapInstalled());
  __cpuid_count(7, 0, a, b, c, d);
  EXPECT_FALSE(Has(b, 16)) << "AVX512F still reported";
  EXPECT_FALSE(Has(c, 11)) << "AVX512_VNNI still reported";
  EXPECT_EQ(Has(b, 5), Has(uncapped_ebx, 5)) << "AVX2 changed";
  // Leaf 0 (vendor, highest leaf) comes through unmasked.
  __cpuid_count(0, 0, a, b, c, d);
  EXPECT_GE(a, 7u);
  // A real fault is not taken for a CPUID: the process dies of it.
  EXPECT_DEATH(StoreToInaccessiblePage(), "");
}

}  // namespace
}  // namespace qnnc::bench
