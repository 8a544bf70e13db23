#include "kernels/cpu/isa.h"

#include <cstdlib>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "kernels/cpu/arm_hwcaps.h"
#include "kernels/cpu_clones.h"

namespace qnnc::kernels::cpu {
namespace {

// Restores the cap a test found.
class IsaTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = IsaCap(); }
  void TearDown() override { SetIsaCap(saved_); }
  std::optional<IsaLevel> saved_;
};

TEST_F(IsaTest, NamesRoundTrip) {
  for (IsaLevel l : kBuildIsaLevels) {
    auto parsed = ParseIsaLevel(IsaLevelName(l));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, l);
  }
  auto bad = ParseIsaLevel("avx");
  ASSERT_FALSE(bad.ok());
  const std::string valid = kBuildArch == Arch::kX86_64 ? "valid: scalar, avx2, avxvnni, avx512bw, avx512vnni)"
                                                        : "valid: scalar, neon, dotprod, i8mm)";
  EXPECT_NE(std::string(bad.status().message()).find(valid), std::string::npos) << bad.status();
  // Every level has a name of its own; a level of the other architecture is
  // named, and refused as a cap here.
  std::set<std::string> names;
  for (IsaLevel l : kAllIsaLevels) {
    EXPECT_TRUE(names.insert(IsaLevelName(l)).second) << IsaLevelName(l);
    IsaLevel named;
    ASSERT_TRUE(IsaLevelNamed(IsaLevelName(l), &named));
    EXPECT_EQ(named, l);
    if (!LevelOfArch(l, kBuildArch)) {
      auto other = ParseIsaLevel(IsaLevelName(l));
      ASSERT_FALSE(other.ok()) << IsaLevelName(l);
      EXPECT_NE(std::string(other.status().message()).find("this build is for"), std::string::npos)
          << other.status();
    }
  }
}

TEST(IsaLevelTest, IncludesKeepsToOneArchitecture) {
  EXPECT_TRUE(Includes(IsaLevel::kAvx512vnni, IsaLevel::kAvx2));
  EXPECT_TRUE(Includes(IsaLevel::kAvxvnni, IsaLevel::kAvx2));
  EXPECT_FALSE(Includes(IsaLevel::kAvxvnni, IsaLevel::kAvx512bw));
  EXPECT_TRUE(Includes(IsaLevel::kAvx512bw, IsaLevel::kAvxvnni));  // the numeric order: see isa_level.h
  EXPECT_TRUE(Includes(IsaLevel::kI8mm, IsaLevel::kDotprod));
  EXPECT_TRUE(Includes(IsaLevel::kDotprod, IsaLevel::kNeon));
  EXPECT_FALSE(Includes(IsaLevel::kNeon, IsaLevel::kDotprod));
  for (IsaLevel arm : kArmIsaLevels) {
    EXPECT_TRUE(Includes(arm, IsaLevel::kScalar));
    if (arm == IsaLevel::kScalar) continue;
    EXPECT_FALSE(Includes(IsaLevel::kScalar, arm));
    for (IsaLevel x86 : kX86IsaLevels) {
      if (x86 == IsaLevel::kScalar) continue;
      EXPECT_FALSE(Includes(arm, x86)) << IsaLevelName(arm) << " " << IsaLevelName(x86);
      EXPECT_FALSE(Includes(x86, arm)) << IsaLevelName(x86) << " " << IsaLevelName(arm);
    }
  }
}

TEST(ArmHwcapsTest, FeaturesAndLevelFromTheKernelsBits) {
  struct Case {
    uint64_t hwcap, hwcap2;
    IsaLevel level;
  };
  const Case cases[] = {
      {0, 0, IsaLevel::kScalar},
      {kHwcapAsimd, 0, IsaLevel::kNeon},                               // Cortex-A72
      {kHwcapAsimd | kHwcapAsimddp, 0, IsaLevel::kDotprod},            // Neoverse-N1
      {kHwcapAsimd | kHwcapAsimddp, kHwcap2I8mm, IsaLevel::kI8mm},     // Neoverse-V1
      {kHwcapAsimd, kHwcap2I8mm, IsaLevel::kNeon},                     // i8mm needs the dot product
      {kHwcapAsimddp, kHwcap2I8mm, IsaLevel::kScalar},                 // nothing without Advanced SIMD
      {~uint64_t{0} & ~kHwcapAsimddp, ~uint64_t{0} & ~kHwcap2I8mm, IsaLevel::kNeon},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ArmLevel(ArmFeaturesFromHwcaps(c.hwcap, c.hwcap2)), c.level)
        << std::hex << c.hwcap << " " << c.hwcap2;
  }
}

