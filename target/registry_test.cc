#include "target/registry.h"

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "target/common_implementations.h"
#include "target/dispatch_context.h"

namespace qnnc::target {
namespace {

LegalizeFn Tagged(int tag, int* seen) {
  return [tag, seen](const LegalizeCall&) -> absl::StatusOr<ir::Value*> {
    *seen = tag;
    return nullptr;
  };
}

TEST(Registry, LegalizeLookupGoesFromSpecificToDefault) {
  Registry r;
  int seen = 0;
  ASSERT_TRUE(r.RegisterLegalize("qnn.conv2d", "default", Tagged(1, &seen)).ok());
  ASSERT_TRUE(r.RegisterLegalize("qnn.conv2d", "x86_64", Tagged(2, &seen)).ok());
  ASSERT_TRUE(r.RegisterLegalize("qnn.conv2d", "x86_64+avx512vnni", Tagged(3, &seen)).ok());
  auto find = [&](const char* t) {
    const LegalizeFn* fn = r.FindLegalize("qnn.conv2d", *ParseTarget(t));
    return fn != nullptr;
  };
  ASSERT_TRUE(find("x86_64+avx512vnni"));
  // Call each found function with a dummy call to see which one it is.
  auto graph = ir::ParseGraph("graph @g(%x: f32[1]) {\n  %y = relu(%x)\n  return %y\n}\n");
  ASSERT_TRUE(graph.ok());
  ir::Node* node = (*graph)->nodes()[0];
  FallbackDispatchContext dispatch;
  std::vector<ir::TensorType> tinfos;
  auto tag_for = [&](const char* t) {
    Target target = *ParseTarget(t);
    LegalizeContext ctx{target, dispatch, r, **graph};
    LegalizeCall call{*node, node->attrs(), node->inputs(), tinfos, *node->output()->type(), ctx};
    (*r.FindLegalize("qnn.conv2d", target))(call).IgnoreError();
    return seen;
  };
  EXPECT_EQ(tag_for("x86_64+avx512vnni"), 3);
  EXPECT_EQ(tag_for("x86_64+avx2"), 2);
  EXPECT_EQ(tag_for("aarch64+neon"), 1);
  EXPECT_EQ(tag_for("generic"), 1);
  EXPECT_EQ(r.FindLegalize("qnn.dense", *ParseTarget("generic")), nullptr);
}

TEST(Registry, DuplicatesAreErrors) {
  Registry r;
  int seen = 0;
  ASSERT_TRUE(r.RegisterLegalize("qnn.conv2d", "default", Tagged(1, &seen)).ok());
  EXPECT_FALSE(r.RegisterLegalize("qnn.conv2d", "default", Tagged(1, &seen)).ok());
  ASSERT_TRUE(r.RegisterImplementation("qnn.conv2d", "default", ReferenceImplementation()).ok());
  auto again = r.RegisterImplementation("qnn.conv2d", "x86_64", ReferenceImplementation());
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("registered twice"), std::string::npos);
}

TEST(Registry, MissingDefaultIsReported) {
  Registry r;
  ASSERT_TRUE(r.RegisterImplementation("qnn.dense", "x86_64", ReferenceImplementation()).ok());
  absl::Status s = r.Verify();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no legalize function under 'default'"), std::string::npos) << s;
  EXPECT_TRUE(GlobalRegistry().Verify().ok());
}

TEST(Registry, ImplementationsOfATarget) {
  const Registry& r = GlobalRegistry();
  auto names = [&](const char* t) {
    std::vector<std::string> out;
    for (const Implementation* i : r.Implementations("qnn.conv2d", *ParseTarget(t))) out.push_back(i->name);
    return out;
  };
  auto vnni = names("x86_64+avx512vnni");
  EXPECT_EQ(vnni.front(), "x86.spatial_pack.u8s8.avx512vnni");  // most specific key first
  EXPECT_NE(std::find(vnni.begin(), vnni.end(), "reference"), vnni.end());
  auto generic = names("generic");
  EXPECT_EQ(std::find(generic.begin(), generic.end(), "x86.spatial_pack.u8s8.avx512vnni"), generic.end());
  auto dotprod = names("aarch64+dotprod");
  EXPECT_EQ(dotprod.front(), "arm.spatial_pack.u8s8.dotprod");
  EXPECT_NE(std::find(dotprod.begin(), dotprod.end(), "arm.spatial_pack.int16"), dotprod.end());
  EXPECT_EQ(std::find(dotprod.begin(), dotprod.end(), "arm.spatial_pack.u8s8.i8mm"), dotprod.end());
  EXPECT_EQ(names("aarch64+i8mm").front(), "arm.spatial_pack.u8s8.i8mm");
  EXPECT_EQ(names("aarch64+neon").front(), "arm.spatial_pack.int16");
}

// A legalization's name reads back as the legalization; another name is an
// error listing the names.
TEST(Registry, LegalizationNamesRoundTrip) {
  for (Legalization l : kAllLegalizations) {
    auto back = ParseLegalization(LegalizationName(l));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, l);
  }
  auto bad = ParseLegalization("u8u8");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "unknown legalization 'u8u8' (keep, int16, xnnpack_qu8, xnnpack_qs8, xnnpack_qc8, u8s8, s8s8)");
}

// IR and plans written under a renamed implementation's old name find it.
TEST(Registry, RenamedImplementationsAreFoundByTheirOldNames) {
  const Registry& r = GlobalRegistry();
  const Implementation* now = r.FindImplementation("qnn.conv2d", "x86.spatial_pack.u8s8.avx512vnni");
  ASSERT_NE(now, nullptr);
  EXPECT_EQ(r.FindImplementation("qnn.conv2d", "x86.spatial_pack.u8s8.vnni"), now);
  const Implementation* dynamic = r.FindImplementation("qnn.dense", "x86.spatial_pack.dynamic.avx512vnni");
  ASSERT_NE(dynamic, nullptr);
  EXPECT_EQ(r.FindImplementation("qnn.dense", "x86.spatial_pack.dynamic.vnni"), dynamic);
  EXPECT_EQ(r.FindImplementation("qnn.conv2d", "x86.spatial_pack.u8s8.vnni2"), nullptr);
}

}  // namespace
}  // namespace qnnc::target
