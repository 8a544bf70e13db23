// The Arm fallback's static cost model: the table covers every loop the
// Arm implementations' default configs lead to on every core it models, the
// core is the target's own or its level's, the tiles' padding counts, and
// the estimates order the kernels as their instructions' throughput does.
#include "target/arm/arm_cost_model.h"

#include <string>

#include "gtest/gtest.h"
#include "kernels/spatial_pack/variants.h"
#include "target/common_implementations.h"
#include "target/registry.h"

namespace qnnc::target {
namespace {

namespace sp = ::qnnc::kernels::spatial_pack;

// An NCHW u8 convolution, `size` x `size` output, stride 1.
Workload Conv(int64_t in_channels, int64_t out_channels, int64_t kernel, int64_t size,
              int64_t groups = 1) {
  Workload w;
  w.op = "qnn.conv2d";
  w.groups = groups;
  w.data = {tensor::DType::kU8, {1, in_channels, size + kernel - 1, size + kernel - 1}};
  w.weight = {tensor::DType::kI8, {out_channels, in_channels / groups, kernel, kernel}};
  w.output = {tensor::DType::kI32, {1, out_channels, size, size}};
  return w;
}

Workload Strided(Workload w) {
  w.strides = {2, 2};
  return w;
}

Workload Depthwise(int64_t channels, int64_t kernel, int64_t size) {
  return Conv(channels, channels, kernel, size, channels);
}

struct ArmImplementations {
  Registry registry;
  const Implementation* i8mm;
  const Implementation* dotprod;
  const Implementation* int16;
  ArmImplementations() {
    EXPECT_TRUE(RegisterArmTarget(registry).ok());
    i8mm = registry.FindImplementation("qnn.conv2d", sp::U8S8VariantOf<sp::Isa::kI8mm>().implementation);
    dotprod = registry.FindImplementation("qnn.conv2d", sp::U8S8VariantOf<sp::Isa::kDotprod>().implementation);
    int16 = registry.FindImplementation("qnn.conv2d", sp::kArmInt16Implementation);
  }
};

std::optional<double> Cycles(const Implementation& impl, const Workload& w, const Target& t) {
  return impl.static_cycles(w, t, impl.default_config(w, t));
}

TEST(ArmCostModel, EveryDefaultLoopOfEveryModelledCoreIsInTheTable) {
  ArmImplementations arm;
  ASSERT_NE(arm.i8mm, nullptr);
  ASSERT_NE(arm.dotprod, nullptr);
  ASSERT_NE(arm.int16, nullptr);
  const Workload layers[] = {Conv(3, 32, 3, 112),  Conv(4, 16, 3, 56), Conv(64, 64, 3, 56),
                             Conv(32, 16, 1, 112), Conv(96, 24, 1, 56), Conv(320, 1280, 1, 7),
                             Conv(64, 64, 3, 5),   Depthwise(144, 3, 56), Depthwise(672, 5, 7),
                             Strided(Conv(16, 32, 3, 28))};
  for (const char* target : {"aarch64+i8mm:neoverse-v1", "aarch64+dotprod:neoverse-n1",
                             "aarch64+dotprod:cortex-a55", "aarch64+neon:cortex-a55"}) {
    const Target t = *ParseTarget(target);
    for (const Workload& w : layers) {
      const std::string layer = w.data.ToString() + " * " + w.weight.ToString();
      EXPECT_TRUE(Cycles(*arm.int16, w, t).has_value()) << target << " int16 " << layer;
      if (t.Has(Feature::kDotprod)) {
        EXPECT_TRUE(Cycles(*arm.dotprod, w, t).has_value()) << target << " dotprod " << layer;
      }
      if (t.Has(Feature::kI8mm)) {
        EXPECT_TRUE(Cycles(*arm.i8mm, w, t).has_value()) << target << " i8mm " << layer;
      }
    }
  }
}

TEST(ArmCostModel, TheCoreIsTheTargetsOwnElseItsLevels) {
  EXPECT_EQ(ArmCostCore(*ParseTarget("aarch64+dotprod:cortex-a55")), "cortex-a55");
  EXPECT_EQ(ArmCostCore(*ParseTarget("aarch64+dotprod")), "neoverse-n1");
  EXPECT_EQ(ArmCostCore(*ParseTarget("aarch64+i8mm")), "neoverse-v1");
  EXPECT_EQ(ArmCostCore(*ParseTarget("aarch64+neon")), "cortex-a55");
  // A core the table lacks: its level's.
  EXPECT_EQ(ArmCostCore(*ParseTarget("aarch64+neon:cortex-a72")), "cortex-a55");
  // The same layer costs more cycles on the little core.
  ArmImplementations arm;
  const Workload w = Conv(64, 64, 3, 56);
  EXPECT_GT(*Cycles(*arm.dotprod, w, *ParseTarget("aarch64+dotprod:cortex-a55")),
            *Cycles(*arm.dotprod, w, *ParseTarget("aarch64+dotprod:neoverse-n1")));
}

TEST(ArmCostModel, TilesArePaidForWhole) {
  const Target t = *ParseTarget("aarch64+dotprod");
  const Config tile{{"tile_co", 32}, {"tile_ow", 2}};
  // 20 output channels run one 32-channel tile; 33 run two.
  EXPECT_EQ(ArmConvCycles(ArmKernel::kDotprod, Conv(64, 20, 1, 8), t, tile),
            ArmConvCycles(ArmKernel::kDotprod, Conv(64, 32, 1, 8), t, tile));
  EXPECT_EQ(*ArmConvCycles(ArmKernel::kDotprod, Conv(64, 33, 1, 8), t, tile),
            2 * *ArmConvCycles(ArmKernel::kDotprod, Conv(64, 32, 1, 8), t, tile));
  // 9 input channels are read as a 16-channel block.
  EXPECT_EQ(ArmConvCycles(ArmKernel::kDotprod, Conv(9, 32, 1, 8), t, tile),
            ArmConvCycles(ArmKernel::kDotprod, Conv(16, 32, 1, 8), t, tile));
  EXPECT_EQ(ArmLoop(ArmKernel::kDotprod, Conv(9, 32, 1, 8), tile), "sdot 32x2 c16");
  EXPECT_EQ(ArmLoop(ArmKernel::kI8mm, Conv(3, 32, 3, 8), {{"tile_co", 16}, {"tile_ow", 4}}), "sudot 16x4 c4");
  Workload strided = Conv(16, 32, 3, 8);
  strided.strides = {2, 2};
  EXPECT_EQ(ArmLoop(ArmKernel::kInt16, strided, {{"tile_co", 16}, {"tile_ow", 8}}), "int16 dense 16x8 strided");
}

TEST(ArmCostModel, WhatItDoesNotCoverHasNoEstimate) {
  const Target t = *ParseTarget("aarch64+dotprod");
  Workload dense;
  dense.op = "qnn.dense";
  EXPECT_FALSE(ArmConvCycles(ArmKernel::kDotprod, dense, t, {}).has_value());
  // The NEON depthwise rows are modelled for 3x3 and 5x5 windows only.
  EXPECT_FALSE(ArmConvCycles(ArmKernel::kDotprod, Depthwise(32, 7, 14), t, {}).has_value());
  // A tile the table has no loop for.
  EXPECT_FALSE(
      ArmConvCycles(ArmKernel::kDotprod, Conv(64, 64, 1, 8), t, {{"tile_co", 16}, {"tile_ow", 6}}).has_value());
}

TEST(ArmCostModel, EstimatesRankTheKernelsAsTheirInstructionsDo) {
  ArmImplementations arm;
  const Workload w = Conv(64, 64, 3, 56);
  // usmmla over sdot over int16 smlal where the core has them.
  const Target v1 = *ParseTarget("aarch64+i8mm");
  EXPECT_LT(*Cycles(*arm.i8mm, w, v1), *Cycles(*arm.dotprod, w, v1));
  EXPECT_LT(*Cycles(*arm.dotprod, w, v1), *Cycles(*arm.int16, w, v1));
  for (const char* target : {"aarch64+dotprod", "aarch64+dotprod:cortex-a55"}) {
    const Target t = *ParseTarget(target);
    EXPECT_LT(*Cycles(*arm.dotprod, w, t), *Cycles(*arm.int16, w, t)) << target;
  }
  // Depthwise: the u8 x s8 kernels' NEON rows alike under both.
  const Workload dw = Depthwise(144, 3, 56);
  EXPECT_EQ(*Cycles(*arm.dotprod, dw, v1), *Cycles(*arm.i8mm, dw, v1));
}

TEST(ArmCostModel, TheFallbackTileIsTheCoresFastest) {
  ArmImplementations arm;
  const Workload w = Conv(64, 64, 3, 56);
  const Config wide{{"tile_co", 32}, {"tile_ow", 2}}, tall{{"tile_co", 16}, {"tile_ow", 4}};
  // The library's default for 64 channels is 32x2; 16x4 replaces it where the
  // model finds it at least 5% faster.
  for (const char* target : {"aarch64+dotprod:cortex-a55", "aarch64+dotprod:neoverse-n1",
                             "aarch64+dotprod:neoverse-v1"}) {
    const Target t = *ParseTarget(target);
    const double wide_cycles = *ArmConvCycles(ArmKernel::kDotprod, w, t, wide);
    const double tall_cycles = *ArmConvCycles(ArmKernel::kDotprod, w, t, tall);
    EXPECT_EQ(arm.dotprod->default_config(w, t), tall_cycles <= 0.95 * wide_cycles ? tall : wide) << target;
  }
  // The table's rows: 16x4 on the in-order little core (12% fewer cycles),
  // 32x2 on the big ones (16x4 within 3%).
  EXPECT_EQ(arm.dotprod->default_config(w, *ParseTarget("aarch64+dotprod:cortex-a55")), tall);
  EXPECT_EQ(arm.dotprod->default_config(w, *ParseTarget("aarch64+dotprod:neoverse-n1")), wide);
  // 40 output channels: 16x4 pads them to 48, 32x2 to 64.
  EXPECT_EQ(arm.dotprod->default_config(Conv(64, 40, 3, 56), *ParseTarget("aarch64+dotprod:neoverse-n1")), tall);
  // The int16 tiles lie within 1% of each other per MAC on Neoverse-N1: the
  // library's default stays.
  const Target n1 = *ParseTarget("aarch64+neon:neoverse-n1");
  EXPECT_EQ(arm.int16->default_config(w, n1), Int16SpatialPack(sp::kArmInt16Implementation, 40).default_config(w, n1));
  // Every fallback config is a point of the implementation's space.
  for (const Workload& layer : {w, Conv(3, 32, 3, 112), Depthwise(144, 3, 56), Strided(Conv(16, 32, 3, 28))}) {
    for (const Implementation* impl : {arm.dotprod, arm.i8mm, arm.int16}) {
      const Target t = *ParseTarget("aarch64+i8mm:cortex-a55");
      EXPECT_TRUE(SpaceFor(*impl, layer).Validate(impl->default_config(layer, t)).ok()) << impl->name;
    }
  }
}

}  // namespace
}  // namespace qnnc::target
