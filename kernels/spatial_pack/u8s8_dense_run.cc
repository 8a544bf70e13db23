// Running a u8 x s8 dense kernel (u8s8_dense.h): the run's geometry, its
// split into work items (pixel chunks x output-channel chunks), the padded
// or copied input bands, and each item's loop over tiles.
#include <algorithm>

#include "kernels/spatial_pack/u8s8_dense.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using internal::DenseGeom;
using internal::DenseTile;

// Pointwise layers whose input is copied (widened or reordered) run their
// planes as one row up to this many pixels (RunImpl): 14x14.
constexpr int64_t kFlatCopiedPixels = 196;

}  // namespace

struct U8S8Dense::RunCtx {
  const U8S8Dense* k;
  DenseGeom geom;
  const uint8_t* in;   // image 0 at (icb 0, row 0, col 0) of the (padded) input
  int64_t in_image;    // bytes per image
  int64_t in_row;      // bytes per input row
  uint8_t* out;
  int64_t out_image, out_row, out_pix;  // bytes
  int64_t oh, ow, sh;
  int64_t chunk_pix, chunks_per_row, tiles_per_chunk;
  int64_t rows_per_item = 1;  // output rows of a work item (of whole rows when > 1)
  int64_t n;
  bool banded;  // padded input: per-thread bands (`band`), else `in`
  BandPad band;
  const TileEpilogue* tile_epilogue = nullptr;  // tiles go there, not to `out`
  const int64_t* step_offsets = nullptr;  // per step number (step_ids_, RunImpl)
};

// One work item: image n, output rows [oy0, oy1) and columns [ox0, ox1),
// cut into `tiles` register tiles of `big` or `big - 1` pixels (`bigs` of
// `big`), written through `geom` to the chunk buffer `tile_buf` when the run
// has a tile epilogue.
struct U8S8Dense::WorkItem {
  int64_t n, oy0, oy1, ox0, ox1;
  int64_t tiles, big, bigs;
  const DenseGeom* geom;
  int32_t* tile_buf;
};

void U8S8Dense::WorkSpatialMajor(void* vctx, size_t item, size_t oc_chunk) {
  Work(vctx, oc_chunk, item);
}

void U8S8Dense::Work(void* vctx, size_t oc_chunk, size_t item) {
  const RunCtx& c = *static_cast<const RunCtx*>(vctx);
  const U8S8Dense& k = *c.k;
  WorkItem w;
  const int64_t row_groups = CeilDiv(c.oh, c.rows_per_item);
  w.n = item / (row_groups * c.chunks_per_row);
  const int64_t rem = item % (row_groups * c.chunks_per_row);
  w.oy0 = rem / c.chunks_per_row * c.rows_per_item;
  w.oy1 = std::min(c.oh, w.oy0 + c.rows_per_item);
  w.ox0 = (rem % c.chunks_per_row) * c.chunk_pix;
  w.ox1 = std::min(c.ow, w.ox0 + c.chunk_pix);
  const int64_t t0 = oc_chunk * c.tiles_per_chunk;
  const int64_t t1 = std::min<int64_t>(t0 + c.tiles_per_chunk, k.tiles_.size());
  // With a tile epilogue the microkernel writes this thread's chunk buffer
  // ([nco][chunk_pix][16] int32), handed over block by block once the
  // chunk's row is done: one call per block and chunk (about 128 pixels),
  // not per microtile, so the epilogue's set-up is paid rarely.
  DenseGeom tile_geom;
  w.tile_buf = nullptr;
  if (c.tile_epilogue) {
    tile_geom = c.geom;
    tile_geom.out_cstride = c.chunk_pix * internal::kRawPixelBytes;
    w.tile_buf = reinterpret_cast<int32_t*>(Scratch(2, k.nco_ * tile_geom.out_cstride));
  }
  w.geom = c.tile_epilogue ? &tile_geom : &c.geom;
  // As few tiles as tile_ow allows, of sizes that differ by at most one
  // pixel (a 7x7 plane at tile_ow 6: 4 x 6 + 5 x 5, not 8 x 6 + 1: a
  // one-pixel tile reads a whole tile's weights); where the kernel takes
  // strips, each size in one call. The same for every row of the item.
  w.tiles = CeilDiv(w.ox1 - w.ox0, k.tile_ow_);
  w.big = CeilDiv(w.ox1 - w.ox0, w.tiles);
  w.bigs = (w.ox1 - w.ox0) - w.tiles * (w.big - 1);  // tiles of `big` pixels, the rest one less
  // Set field by field in RunTile, for every tile (zeroing it per tile
  // showed in MobileNetV2's profile at two threads).
  DenseTile call;
  for (int64_t ti = t0; ti < t1; ++ti) k.RunTile(c, w, k.tiles_[ti], call);
}

