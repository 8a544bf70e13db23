// aarch64: the int16 spatial pack is the default without dotprod (NEON
// smlal on zero-point-subtracted int16); with dotprod, s8 x s8 (sdot) with
// the zero-point compensation folded into the bias.
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterArmTarget(Registry& registry) {
  RETURN_IF_ERROR(RegisterForTunableOps(registry, "aarch64",
                                        Int16SpatialPack("arm.spatial_pack.int16", 40)));
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "aarch64+dotprod",
      CompensatedSpatialPack("arm.spatial_pack.s8s8.dotprod", 50, false, Feature::kDotprod, 128)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
