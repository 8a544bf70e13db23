// What the spatial-pack kernels share (the package's own header, not its
// API): parameter checks, output geometry, the epilogue, padding (PadRows,
// PadCopy, BandPad), per-thread scratch and the kernel classes' makers. The
// kernels: u8s8_dense.cc, u8s8_depthwise.cc, int16_kernel.cc; the ISA choice,
// configs and factories of conv2d.h: conv2d.cc.
#ifndef QNNC_KERNELS_SPATIAL_PACK_DRIVER_H_
#define QNNC_KERNELS_SPATIAL_PACK_DRIVER_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/conv2d.h"
#include "kernels/spatial_pack/internal/microkernels.h"

namespace qnnc::kernels::spatial_pack {

using internal::Epilogue;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat("spatial_pack conv2d: ", args...));
}

// A per-thread, 64-byte aligned scratch buffer (slot 0: padded input, slot 1:
// expanded depthwise input, slot 2: a tile for a tile epilogue, slot 3: a
// small depthwise map copied padded, slot 4: the partial sums of a dense
// tile split into input-channel chunks). Reused
// across runs: no allocation per call.
uint8_t* Scratch(int slot, size_t bytes);

inline constexpr int64_t kMaxExtent = int64_t{1} << 16;
// The padded input copy a run may make (per thread), at most.
inline constexpr int64_t kMaxPaddedBytes = int64_t{1} << 30;

absl::Status CheckPaddedBytes(int64_t bytes);

bool IsDepthwise(const QuantizedConvParams& p);

// The weights w - zw as int16 values, from an i8 tensor or an i16 one (8-bit
// weights minus a zero point, in [-255, 255]).
absl::StatusOr<std::vector<int16_t>> WeightValues(const Tensor& w);

bool FitsS8(const std::vector<int16_t>& v);

// u8s8 kernels write blocks of 16 channels and read them, except the dense
// kernel of an image (in_channels <= 4: the stem), which reads blocks of 4.
inline constexpr int64_t kU8S8OutputBlock = 16;
inline int64_t U8S8InputBlock(const QuantizedConvParams& p) {
  return p.in_channels <= 4 && !IsDepthwise(p) ? 4 : kU8S8OutputBlock;
}

absl::Status ValidateParams(const QuantizedConvParams& p, const tensor::Tensor& weight,
                            DType weight_dtype);
// The same for a weight of `weight_shape` (restoring packed weights).
absl::Status ValidateParams(const QuantizedConvParams& p, const Shape& weight_shape);

Epilogue MakeEpilogue(const QuantizedConvParams& p);

// Bias and multipliers padded to `channels` (extra channels: 0 and 1).
std::vector<int32_t> PaddedBias(const QuantizedConvParams& p, int64_t channels);
std::vector<float> PaddedMultipliers(const QuantizedConvParams& p, int64_t channels);

// Resolves tile_co/tile_ow from `config` (defaults for missing knobs).
absl::StatusOr<std::pair<int64_t, int64_t>> ResolveTiles(const KnobMap& config,
                                                         const KnobSpace& space,
                                                         const KnobMap& defaults);

struct OutGeom {
  int64_t n, h, w, oh, ow;
};

absl::StatusOr<OutGeom> Geometry(const QuantizedConvParams& p, const Shape& in, int64_t block,
                                 DType want_dtype, DType got_dtype);

absl::Status PrepareOutput(Tensor* output, DType dtype, const Shape& shape);

// Padded rows of planes [h][w][elem] -> [hp][wp][elem], with a border of
// `top`/`left` filled with the byte `fill` (elem bytes per pixel; fill is
// repeated bytewise, enough for u8 values and i16 zeros). With `widen` (the
// u8i16 kernels) every 4 bytes become the int16 pairs (x0, x2), (x1, x3)
// (internal::WidenPairs): the output has 2 * elem bytes per pixel, and the
// border the widened `fill`.
// With `shuffle` (the u8s8 AVX2 kernel reading its channels in a
// PairingOrder) each 16-byte pixel's channels are reordered by the plane's
// 16 order bytes (Row's `order`); the border needs none (every byte `fill`).
// With `pack_row` (the stem's taps along the row, RowTapSteps) each 4-byte
// pixel keeps its first `keep` channels, widened (internal::PackRowFn): 2 *
// keep bytes per pixel, the border the widened `fill`.
struct PadRows {
  int64_t h, w, wp, top, left, elem;
  uint8_t fill;
  internal::WidenFn widen = nullptr;
  internal::ShuffleFn shuffle = nullptr;
  internal::PackRowFn pack_row = nullptr;
  int keep = 0;