void U8S8Dense::RunTile(const RunCtx& c, const WorkItem& w, const OcTile& t, DenseTile& call) const {
  const int stride = static_cast<int>(tile_ow_) + 1;
  // The input of the tile (in its order group's channel order when banded).
  int64_t row0 = 0;
  const uint8_t* in_image = c.in + w.n * c.in_image;
  if (c.banded) {
    // Every row of the item is in this band (rows_per_item > 1 only with
    // one band holding every image: RunImpl).
    const uint8_t* band = c.band.Get(w.n, w.oy0, &row0, t.order_group);
    in_image = c.band.all_images ? band + w.n * c.in_image : band;
  }
  call.bias = bias_.data() + t.ocb0 * 16;
  call.mult = mult_.data() + t.ocb0 * 16;
  call.nco = static_cast<int>(t.nco);
  // Input-channel chunks (k_chunk_icbs_): every pixel of the item takes a
  // chunk before the next, partial sums in between.
  const int64_t chunk = k_chunk_icbs_ > 0 && !c.tile_epilogue ? k_chunk_icbs_ : t.icb_count;
  int32_t* partial = nullptr;
  if (chunk < t.icb_count) {
    const int64_t item_pix = (w.oy1 - w.oy0) * (w.ox1 - w.ox0);
    partial = reinterpret_cast<int32_t*>(Scratch(4, item_pix * t.nco * internal::kRawPixelBytes));
  }
  for (int64_t i0 = 0; i0 < t.icb_count; i0 += chunk) {
    const int64_t count = std::min(chunk, t.icb_count - i0);
    const bool first = i0 == 0, last = i0 + count == t.icb_count;
    call.w = weights() + t.w_offset + i0 * IcbWeightBytes(t.nco);
    call.icb_count = count;
    call.q_last = last ? t.q_last : 0;
    // u8s8.avx2 (the only kernel with corrections) runs no chunks, so `in`
    // is at the tile's first block, where the offsets start.
    call.correction_steps = correction_steps_.data() + t.correction0;
    call.correction_w = correction_w_.data() + t.correction_w0;
    call.step_offsets = c.step_offsets;
    call.steps = step_ids_.data() + t.step0;
    call.paired = t.paired;
    call.half_paired[0] = t.half_paired[0];
    call.half_paired[1] = t.half_paired[1];
    call.single = t.single;
    for (int r = 0; r < 3; ++r) call.correction_count[r] = last ? t.correction_count[r] : 0;
    for (int64_t oy = w.oy0; oy < w.oy1; ++oy) {
      const uint8_t* in_row = in_image + (t.icb_lo + i0) * c.geom.in_cstride + (oy * c.sh - row0) * c.in_row;
      uint8_t* out_row = c.out ? c.out + w.n * c.out_image + t.ocb0 * c.geom.out_cstride + oy * c.out_row : nullptr;
      for (int64_t ox = w.ox0, pt = 0; ox < w.ox1; ox += call.npix * call.strips, pt += call.strips) {
        call.npix = static_cast<int>(pt < w.bigs ? w.big : w.big - 1);
        call.strips = !strips_ ? 1 : static_cast<int>(pt < w.bigs ? w.bigs - pt : w.tiles - pt);
        call.in = in_row + ox * c.geom.pix_bytes;
        call.out = w.tile_buf ? reinterpret_cast<uint8_t*>(w.tile_buf + (ox - w.ox0) * 16) : out_row + ox * c.out_pix;
        int32_t* acc =
            partial ? partial + ((oy - w.oy0) * (w.ox1 - w.ox0) + (ox - w.ox0)) * t.nco * 16 : nullptr;
        call.acc_in = first ? nullptr : acc;
        call.acc_out = last ? nullptr : acc;
        fns_[call.nco * stride + call.npix](*w.geom, call);
      }
      if (w.tile_buf) {
        for (int j = 0; j < call.nco; ++j) {
          c.tile_epilogue->fn(c.tile_epilogue->ctx, w.n, t.ocb0 + j, oy * c.ow + w.ox0, w.ox1 - w.ox0,
                              w.tile_buf + j * c.chunk_pix * 16);
        }
      }
    }
  }
}

