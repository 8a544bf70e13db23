// Dense u8 x s8 tiles by the mixed-sign dot product of Armv8.6's int8
// matrix multiply extension (sudot by element: s8 weights, u8 input): exact
// for any s8 weights in one pass, without sdot's input flip and bias term.
// Compiled with +i8mm; a stub elsewhere.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__ARM_FEATURE_MATMUL_INT8)
#include "kernels/spatial_pack/internal/neon_dense_tile.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

struct SudotMac {
  using Input = uint8x16_t;
  static Input Load(uint8x16_t x) { return x; }
  template <int kLane>
  static int32x4_t Dot(int32x4_t acc, int8x16_t w, uint8x16_t x) {
    return vsudotq_laneq_s32(acc, w, x, kLane);
  }
};

}  // namespace

DenseTileFn GetDenseTileI8mm(int nco, int npix, int64_t icblk) {
  return NeonDenseTileFor<SudotMac>(nco, npix, icblk);
}

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no int8 matrix multiply in this build

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileI8mm(int, int, int64_t) { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
