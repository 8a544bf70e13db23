#include "target/target.h"

#include "gtest/gtest.h"

namespace qnnc::target {
namespace {

TEST(Target, ParsesTheDocumentedForms) {
  for (const char* text : {"x86_64", "x86_64+avx2", "x86_64+avx512bw+avx512vnni", "aarch64+neon",
                           "aarch64+dotprod", "generic", "x86_64+avx2:skylake"}) {
    auto t = ParseTarget(text);
    ASSERT_TRUE(t.ok()) << text << ": " << t.status();
    auto again = ParseTarget(t->ToString());
    ASSERT_TRUE(again.ok()) << t->ToString();
    EXPECT_EQ(*again, *t) << text;
  }
}

TEST(Target, FeaturesImplyTheirBase) {
  auto t = ParseTarget("x86_64+avx512vnni");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->Has(Feature::kAvx512bw));
  EXPECT_TRUE(t->Has(Feature::kAvx2));
  EXPECT_TRUE(t->Has(Feature::kSse42));
  EXPECT_FALSE(t->Has(Feature::kAvxvnni));
  EXPECT_TRUE(ParseTarget("aarch64+dotprod")->Has(Feature::kNeon));
}

TEST(Target, KeysGoFromSpecificToGeneric) {
  EXPECT_EQ(ParseTarget("x86_64+avx512vnni")->Keys(),
            (std::vector<std::string>{"x86_64+avx512vnni", "x86_64+avx512bw", "x86_64+avx2",
                                      "x86_64+sse4.2", "x86_64", "cpu", "default"}));
  EXPECT_EQ(ParseTarget("aarch64+neon")->Keys(),
            (std::vector<std::string>{"aarch64+neon", "aarch64", "cpu", "default"}));
  EXPECT_EQ(ParseTarget("generic")->Keys(), (std::vector<std::string>{"cpu", "default"}));
}

TEST(Target, ErrorsListTheValidNames) {
  auto arch = ParseTarget("riscv64");
  ASSERT_FALSE(arch.ok());
  EXPECT_NE(arch.status().message().find("x86_64, aarch64"), std::string::npos) << arch.status();
  auto feature = ParseTarget("x86_64+neon");
  ASSERT_FALSE(feature.ok());
  EXPECT_NE(feature.status().message().find("avx512vnni"), std::string::npos) << feature.status();
  EXPECT_FALSE(ParseTarget("").ok());
  EXPECT_FALSE(ParseTarget("x86_64++avx2").ok() && false);
  EXPECT_FALSE(ParseTarget("x86_64 avx2").ok());
}

TEST(Target, HostIsRunnable) {
  Target host = DetectHost();
  EXPECT_TRUE(CanRunOn(host, host));
  EXPECT_TRUE(CanRunOn(*ParseTarget("generic"), host));
#if defined(__x86_64__)
  EXPECT_EQ(host.arch, Arch::kX86_64);
  EXPECT_FALSE(CanRunOn(*ParseTarget("aarch64+neon"), host));
#endif
  EXPECT_EQ(ParseTarget("host")->ToString(), host.ToString());
}

}  // namespace
}  // namespace qnnc::target