absl::Status U8S8Dense::RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                                const TileEpilogue* tile_epilogue) const {
  const QuantizedConvParams& p = params_;
  ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), in_block_, DType::kU8, input.dtype()));
  if (tile_epilogue == nullptr) RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, ocb_, g.oh, g.ow, 16}));
  const int64_t ib = in_block_;
  const bool padded = p.pads[0] || p.pads[1] || p.pads[2] || p.pads[3];
  // The u8i16 kernel reads a widened copy, made by the same banded padding
  // (with no border when the layer has no padding), twice the bytes (the
  // stem's taps along the row: a packed one, below).
  const bool widen = madd16_;
  const bool shuffled = !order_.empty();
  const int64_t e = widen ? 2 : 1;
  // A 1x1 stride-1 convolution without padding sees its planes as one row
  // (from here on, g is that row): a 14x14 plane is 33 tiles of 5-6 pixels,
  // where 14-pixel rows made 3 tiles of 4-5. A copied input (widened or
  // reordered) then is one band, which each thread copies whole, so only
  // small planes go flat there (MobileNetV2's 14x14 and 7x7 expansions).
  const bool flat = !padded && p.kernel_h == 1 && p.kernel_w == 1 && p.strides[0] == 1 && p.strides[1] == 1 &&
                    (!(widen || shuffled) || g.oh * g.ow <= kFlatCopiedPixels);
  if (flat) g = OutGeom{g.n, 1, g.h * g.w, 1, g.oh * g.ow};
  // Taps along the row (row_steps_): the copy holds the real channels of
  // each pixel as int16 (2 C bytes), and the tile sees a kernel row as
  // row_steps_ adjacent taps of 8 bytes each (Q = 1). Its last step reads up
  // to 3 values past the row's last tap: the rows get enough more pixels of
  // border on the right to hold them (1 for RGB).
  const int64_t row_slack =
      row_steps_ > 0 ? CeilDiv(4 * row_steps_ - p.kernel_w * p.in_channels, p.in_channels) : 0;
  const int64_t hp = g.h + p.pads[0] + p.pads[2], wp = g.w + p.pads[1] + p.pads[3] + row_slack;
  const int64_t pixel_bytes = row_steps_ > 0 ? 2 * p.in_channels : ib * e;  // in the (copied) input
  RunCtx c;
  c.k = this;
  c.geom.icblk = ib;
  c.geom.kh = p.kernel_h;
  c.geom.kw = row_steps_ > 0 ? row_steps_ : p.kernel_w;
  c.geom.in_cstride = hp * wp * ib;  // banded: the band's plane (SetUpBand)
  c.geom.dil_h_bytes = p.dilation[0] * wp * pixel_bytes;
  c.geom.dil_w_bytes = row_steps_ > 0 ? 8 : p.dilation[1] * pixel_bytes;
  c.geom.pix_bytes = p.strides[1] * pixel_bytes;
  c.out_pix = internal::OutPixelBytes(ep_);
  c.geom.out_cstride = g.oh * g.ow * c.out_pix;
  c.geom.ep = ep_;
  c.in = input.data<uint8_t>();
  c.in_image = icb_total_ * hp * wp * ib;
  c.in_row = wp * pixel_bytes;
  c.out = tile_epilogue ? nullptr : output->data<uint8_t>();
  c.tile_epilogue = tile_epilogue;
  c.out_image = ocb_ * g.oh * g.ow * c.out_pix;
  c.out_row = g.ow * c.out_pix;
  c.oh = g.oh;
  c.ow = g.ow;
  c.sh = p.strides[0];
  c.n = g.n;
  const int64_t threads = pool ? static_cast<int64_t>(pthreadpool_get_threads_count(pool)) : 1;
  const bool spatial_major = weight_bytes() <= kSpatialMajorWeightBytes;
  int64_t oc_chunks = 0;
  size_t spatial_items = 0;
  SetUpWork(c, g.n, threads, spatial_major, &oc_chunks, &spatial_items);
  c.banded = padded || widen || shuffled;
  if (c.banded) RETURN_IF_ERROR(SetUpBand(c, input, zx, g, hp, wp, threads, spatial_major));
  const std::vector<int64_t> step_offsets = StepOffsets(c.geom);
  c.step_offsets = step_offsets.data();
  if (spatial_major) {
    // Pixels outermost: each thread takes a band of rows, the band it had in
    // the layer before, so activations stay in its cache (moving them to the
    // other core costs more than re-reading these weights from L2).
    Parallel2D(pool, &U8S8Dense::WorkSpatialMajor, &c, spatial_items, oc_chunks);
  } else {
    // Large weights: each thread keeps to its own output channels.
    Parallel2D(pool, &U8S8Dense::Work, &c, oc_chunks, spatial_items);
  }
  return absl::OkStatus();
}

