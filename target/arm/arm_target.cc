// aarch64: the int16 spatial pack (NEON smlal on zero-point-subtracted
// int16), with and without dotprod. An s8 x s8 (sdot) implementation will
// join it when it has a kernel: until then a decision for it would run on
// the reference kernel (DESIGN.md rule 3, "a decision is a promise").
#include "kernels/spatial_pack/variants.h"
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterArmTarget(Registry& registry) {
  RETURN_IF_ERROR(RegisterForConv(registry, "aarch64",
                                  Int16SpatialPack(kernels::spatial_pack::kArmInt16Implementation, 40)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
