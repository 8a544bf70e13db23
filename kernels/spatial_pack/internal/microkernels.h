// The interface between the kernels (driver.cc, u8s8_dense.cc, ...) and the per-ISA
// microkernels (scalar.cc, avx2.cc, avxvnni.cc, avx512vnni.cc). Not a public API.
//
// Dense u8s8 register tile: `nco` groups of 16 output channels x `npix`
// output pixels of one row. Packed weights of a tile, for its input-channel
// blocks [icb_lo, icb_hi) (the blocks its groups read):
//   [icb][ky][kx][q = icblk/4][j < nco][16 oc][4 ic]   (s8)
// so one step (q, ky, kx) reads nco*64 consecutive bytes, and the 4 input
// channels 4q..4q+3 of a pixel are one 32-bit word of the blocked input.
// AVX2 madd16 (u8 x i16) replaces them by 128 bytes of int16 pairs, four
// ymm: (w[4q], w[4q+2]) of oc 0-7, of oc 8-15, then (w[4q+1], w[4q+3]) of
// oc 0-7, of oc 8-15 (Madd16Offset; "oc 0-7" in the lane order of
// Madd16Lane).
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_MICROKERNELS_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_MICROKERNELS_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace qnnc::kernels::spatial_pack::internal {

// Where madd16 keeps output channel l < 16 of a group: lane (l / 4) % 2 * 8
// + (l / 8) * 4 + l % 4 of its two ymm accumulators (channels 0-3 and 8-11
// in the first, 4-7 and 12-15 in the second), so that vpackssdw of the two
// yields the 16 channels in order, with no cross-lane permute in the
// epilogue. The kernel's bias and multipliers are stored in this order too.
constexpr int Madd16Lane(int l) { return (l / 4) % 2 * 8 + (l / 8) * 4 + l % 4; }

// The int16 index, within the 128 bytes of one (q, j) of madd16 packing, of
// the weight of output channel l < 16 and input channel i < 4 of q.
constexpr int Madd16Offset(int l, int i) {
  return ((i % 2) * 2 + Madd16Lane(l) / 8) * 16 + (Madd16Lane(l) % 8) * 2 + i / 2;
}

// The byte, within one (icb, ky, kx) of the mmla packing of a tile of `nco`
// groups, of the weight of group j's output channel l < 16 and input
// channel i < 16 of the block.
constexpr int MmlaOffset(int j, int l, int i) { return j * 256 + (i / 8) * 128 + (l / 2) * 16 + (l % 2) * 8 + i % 8; }

// Requantization epilogue constants (exact rewrite of reference::Requantize):
// clamping v in float to [lo - zp, hi - zp] (integers) before rounding equals
// clamping after it, and keeps the float->int conversion in range.
struct Epilogue {
  float lo = 0, hi = 0;  // clamp bounds minus the output zero point
  int32_t zp = 0;
  bool nan_check = false;  // a multiplier is not finite: NaN must map to 0
  // Packed 16-bit epilogue (SIMD kernels may use it when set): every
  // multiplier is finite with |m| < 0.5, so |float(acc) * m| <= 2^30 converts
  // to int32 without overflow, and |zp| <= 255. Then round, saturate to int16
  // (values past +-32767 stay past any clamp bound), add zp (saturating),
  // saturate to the dtype and clamp to [lo_abs, hi_abs] (only if `clamp16`:
  // narrower than the dtype; the two commute since the bounds lie inside the
  // dtype), which equals the float-clamp formula above.
  bool packed16 = false;
  bool clamp16 = false;
  bool out_signed = false;  // i8 output
  int16_t lo_abs = 0, hi_abs = 0;
  // Raw accumulators (out_dtype i32: convolutions whose epilogue runs
  // elsewhere, e.g. with a zero point known only at run time): each pixel's
  // 16 int32 accumulators are stored in channel order, kRawPixelBytes per
  // pixel, and nothing above applies.
  bool raw32 = false;
};

// Output bytes per pixel of a 16-channel block: u8/i8, or raw int32.
constexpr int64_t kRawPixelBytes = 64;
inline int64_t OutPixelBytes(const Epilogue& e) { return e.raw32 ? kRawPixelBytes : 16; }

// The 4 bytes at p as one 32-bit word (unaligned): 4 input channels of a
// pixel, broadcast to every lane by the SIMD kernels.
inline int32_t LoadWord(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline int32_t RequantizeScalar(int32_t acc, float m, const Epilogue& e) {
  float v = static_cast<float>(acc) * m;
  if (std::isnan(v)) v = 0.0f;
  v = v < e.lo ? e.lo : v;
  v = v > e.hi ? e.hi : v;
  return static_cast<int32_t>(std::nearbyint(v)) + e.zp;
}

// The stem's taps along the row (u8s8_dense.cc RowTapSteps) runs the madd16
// tile with Q = 1 on a kernel row seen as `kw` = its steps of 8 bytes:
// dil_w_bytes 8, pix_bytes stride_w * 2 C.
struct DenseGeom {
  int64_t icblk = 16;        // input channel block: 16 or 4
  int64_t kh = 1, kw = 1;
  int64_t in_cstride = 0;    // bytes between input channel blocks
  int64_t dil_h_bytes = 0;   // offset of the next ky
  int64_t dil_w_bytes = 0;   // offset of the next kx
  int64_t pix_bytes = 0;     // offset of the next output pixel (stride_w * icblk)
  int64_t out_cstride = 0;   // bytes between output channel blocks
  Epilogue ep;
};

// AVX2 vpmaddubsw: a step whose weights hold a pair that could saturate is
// packed with the part of each such pair that fits (its first weight
// reduced so the pair's magnitudes add up to 128), and the rest of the first
// weights (at most 128 in magnitude) is a correction of each half of the
// step (8 output channels, one ymm of weights) that holds such a pair: once
// its main loop is done, the tile adds the products of the half's first
// channels of each pair (input channels 0 and 2 of the step's word, as int16)
// with them, by one vpmaddwd: a quarter of a step's multiplies.
// Trained weights' large values rarely fill both halves (ResNet-18: 0.16-0.57
// of its steps hold such a pair, 0.08-0.34 of their halves).
//
// A tile's corrections come in three runs: the steps corrected in both
// halves (64 bytes of weights each: the first half's [8 oc][2 pairs] int16,
// then the second's; one input word serves both), then those corrected in
// the first half only, then in the second only (32 bytes each).
enum CorrectionRun { kBothHalves = 0, kFirstHalf = 1, kSecondHalf = 2 };

struct DenseTile {
  const uint8_t* in = nullptr;  // input at (icb_lo, ih0, iw0)
  const int8_t* w = nullptr;    // the tile's packed weights
  int64_t icb_count = 0;
  // The q steps of the last input-channel block that hold real channels of
  // the tile's groups (0: all). The rest have zero weights; the AVX2 kernels
  // skip them (Inception's 8- and 20-channel layers: half and 3/8 of the
  // steps), the others run them.
  int q_last = 0;
  const int32_t* bias = nullptr;  // 16 * nco
  const float* mult = nullptr;    // 16 * nco
  uint8_t* out = nullptr;  // output at (first oc block, oh, ow0): 16 lanes (OutPixelBytes)
  int nco = 1, npix = 1;
  // AVX2 vpmaddubsw only: the tile's corrections, per CorrectionRun: their
  // steps' numbers (input words at step_offsets[number] from `in`, below)
  // and their weights, with the count of each run.
  const int32_t* correction_steps = nullptr;
  const int16_t* correction_w = nullptr;
  int64_t correction_count[3] = {0, 0, 0};
  // AVX2 vpmaddubsw only: the steps the tile runs (step_pairs.h), `paired`
  // pairs (two step numbers each; `w` holds the first's 64 bytes of weights,
  // then the second's), then half_paired[0] pairs that share the first
  // half's vpmaddwd only, half_paired[1] the second's, then `single` steps
  // (64 bytes each). A step's input word is at step_offsets[its number] from
  // `in` (set per run). icb_count and q_last are not used.
  const int64_t* step_offsets = nullptr;
  const int32_t* steps = nullptr;
  int64_t paired = 0, half_paired[2] = {0, 0}, single = 0;
  // AVX2 madd16 only: a tile split into chunks of its input-channel blocks
  // (u8s8_dense.cc, so that a chunk's weights stay in L1 across the tiles
  // of several pixels). With `acc_in` the tile starts from these partial
  // sums instead of the bias; with `acc_out` it leaves its accumulators
  // there instead of running the epilogue. Both [npix][2 * nco][8] int32,
  // in the tile's register order (Madd16Lane).
  const int32_t* acc_in = nullptr;
  int32_t* acc_out = nullptr;
  // AVX2 dense tiles (vpmaddubsw and madd16) only: `strips` tiles of npix
  // pixels side by side in one call, each npix pixels of input
  // (npix * pix_bytes), output and acc_in/acc_out after the one before, so
  // the call, the driver's set-up and the loop nest's are paid once per
  // strip run, not per register tile (a 1x1 layer with K = 16 spent more
  // instructions on them than on its products).
  int strips = 1;
};

using DenseTileFn = void (*)(const DenseGeom&, const DenseTile&);

// Depthwise (NCHW16c, channel multiplier 1; the driver expands the input for
// larger multipliers): one output row of one 16-channel block.
struct DwGeom {
  int64_t h = 0, w = 0, ow = 0;  // input height/width, output width
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pad_t = 0, pad_l = 0;
  int64_t ow_lo = 0, ow_hi = 0;  // output columns whose taps are all inside
  uint8_t zx = 0;                // padding value
  Epilogue ep;
};

struct DwRow {
  const uint8_t* in = nullptr;   // the block's plane [H][W][16]
  const int32_t* w = nullptr;    // [kh * kw][16], int32
  // AVX2: the taps in pairs (tap 2j, 2j+1; an odd last tap with weight 0),
  // [ceil(kh * kw / 2)][16][2], int16.
  const int16_t* w_pairs = nullptr;
  // NEON: [kh * kw][16], int16.
  const int16_t* w16 = nullptr;
  const int32_t* bias = nullptr;  // 16
  const float* mult = nullptr;    // 16
  uint8_t* out = nullptr;         // output row [OW][16] (OutPixelBytes per pixel)
  int64_t oh = 0;
};

using DwRowFn = void (*)(const DwGeom&, const DwRow&);

// Max register tile of each ISA (nco groups of 16 channels, npix pixels).
constexpr int kMaxNcoVnni = 2, kMaxPixVnni = 14;
constexpr int kMaxNcoAvx2 = 1, kMaxPixAvx2 = 6;
// AVX-VNNI: 1 x 6 holds 12 accumulators, 2 weights and the input in the 16
// ymm; the wider tiles (2 x 3 and up) spill, for the tuner to measure.
constexpr int kMaxNcoAvxVnni = 2, kMaxPixAvxVnni = 6;
constexpr int kMaxPixMadd16Vnni = 12;  // 2 x 12 accumulators + 4 weights + 2 inputs
// AArch64 dot products and usmmla: up to 2 x 6 for the tuner; the tiles
// that keep accumulators, weights and inputs in the 32 vector registers
// without spilling are 2 x 2 and 1 x 4 (DefaultConfigU8S8).
constexpr int kMaxNcoNeon = 2, kMaxPixNeon = 6;

// Scalar (portable): any nco/npix.
void DenseTileScalar(const DenseGeom& g, const DenseTile& t);
void DwRowScalar(const DwGeom& g, const DwRow& r);

// Each returns nullptr when the ISA was not compiled in.
// stride_w 1 and 2 get kernels with the pixel stride known at compile time.
DenseTileFn GetDenseTileAvx512Vnni(int nco, int npix, int64_t icblk, int64_t stride_w);
DwRowFn GetDwRowAvx512Vnni();
// u8 x i16 by vpdpwssd: the madd16 packing and widened input (below).
DenseTileFn GetDenseTileMadd16Avx512Vnni(int nco, int npix, int64_t icblk);
// Grouped convolutions whose groups have 4 * group_words (4 or 8) input and
// output channels, blocks of 16 aligned: block j of the tile reads input
// block j (t.in + j * in_cstride), packed [ky][kx][d < group_words][j][16
// oc][4 ic] (s8; AVX2: the madd16 128 bytes per (d, j)).
DenseTileFn GetGroupedTileAvx512Vnni(int nco, int npix, int group_words);
DenseTileFn GetGroupedTileMadd16Avx2(int nco, int npix, int group_words);
// vpmaddubsw: the weights packed so that every pair fits, the rest of those
// that did not in DenseTile::corrections (weight_pairs.h, u8s8_dense.cc).
DenseTileFn GetDenseTileAvx2(int nco, int npix, int64_t icblk);
// vpdpbusd on ymm (AVX-VNNI), on the VNNI packing (above): exact for any s8
// weights in one pass.
DenseTileFn GetDenseTileAvxVnni(int nco, int npix, int64_t icblk);
// u8 x i16 by vpmaddwd, weights packed as madd16 (above), on a widened
// input: each 4 bytes (x0, x1, x2, x3) of the blocked u8 input become 8,
// the int16 pairs (x0, x2) then (x1, x3) (WidenPairs), so a step broadcasts
// two words and multiplies (all geometry in bytes of the widened input).
DenseTileFn GetDenseTileMadd16Avx2(int nco, int npix, int64_t icblk);
// Widens `bytes` (a multiple of 4) bytes of u8 input at `src` into 2 *
// `bytes` at `dst` as above. nullptr when AVX2 was not compiled in.
using WidenFn = void (*)(const uint8_t* src, uint8_t* dst, int64_t bytes);
WidenFn GetWidenPairsAvx2();
// The portable equivalent (any multiple of 4 bytes).
void WidenPairsScalar(const uint8_t* src, uint8_t* dst, int64_t bytes);
// Packs `pixels` 4-byte pixels of u8 input at `src` (one 4-channel block)
// into `dst` keeping each pixel's first `keep` (1-3) channels, widened to
// int16: 2 * keep * pixels bytes, a row's values side by side (the stem's
// taps along the row, u8s8_dense.cc RowTapSteps). nullptr when AVX2 was not
// compiled in.
using PackRowFn = void (*)(const uint8_t* src, uint8_t* dst, int64_t pixels, int keep);
PackRowFn GetPackRowAvx2();
// The portable equivalent.
void PackRowScalar(const uint8_t* src, uint8_t* dst, int64_t pixels, int keep);
// Reorders the channels of each 16-byte pixel of `bytes` (a multiple of 16)
// bytes at `src` into `dst`: dst byte s of a pixel is src byte order[s]
// (a PairingOrder's 16 entries for one block; vpshufb), XORed with the 16
// bytes at `flip` unless it is null. nullptr when AVX2 was not compiled in.
using ShuffleFn = void (*)(const uint8_t* src, uint8_t* dst, int64_t bytes, const uint8_t* order,
                           const uint8_t* flip);
ShuffleFn GetShufflePixelsAvx2();
DwRowFn GetDwRowAvx2();
// AArch64. sdot (dotprod), on the VNNI packing (above): the input read as
// x - 128, so the tile's bias must hold 128 * sum(w) per output channel
// (U8S8Dense::Make adds it). i8mm: u8 x s8 as they are; on NCHW4c input by
// sudot on the VNNI packing, on NCHW16c by usmmla on the mmla packing: the
// same bytes per (icb, ky, kx) as the VNNI packing, ordered
//   [j < nco][h < 2][c < 8][o < 2][k < 8]   (s8)
// the weight of output channel 2c + o of group j, input channel 8h + k
// (MmlaOffset): one register per output-channel pair and half block.
DenseTileFn GetDenseTileDotprod(int nco, int npix, int64_t icblk);
DenseTileFn GetDenseTileI8mm(int nco, int npix, int64_t icblk);
// NEON depthwise rows on DwRow::w16 (every AArch64 CPU).
DwRowFn GetDwRowNeon();

}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_MICROKERNELS_H_