// Spatial chunks of about 128 pixels (whole tiles); output-channel chunks
// whose packed weights stay within about 128 KB (L2).
void U8S8Dense::SetUpWork(RunCtx& c, int64_t n, int64_t threads, bool spatial_major, int64_t* oc_chunks_out,
                          size_t* spatial_items) const {
  const int64_t tiles_in_row = CeilDiv(c.ow, tile_ow_);
  int64_t chunk_tiles = std::min(tiles_in_row, std::max<int64_t>(1, 128 / tile_ow_));
  const int64_t ntiles = static_cast<int64_t>(tiles_.size());
  const int64_t tile_bytes = std::max<int64_t>(1, weight_bytes() / ntiles);
  int64_t oc_chunks = CeilDiv(ntiles, std::clamp<int64_t>((128 << 10) / tile_bytes, 1, ntiles));
  // With threads, at least 4 work items per thread where the layer allows
  // it (late, small layers have only one or two chunks): split pixels
  // first, then output channels.
  auto items = [&] { return oc_chunks * n * c.oh * CeilDiv(tiles_in_row, chunk_tiles); };
  while (threads > 1 && items() < 4 * threads && (chunk_tiles > 1 || oc_chunks < ntiles)) {
    if (chunk_tiles > 1) {
      chunk_tiles = CeilDiv(chunk_tiles, 2);
    } else {
      oc_chunks = std::min(ntiles, oc_chunks * 2);
    }
  }
  // Equal chunks: spread the tiles evenly over the chunk count.
  c.tiles_per_chunk = CeilDiv(ntiles, oc_chunks);
  oc_chunks = CeilDiv(ntiles, c.tiles_per_chunk);
  chunk_tiles = CeilDiv(tiles_in_row, CeilDiv(tiles_in_row, chunk_tiles));
  c.chunk_pix = chunk_tiles * tile_ow_;
  c.chunks_per_row = CeilDiv(c.ow, c.chunk_pix);
  // Input-channel chunks with one band holding every image (weight-major
  // layers, the late small planes): a work item takes whole rows, up to
  // about 64 pixels, so a chunk's weights serve them all (ResNet's 7x7
  // planes: the whole plane).
  if (k_chunk_icbs_ > 0 && !spatial_major && c.tile_epilogue == nullptr && c.chunks_per_row == 1) {
    c.rows_per_item = std::clamp<int64_t>(64 / c.ow, 1, c.oh);
    c.rows_per_item = CeilDiv(c.oh, CeilDiv(c.oh, c.rows_per_item));  // no more groups than needed
    // With threads, at least 4 items per thread where there are rows.
    while (threads > 1 && c.rows_per_item > 1 && oc_chunks * n * CeilDiv(c.oh, c.rows_per_item) < 4 * threads) {
      c.rows_per_item = CeilDiv(c.rows_per_item, 2);
    }
  }
  *oc_chunks_out = oc_chunks;
  *spatial_items = static_cast<size_t>(n * CeilDiv(c.oh, c.rows_per_item) * c.chunks_per_row);
}

