// The requantization epilogue of the NEON kernels: 16 int32 accumulators
// of one pixel (4 registers, channels in order) to 16 bytes, exactly as
// RequantizeScalar (microkernels.h): scvtf and fmul round as the scalar
// float conversion and multiply do, NaN is zeroed before the clamp (fmax
// would keep it), and fcvtns rounds ties to even as nearbyint does. The
// narrowing keeps the low byte, as the scalar cast to uint8_t does.
// Included by the AArch64 microkernels only; the helpers have internal
// linkage so that no copy built with one file's -march (dotprod, i8mm) is
// linked into another's.
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_EPILOGUE_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_EPILOGUE_H_

#include <arm_neon.h>

#include "kernels/spatial_pack/internal/microkernels.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {  // NOLINT(build/namespaces): per ISA file, see above

// The epilogue's constants, in registers.
struct NeonEpilogue {
  float32x4_t lo, hi;
  int32x4_t zp;
  bool nan_check, raw32;
  explicit NeonEpilogue(const Epilogue& e)
      : lo(vdupq_n_f32(e.lo)), hi(vdupq_n_f32(e.hi)), zp(vdupq_n_s32(e.zp)), nan_check(e.nan_check),
        raw32(e.raw32) {}
};

inline int32x4_t NeonRequantize(int32x4_t acc, float32x4_t m, const NeonEpilogue& e) {
  float32x4_t v = vmulq_f32(vcvtq_f32_s32(acc), m);
  if (e.nan_check) v = vbslq_f32(vceqq_f32(v, v), v, vdupq_n_f32(0.0f));
  v = vminq_f32(vmaxq_f32(v, e.lo), e.hi);
  return vaddq_s32(vcvtnq_s32_f32(v), e.zp);
}

// Stores one pixel's 16 channels `acc` (multipliers `mult`) at `out`: 16
// requantized bytes, or with Epilogue::raw32 the 64 bytes of accumulators.
inline void NeonStorePixel(uint8_t* out, const int32x4_t acc[4], const float* mult, const NeonEpilogue& e) {
  if (e.raw32) {
    for (int r = 0; r < 4; ++r) vst1q_u8(out + 16 * r, vreinterpretq_u8_s32(acc[r]));
    return;
  }
  int32x4_t q[4];
  for (int r = 0; r < 4; ++r) q[r] = NeonRequantize(acc[r], vld1q_f32(mult + 4 * r), e);
  const int16x8_t h0 = vcombine_s16(vmovn_s32(q[0]), vmovn_s32(q[1]));
  const int16x8_t h1 = vcombine_s16(vmovn_s32(q[2]), vmovn_s32(q[3]));
  vst1q_u8(out, vreinterpretq_u8_s8(vcombine_s8(vmovn_s16(h0), vmovn_s16(h1))));
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_EPILOGUE_H_