// The core a MIDR_EL1 value names: Arm's implementer (0x41) and the part
// number; variant and revision do not matter; another implementer's or an
// unknown part gives "".
TEST(ArmCoreNameTest, ArmPartsByNumber) {
  EXPECT_STREQ(ArmCoreName(0x410fd083), "cortex-a72");
  EXPECT_STREQ(ArmCoreName(0x414fd0c1), "neoverse-n1");  // r4p1
  EXPECT_STREQ(ArmCoreName(0x411fd402), "neoverse-v1");
  EXPECT_STREQ(ArmCoreName(0x412fd050), "cortex-a55");
  EXPECT_STREQ(ArmCoreName(0x000f0510), "");  // qemu's max: implementer 0
  EXPECT_STREQ(ArmCoreName(0x510fd0c0), "");  // the N1's part number, another implementer
  EXPECT_STREQ(ArmCoreName(0x410fdfff), "");  // an unknown part
  EXPECT_STREQ(ArmCoreName(0), "");
}

TEST_F(IsaTest, CapLowersTheLevelAndTheFeaturesNeverRaisesThem) {
  const IsaLevel detected = DetectedIsaLevel();
  SetIsaCap(std::nullopt);
  const bool cpu_has_avxvnni = HostCpuFeatures().avxvnni;
  for (IsaLevel cap : kBuildIsaLevels) {
    SetIsaCap(cap);
    IsaLevel expected = Includes(detected, cap) ? cap : detected;
    if (expected == IsaLevel::kAvxvnni && !cpu_has_avxvnni) expected = IsaLevel::kAvx2;
    EXPECT_EQ(HostIsaLevel(), expected) << IsaLevelName(cap);
    const CpuFeatures f = HostCpuFeatures();
    if (!Includes(cap, IsaLevel::kAvx2)) {
      EXPECT_FALSE(f.avx2);
    }
    if (!Includes(cap, IsaLevel::kAvx512bw)) {
      EXPECT_FALSE(f.avx512bw);
    }
    if (!Includes(cap, IsaLevel::kAvx512vnni)) {
      EXPECT_FALSE(f.avx512vnni || f.avx512vbmi);
    }
    if (!Includes(cap, IsaLevel::kNeon)) {
      EXPECT_FALSE(f.neon);
    }
    if (!Includes(cap, IsaLevel::kDotprod)) {
      EXPECT_FALSE(f.dotprod);
    }
    if (!Includes(cap, IsaLevel::kI8mm)) {
      EXPECT_FALSE(f.i8mm);
    }
    // AVX-VNNI: at its own level and avx512vnni's, where the CPU has it.
    EXPECT_EQ(f.avxvnni, cpu_has_avxvnni && (HostIsaLevel() == IsaLevel::kAvxvnni ||
                                             HostIsaLevel() == IsaLevel::kAvx512vnni))
        << IsaLevelName(cap);
    EXPECT_NE(DescribeHostIsa().find(std::string("capped at ") + IsaLevelName(cap)),
              std::string::npos)
        << DescribeHostIsa();
  }
  SetIsaCap(std::nullopt);
  EXPECT_EQ(HostIsaLevel(), detected);
  EXPECT_EQ(DescribeHostIsa().find("capped"), std::string::npos);
}

TEST_F(IsaTest, FeaturesAreConsistentWithTheLevel) {
  SetIsaCap(std::nullopt);
  const CpuFeatures f = HostCpuFeatures();
  const IsaLevel l = HostIsaLevel();
  EXPECT_EQ(f.avx2, Includes(l, IsaLevel::kAvx2));
  EXPECT_EQ(f.avx512bw, Includes(l, IsaLevel::kAvx512bw));
  EXPECT_EQ(f.avx512vnni, Includes(l, IsaLevel::kAvx512vnni));
  EXPECT_EQ(f.neon, Includes(l, IsaLevel::kNeon));
  EXPECT_EQ(f.dotprod, Includes(l, IsaLevel::kDotprod));
  EXPECT_EQ(f.i8mm, Includes(l, IsaLevel::kI8mm));
  if (l == IsaLevel::kAvxvnni) {
    EXPECT_TRUE(f.avxvnni);
  }
  std::cout << "host: " << DescribeHostIsa() << "\n";
}