  int64_t OutElem() const { return pack_row ? 2 * keep : widen ? 2 * elem : elem; }
  // Padded row y of the plane at `src` into `d` (wp * OutElem() bytes);
  // with `flip` (and `order`), the channels it flips read 255 - x, the
  // border's too.
  void Row(const uint8_t* src, int64_t y, uint8_t* d, const uint8_t* order = nullptr,
           const uint8_t* flip = nullptr) const {
    const int64_t iy = y - top;
    const int64_t e = OutElem();
    if (iy < 0 || iy >= h) {
      Fill(d, wp * e, flip);
      return;
    }
    Fill(d, left * e, flip);
    if (pack_row) {
      pack_row(src + iy * w * elem, d + left * e, w, keep);
    } else if (widen) {
      widen(src + iy * w * elem, d + left * e, w * elem);
    } else if (shuffle && order) {
      shuffle(src + iy * w * elem, d + left * elem, w * elem, order, flip);
    } else {
      std::memcpy(d + left * elem, src + iy * w * elem, w * elem);
    }
    Fill(d + (left + w) * e, (wp - left - w) * e, flip);
  }
  void Fill(uint8_t* d, int64_t bytes, const uint8_t* flip = nullptr) const {
    if (flip != nullptr) {  // 16-byte pixels
      for (int64_t i = 0; i < bytes; ++i) d[i] = fill ^ flip[i % 16];
      return;
    }
    if (!widen && !pack_row) {
      std::memset(d, fill, bytes);
      return;
    }
    for (int64_t i = 0; i < bytes; i += 2) d[i] = fill, d[i + 1] = 0;  // int16 `fill`
  }
};

// A padded copy of `planes` planes, in one parallel pass (the int16 path).
struct PadCopy {
  const uint8_t* src;
  uint8_t* dst;
  int64_t hp;
  PadRows rows;
  // Rows outermost (see ParallelRows in kernels/elementwise): each thread
  // copies the band of rows it will also compute from.
  static void Row(void* ctx, size_t y, size_t plane) {
    const PadCopy& c = *static_cast<const PadCopy*>(ctx);
    const PadRows& r = c.rows;
    r.Row(c.src + plane * r.h * r.w * r.elem, static_cast<int64_t>(y),
          c.dst + (plane * c.hp + y) * r.wp * r.elem);
  }
};

// Padding inside the compute's parallel region (u8s8 dense). Each thread pads,
// into its own scratch, the input rows of the band of output rows its work
// item belongs to, and keeps them for its next items of the same band. At two
// threads a separate padding pass cost 8-10 us per layer (r50_c3_3x3: 10 us
// against 2 us at one thread; many tiny items, and every padded line written
// by one core and then read by the other), more than the copy itself.
struct BandPad {
  const uint8_t* src = nullptr;  // the unpadded input, image 0
  PadRows rows{};
  int64_t hp = 0;
  int64_t planes = 0;        // channel blocks per image
  int64_t oh = 0;            // output rows per image
  int64_t band_rows = 0;     // output rows of the largest band
  int64_t band_in_rows = 0;  // padded input rows a band reads
  int64_t row_step = 0;      // padded input rows per output row (stride_h)
  int64_t bands_per_image = 1;
  bool all_images = false;   // one band holds every image (else one image)
  int64_t n = 1;
  uint64_t run = 0;          // unique per Run call
  // With rows.shuffle: 16 order bytes per plane, per order group (the
  // output channels of a group read the input in its order: each group has
  // its own band).
  const uint8_t* orders = nullptr;
  // With orders, optionally: 16 bytes per plane per order group XORed into
  // the shuffled bytes (0xff: the channel read complemented).
  const uint8_t* flips = nullptr;
  int64_t order_groups = 1;

  // Whether the band is padded once in the input's order and each group's
  // copy shuffled from it (see Get).
  bool SharedCopy() const { return order_groups > 1; }

  int64_t PlaneBytes() const { return band_in_rows * rows.wp * rows.OutElem(); }
  int64_t ImageBytes() const { return planes * PlaneBytes(); }

