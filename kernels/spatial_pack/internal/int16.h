// The portable int16 path (NCHW, zero points already subtracted, padding 0).
// Not a public API. Weights of a dense tile (tile_co output channels):
//   [ic in the tile's range][ky][kx][tile_co]  (i16, zero outside the groups)
// Depthwise weights are OIHW as given.
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_INT16_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_INT16_H_

#include <cstdint>
#include <vector>

#include "kernels/spatial_pack/internal/microkernels.h"
#include "pthreadpool.h"

namespace qnnc::kernels::spatial_pack::internal {

struct Int16Setup {
  Epilogue ep;
  int64_t tile_co = 16, tile_ow = 8;
  std::vector<int32_t> bias;  // padded to whole tiles
  std::vector<float> mult;
  struct Tile {
    int64_t oc0, ic_lo, ic_count, w_offset;
  };
  std::vector<Tile> tiles;
  const int16_t* weights = nullptr;  // packed as the tiles say (depthwise: OIHW)
  int64_t mult_ch = 1;  // depthwise channel multiplier
};

// Lays out s's tiles (and channel multiplier) for weights of this shape;
// returns how many int16 values the packed weights take. Needs no weights:
// a plan's packed weights are checked against it.
int64_t LayOutInt16(int64_t in_channels, int64_t out_channels, int64_t groups, int64_t kh, int64_t kw,
                    bool depthwise, Int16Setup* s);
// Packs OIHW weights `w` into `dst` (LayOutInt16's count of zeros) as s's
// tiles say.
void PackInt16(const int16_t* w, int64_t in_channels, int64_t out_channels, int64_t groups,
               int64_t kh, int64_t kw, bool depthwise, const Int16Setup& s, int16_t* dst);

// The pixels of a row the depthwise kernel sums at once (AArch64), so that
// its input copy needs slack for that many past a row's end.
inline constexpr int kInt16DepthwisePixels = 16;

struct Int16Run {
  const int16_t* in = nullptr;  // padded input [N][C][hp][wp], readable past its end
  uint8_t* out = nullptr;       // [N][OC][OH][OW] (u8 or i8 bytes; i32 with Epilogue::raw32)
  int64_t n, c, hp, wp, oh, ow, oc, groups, kh, kw, sh, sw, dh, dw;
};

void RunInt16(const Int16Setup& s, const Int16Run& r, bool depthwise, pthreadpool_t pool);

}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_INT16_H_
