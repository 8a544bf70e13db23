// x86_64: native u8 x s8 spatial-pack kernels, VNNI (vpdpbusd) first; on
// AVX2 hosts vpmaddubsw (u8s8.avx2: weight pairs reordered so they fit its
// int16 sum, the rest corrected by the half step; the fallback where at most
// 2% of half steps need a correction, for kernels larger than 1x1 12% where
// each output sums 576 products or more and 18% from 1152, the tuner
// anywhere; two steps share one vpmaddwd where their weights allow: on Zen 5
// at cap avx2, 241-250 GOPS on ResNet-50's 3x3 layers, bench/compare.sh),
// else the int16 kernel (u8i16.avx2, vpmaddwd: 180-192 GOPS there, exact
// for any weights). Both exact; depthwise convolutions run u8s8.avx2's
// int16 depthwise kernel.
// XNNPACK and the portable kernels come from the generic registration.
#include "target/common_implementations.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterX86Target(Registry& registry) {
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx512vnni",
      CompensatedSpatialPack("x86.spatial_pack.u8s8.vnni", 50, true, Feature::kAvx512vnni, 128)));
  // AVX-VNNI (Alder Lake and later, Zen 5): vpdpbusd on ymm, exact in one
  // pass for any weights and twice u8i16.avx2's multiplies per instruction.
  // Conv only, as u8i16.avx2.
  RETURN_IF_ERROR(RegisterForConv(registry, "x86_64+avxvnni",
                                  AvxVnniSpatialPack("x86.spatial_pack.u8s8.avxvnni", 48)));
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx2", MaddubsSpatialPackAvx2("x86.spatial_pack.u8s8.avx2", 46)));
  // Conv only: a dense layer's integer nn.dense runs the int8 dense kernel
  // whichever u8s8 implementation decided it.
  RETURN_IF_ERROR(RegisterForConv(registry, "x86_64+avx2",
                                  U8I16SpatialPackAvx2("x86.spatial_pack.u8i16.avx2", 45)));
  // Dynamically quantized convolutions (a run-time data zero point): VNNI
  // (vpdpbusd where w - zw fits s8, as quantize_dynamic's symmetric s8
  // weights; vpdpwssd otherwise), AVX2's int16 multiply for any weights.
  // A dense layer (MatMulInteger with a constant right operand) runs the
  // dynamic dense kernel (kernels/dense/qnn_matmul.h) under either decision.
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx512vnni",
      DynamicSpatialPack("x86.spatial_pack.dynamic.vnni", 50, Feature::kAvx512vnni)));
  RETURN_IF_ERROR(RegisterForTunableOps(
      registry, "x86_64+avx2",
      DynamicSpatialPack("x86.spatial_pack.dynamic.u8i16.avx2", 45, Feature::kAvx2)));
  return absl::OkStatus();
}

}  // namespace qnnc::target
