// The generic target: what every target can fall back to. Registers the
// legalize function of the tunable ops, the reference implementation, the
// portable int16 spatial pack (its default, with a run-time data zero point
// too) and the portable int8 dense kernel, under "default".
#include "kernels/spatial_pack/variants.h"
#include "target/common_implementations.h"
#include "target/legalizations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterGenericTarget(Registry& registry) {
  for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
    RETURN_IF_ERROR(registry.RegisterLegalize(op, "default", LegalizeTunableOp));
  }
  RETURN_IF_ERROR(RegisterForTunableOps(registry, "default", ReferenceImplementation()));
  // Convolutions only: no int16 or XNNPACK dense kernel is bound by the
  // runtime yet (kernels/xnnpack/dense awaits it), so a dense decision for
  // them would run on the reference kernel.
  RETURN_IF_ERROR(RegisterForConv(registry, "default",
                                  Int16SpatialPack(kernels::spatial_pack::kGenericInt16Implementation, 10)));
  // Statically quantized dense layers: the int8 dense kernel on any CPU,
  // below the u8 x s8 implementations of the x86 and Arm targets.
  RETURN_IF_ERROR(registry.RegisterImplementation(
      "qnn.dense", "default",
      CompensatedSpatialPack(kernels::spatial_pack::kU8S8DenseAnyCpuImplementation, 11, true, std::nullopt, 128)));
  // Dynamically quantized convolutions and dense layers (a run-time data
  // zero point) on the portable int16 kernel: every CPU, below the x86
  // ones where those apply, so the tuner can compare them.
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "default", DynamicInt16SpatialPack(kernels::spatial_pack::DynamicImplementation(std::nullopt), 12)));
  // XNNPACK runs on x86_64 and aarch64 alike (its predicate refuses generic).
  RETURN_IF_ERROR(RegisterForConv(registry, "cpu", XnnpackQu8(30)));
  RETURN_IF_ERROR(RegisterForConv(registry, "cpu", XnnpackQs8(31)));
  RETURN_IF_ERROR(RegisterForConv(registry, "cpu", XnnpackQc8(32)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