// AVX-VNNI is a branch off avx2: kept at its own level and at avx512vnni's
// (where the CPU has it), hidden at avx2's, avx512bw's (Skylake-X and
// Cascade Lake lack it) and scalar's.
TEST_F(IsaTest, CapsBelowOrBesideAvxVnniHideIt) {
  for (IsaLevel cap : {IsaLevel::kScalar, IsaLevel::kAvx2, IsaLevel::kAvx512bw}) {
    SetIsaCap(cap);
    // avx512bw on a CPU of level avxvnni (AVX-VNNI without AVX-512, as
    // Alder Lake) is a cap above the CPU: it lowers to avxvnni, which keeps
    // AVX-VNNI (the next loop).
    if (cap == IsaLevel::kAvx512bw && DetectedIsaLevel() == IsaLevel::kAvxvnni) continue;
    EXPECT_FALSE(HostCpuFeatures().avxvnni) << "cap " << IsaLevelName(cap);
  }
  SetIsaCap(std::nullopt);
  const bool cpu_has = HostCpuFeatures().avxvnni;
  for (IsaLevel cap : {IsaLevel::kAvxvnni, IsaLevel::kAvx512vnni}) {
    SetIsaCap(cap);
    // A cap above the CPU's level lowers to what the CPU has; AVX-VNNI
    // itself is never added.
    if (!cpu_has) {
      EXPECT_FALSE(HostCpuFeatures().avxvnni) << "cap " << IsaLevelName(cap);
    }
    if (cpu_has && HostIsaLevel() == cap) {
      EXPECT_TRUE(HostCpuFeatures().avxvnni) << "cap " << IsaLevelName(cap);
    }
  }
  SetIsaCap(std::nullopt);
}

TEST_F(IsaTest, BadEnvironmentIsAnErrorNamingTheVariable) {
  const char* old = std::getenv("QNNC_ISA");
  std::string saved = old ? old : "";
  setenv("QNNC_ISA", "avx3", 1);
  absl::Status s = CheckIsaEnvironment();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("QNNC_ISA"), std::string::npos);
  setenv("QNNC_ISA", IsaLevelName(kBuildIsaLevels[1]), 1);
  EXPECT_TRUE(CheckIsaEnvironment().ok());
  if (old) {
    setenv("QNNC_ISA", saved.c_str(), 1);
  } else {
    unsetenv("QNNC_ISA");
  }
}

// A loop the compiler vectorizes: every clone must give the same sums.
struct SumTask {
  const int32_t* x;
  int64_t* out;
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const SumTask& t = *static_cast<const SumTask*>(ctx);
    int64_t s = 0;
    for (size_t i = start; i < start + count; ++i) s += static_cast<int64_t>(t.x[i]) * t.x[i];
    *t.out = s;
  }
};

TEST_F(IsaTest, ClonesPerLevelComputeTheSameAndFollowTheCap) {
  std::vector<int32_t> x(1000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i * 7919 % 2001) - 1000;
  int64_t want = 0;
  for (int32_t v : x) want += static_cast<int64_t>(v) * v;
  using Clones = CpuClones<&SumTask::RunBody>;
  for (IsaLevel l : kBuildIsaLevels) {
    if (!Includes(DetectedIsaLevel(), l)) {
      std::cout << "clone for " << IsaLevelName(l) << " not run: the CPU lacks it\n";
      continue;
    }
    int64_t got = 0;
    SumTask t{x.data(), &got};
    Clones::For(l)(&t, 0, x.size());
    EXPECT_EQ(got, want) << IsaLevelName(l);
    SetIsaCap(l);
    EXPECT_EQ(Clones::Pick(), Clones::For(l));
  }
#if QNNC_HAS_CPU_CLONES
  EXPECT_NE(Clones::For(IsaLevel::kScalar), Clones::For(IsaLevel::kAvx2));
  EXPECT_NE(Clones::For(IsaLevel::kAvx2), Clones::For(IsaLevel::kAvx512vnni));
#endif
}

}  // namespace
}  // namespace qnnc::kernels::cpu
