// x86_64: native u8 x s8 spatial-pack kernels, VNNI (vpdpbusd) first, then
// for AVX2 hosts the one-pass int16 kernel (vpmaddwd, u8i16) of dense
// convolutions, then AVX2 vpmaddubsw (weights beyond [-64, 64] are split in
// two halves by the kernel, exact at about two thirds of u8i16's speed; the
// tuner picks it where the weights fit, one pass, faster).
// XNNPACK and the portable kernels come from the generic registration.
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterX86Target(Registry& registry) {
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx512vnni",
      CompensatedSpatialPack("x86.spatial_pack.u8s8.vnni", 50, true, Feature::kAvx512vnni, 128)));
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx2",
      CompensatedSpatialPack("x86.spatial_pack.u8s8.avx2", 40, true, Feature::kAvx2, 128)));
  // Conv only: a dense layer's integer nn.dense runs the int8 dense kernel
  // whichever u8s8 implementation decided it.
  RETURN_IF_ERROR(RegisterForConv(registry, "x86_64+avx2",
                                  U8I16SpatialPackAvx2("x86.spatial_pack.u8i16.avx2", 45)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
