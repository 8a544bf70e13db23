// aarch64: the u8 x s8 spatial pack on the dot products (sudot where the
// CPU has i8mm, sdot on the flipped input with dotprod; NEON depthwise rows
// under both), and the int16 spatial pack (NEON smlal on zero-point-
// subtracted int16) on every AArch64 CPU. A dense layer the dot products
// decide runs the int8 dense kernel (as on x86). XNNPACK and the reference come
// from the generic registration. The fallback orders the dot-product and
// i8mm ones by the static cost model of the target's core
// (arm_cost_model.h; the int16 kernel, of another legalization, by priority),
// and each one's tile is the one the model estimates fastest there.
#include "kernels/spatial_pack/variants.h"
#include "target/arm/arm_cost_model.h"
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

namespace sp = ::qnnc::kernels::spatial_pack;
using sp::Isa;

namespace {

// A tile must be estimated this much faster than the kernel library's
// default to replace it: several loops of the table lie within 1% of each
// other per multiply-accumulate (the int16 tiles on the big cores), and
// what the model leaves out (packing, the edges of a row) is not that
// small.
constexpr double kTileMargin = 0.05;

// The config of the workload's space the cost model estimates fastest on
// the target's core (so the tile follows the core, not only the level),
// where it beats the kernel library's default by kTileMargin; else that
// default.
Config CheapestConfig(const Implementation& impl, ArmKernel kernel, const Workload& workload,
                      const Target& target) {
  const Config fallback = impl.default_config(workload, target);
  const std::optional<double> fallback_cycles = ArmConvCycles(kernel, workload, target, fallback);
  std::optional<Config> best;
  std::optional<double> best_cycles;
  const ConfigSpace space = SpaceFor(impl, workload);
  for (int64_t i = 0; i < space.size(); ++i) {
    Config config = space.At(i);
    const std::optional<double> cycles = ArmConvCycles(kernel, workload, target, config);
    if (cycles && (!best_cycles || *cycles < *best_cycles)) {
      best = std::move(config);
      best_cycles = cycles;
    }
  }
  if (!best || (fallback_cycles && *best_cycles > *fallback_cycles * (1 - kTileMargin))) return fallback;
  return *best;
}

// `impl` with the static cost model: its estimate, and a fallback config
// chosen by it.
Implementation Estimated(Implementation impl, ArmKernel kernel) {
  impl.static_cycles = [kernel](const Workload& workload, const Target& target, const Config& config) {
    return ArmConvCycles(kernel, workload, target, config);
  };
  impl.default_config = [kernel, model = impl](const Workload& workload, const Target& target) {
    return CheapestConfig(model, kernel, workload, target);
  };
  return impl;
}

}  // namespace

absl::Status RegisterArmTarget(Registry& registry) {
  RETURN_IF_ERROR(RegisterU8S8(
      registry, "aarch64+i8mm", sp::U8S8VariantOf<Isa::kI8mm>(),
      [](const std::string& name, int priority) {
        return Estimated(CompensatedSpatialPack(name, priority, true, Feature::kI8mm, 128), ArmKernel::kI8mm);
      },
      50));
  RETURN_IF_ERROR(RegisterU8S8(
      registry, "aarch64+dotprod", sp::U8S8VariantOf<Isa::kDotprod>(),
      [](const std::string& name, int priority) {
        return Estimated(CompensatedSpatialPack(name, priority, true, Feature::kDotprod, 128),
                         ArmKernel::kDotprod);
      },
      48));
  RETURN_IF_ERROR(RegisterForConv(
      registry, "aarch64", Estimated(Int16SpatialPack(sp::kArmInt16Implementation, 40), ArmKernel::kInt16)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
