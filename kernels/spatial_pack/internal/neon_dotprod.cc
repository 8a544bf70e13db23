// Dense u8 x s8 tiles by the dot product (sdot, Armv8.2 DotProd): sdot
// multiplies s8 by s8, so each input byte is read as x - 128 (its top bit
// flipped) and the kernel's bias carries the 128 * sum(w) of each output
// channel (U8S8Dense::Make): exact for any s8 weights in one pass.
// Compiled with +dotprod; a stub elsewhere.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__ARM_FEATURE_DOTPROD)
#include "kernels/spatial_pack/internal/neon_dense_tile.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

struct SdotMac {
  using Input = int8x16_t;
  static Input Load(uint8x16_t x) { return vreinterpretq_s8_u8(veorq_u8(x, vdupq_n_u8(0x80))); }
  template <int kLane>
  static int32x4_t Dot(int32x4_t acc, int8x16_t w, int8x16_t x) {
    return vdotq_laneq_s32(acc, w, x, kLane);
  }
};

}  // namespace

DenseTileFn GetDenseTileDotprod(int nco, int npix, int64_t icblk) {
  return NeonDenseTileFor<SdotMac>(nco, npix, icblk);
}

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no dot product in this build

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileDotprod(int, int, int64_t) { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