  // The calling thread's padded band holding output row `oy` of image `img`
  // in the channel order of `group`, at (image 0 of the band, block 0,
  // first row of the band); `*row0` is the padded input row at the band's
  // start.
  const uint8_t* Get(int64_t img, int64_t oy, int64_t* row0, int64_t group = 0) const {
    struct Cached {
      uint64_t run = 0;
      std::vector<int64_t> keys;  // per order group
    };
    thread_local Cached cached;
    // Bands of floor or ceil(oh / bands) rows, band b from row
    // ceil(b * oh / bands): their boundaries fall where pthreadpool splits
    // the rows between threads (the first threads take the larger shares),
    // so no band is padded by two threads.
    const int64_t band = oy * bands_per_image / oh;
    const int64_t key = all_images ? band : img * bands_per_image + band;
    *row0 = CeilDiv(band * oh, bands_per_image) * row_step;
    const int64_t group_bytes = (all_images ? n : 1) * ImageBytes();
    // With several orders, the band is padded once in the input's order (at
    // the scratch's start) and each group's copy shuffled from it, plane by
    // plane in one run of bytes (the border is one byte value, the same in
    // any order, and flipped with its channel): ResNet-18's 512 -> 512 3x3
    // has 32 orders of a 41 KB band.
    const bool shared = SharedCopy();
    uint8_t* const scratch = Scratch(0, (order_groups + shared) * group_bytes);
    uint8_t* buf = scratch + (group + shared) * group_bytes;
    if (cached.run != run) {
      cached.run = run;
      cached.keys.assign(order_groups + 1, -1);
    }
    if (cached.keys[group] == key) return buf;
    const int64_t r1 = std::min(hp, *row0 + band_in_rows);
    const int64_t i0 = all_images ? 0 : img, i1 = all_images ? n : img + 1;
    const int64_t plane_in = rows.h * rows.w * rows.elem, row_out = rows.wp * rows.OutElem();
    if (shared && cached.keys[order_groups] != key) {
      for (int64_t i = i0; i < i1; ++i) {
        for (int64_t pl = 0; pl < planes; ++pl) {
          const uint8_t* plane = src + (i * planes + pl) * plane_in;
          uint8_t* d = scratch + (i - i0) * ImageBytes() + pl * PlaneBytes();
          for (int64_t y = *row0; y < r1; ++y, d += row_out) rows.Row(plane, y, d);
        }
      }
      cached.keys[order_groups] = key;
    }
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t pl = 0; pl < planes; ++pl) {
        const int64_t at = (i - i0) * ImageBytes() + pl * PlaneBytes();
        const uint8_t* order = orders ? orders + 16 * (group * planes + pl) : nullptr;
        if (shared) {
          const uint8_t* flip = flips ? flips + 16 * (group * planes + pl) : nullptr;
          rows.shuffle(scratch + at, buf + at, (r1 - *row0) * row_out, order, flip);
          continue;
        }
        const uint8_t* plane = src + (i * planes + pl) * plane_in;
        const uint8_t* flip = flips ? flips + 16 * (group * planes + pl) : nullptr;
        uint8_t* d = buf + at;
        for (int64_t y = *row0; y < r1; ++y, d += row_out) rows.Row(plane, y, d, order, flip);
      }
    }
    cached.keys[group] = key;
    return buf;
  }
};

uint64_t NextRunId();

void Parallel2D(pthreadpool_t pool, pthreadpool_task_2d_t fn, void* ctx, size_t i, size_t j);

// Dense layers with packed weights up to this size split their pixels, not
// their output channels, between threads (half of Zen 5's 1 MB L2).
inline constexpr int64_t kSpatialMajorWeightBytes = 512 << 10;

// The kernel classes, made by conv2d.cc's factories once the parameters and
// the config are checked. `weight` holds w - zw. `describe_only`: packed and
// described, without the microkernels (which a build for another
// architecture lacks), not to be run.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8Dense(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& params,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith,
                                                            bool describe_only = false);
// The kernel MakeU8S8Dense made, over the weights it packed (packed()):
// nothing is packed. `describe_only` as above.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreU8S8Dense(const PackedConvWeights& packed,
                                                               const QuantizedConvParams& params,
                                                               int64_t tile_co, int64_t tile_ow,
                                                               Isa isa, Arithmetic arith,
                                                               bool describe_only);
// `row_steps`: RowTapSteps. Not for the AVX2 vpmaddubsw kernel, whose
// description depends on its weights (MakeU8S8Dense with describe_only).
std::string DescribeU8S8Dense(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith, int64_t row_steps);
// u8i16.avx2 on an image of at most 3 channels (the stem, in 4-channel
// blocks): a kernel row's taps of all its channels side by side, 4 values per
// step (7x7 on RGB: 21 values in 6 steps, where a step per tap of 4 channels,
// one of them padding, took 7), read from a copy of the input that keeps
// the real channels only. The steps per kernel row, or 0 where that saves
// none (3x3 on RGB: 3 steps either way) or does not apply.
int64_t RowTapSteps(const QuantizedConvParams& p, Isa isa, Arithmetic arith);
// `describe_only` as MakeU8S8Dense's.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8Depthwise(const std::vector<int16_t>& weight,
                                                                const QuantizedConvParams& params, Isa isa,
                                                                bool describe_only = false);
// The kernel MakeU8S8Depthwise made, over the weights it packed (packed()),
// used in place: nothing is packed.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreU8S8Depthwise(const PackedConvWeights& packed,
                                                                   const QuantizedConvParams& params, Isa isa,
                                                                   bool describe_only);
std::string DescribeU8S8Depthwise(Isa isa);
absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeInt16(const Tensor& weight,
                                                        const QuantizedConvParams& params,
                                                        int64_t tile_co, int64_t tile_ow,
                                                        bool depthwise);
// The kernel MakeInt16 made, over the weights it packed (packed()), used in
// place: nothing is packed.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeInt16FromPacked(const PackedConvWeights& packed,
                                                           const QuantizedConvParams& params,
                                                           int64_t tile_co, int64_t tile_ow, bool depthwise);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_DRIVER_H_