// The padded (and widened, packed or reordered) copy of the input, made by
// bands of rows.
absl::Status U8S8Dense::SetUpBand(RunCtx& c, const Tensor& input, int32_t zx, const OutGeom& g, int64_t hp,
                                  int64_t wp, int64_t threads, bool spatial_major) const {
  const QuantizedConvParams& p = params_;
  BandPad& b = c.band;
  b.src = input.data<uint8_t>();
  b.rows = {g.h, g.w, wp, p.pads[0], p.pads[1], in_block_, static_cast<uint8_t>(zx)};
  if (row_steps_ > 0) {
    b.rows.pack_row = internal::GetPackRowAvx2();
    b.rows.keep = static_cast<int>(p.in_channels);
  } else if (madd16_) {
    b.rows.widen = internal::GetWidenPairsAvx2();
    if (b.rows.widen == nullptr) return absl::InternalError("missing the AVX2 widening");
  }
  if (!order_.empty()) {
    b.rows.shuffle = shuffle_;
    b.orders = order_.data();
    b.flips = flip_mask_.empty() ? nullptr : flip_mask_.data();
    b.order_groups = order_groups_;
  }
  b.hp = hp;
  b.planes = icb_total_;
  b.row_step = p.strides[0];
  b.n = g.n;
  // Threads splitting pixels take bands of rows (two per thread, so a
  // thread that steals an item pads a small band), one thread too;
  // otherwise each thread pads the whole input once. (One thread padding
  // the whole widened input of MobileNetV2's 16 -> 96 1x1 at 112x112 ran it
  // 10x slower, 3.99 ms against 0.40 ms in two bands, cap avx2; the lone
  // layer was fast either way.)
  b.all_images = !spatial_major;
  b.oh = g.oh;
  b.bands_per_image = b.all_images ? 1 : std::min(g.oh, 2 * threads);
  b.band_rows = CeilDiv(g.oh, b.bands_per_image);
  b.band_in_rows = std::min(hp, (b.band_rows - 1) * p.strides[0] + (p.kernel_h - 1) * p.dilation[0] + 1);
  b.run = NextRunId();
  RETURN_IF_ERROR(CheckPaddedBytes((b.order_groups + b.SharedCopy()) * (b.all_images ? g.n : 1) * b.ImageBytes()));
  c.geom.in_cstride = b.PlaneBytes();
  c.in_image = b.ImageBytes();
  return absl::OkStatus();
}

// The steps' (and corrections') input offsets for this run's geometry, by
// step number (at most a tile's steps: 1152 for a 512-channel 3x3).
std::vector<int64_t> U8S8Dense::StepOffsets(const DenseGeom& geom) const {
  const QuantizedConvParams& p = params_;
  std::vector<int64_t> step_offsets(step_table_size_);
  const int64_t taps = p.kernel_h * p.kernel_w, q4 = in_block_ / 4;
  for (int64_t i = 0; i < step_table_size_; ++i) {
    const int64_t icb = i / (taps * q4), tap = i / q4 % taps;
    step_offsets[i] = icb * geom.in_cstride + tap / p.kernel_w * geom.dil_h_bytes +
                      tap % p.kernel_w * geom.dil_w_bytes + 4 * (i % q4);
  }
  return step_offsets;
}

}  // namespace qnnc::kernels::spatial_pack
