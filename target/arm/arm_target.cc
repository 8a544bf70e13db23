// aarch64: the u8 x s8 spatial pack on the dot products (sudot where the
// CPU has i8mm, sdot on the flipped input with dotprod; NEON depthwise rows
// under both), and the int16 spatial pack (NEON smlal on zero-point-
// subtracted int16) on every AArch64 CPU. A dense layer the dot products
// decide runs the int8 dense kernel (as on x86). XNNPACK and the reference come
// from the generic registration. The fallback orders the dot-product and
// i8mm ones by the static cost model of the target's core
// (arm_cost_model.h; the int16 kernel, of another legalization, by priority).
#include "kernels/spatial_pack/variants.h"
#include "target/arm/arm_cost_model.h"
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

namespace sp = ::qnnc::kernels::spatial_pack;
using sp::Isa;

namespace {

Implementation Estimated(Implementation impl, ArmKernel kernel) {
  impl.static_cycles = [kernel](const Workload& workload, const Target& target, const Config& config) {
    return ArmConvCycles(kernel, workload, target, config);
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
