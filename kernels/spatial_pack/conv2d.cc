#include "kernels/spatial_pack/conv2d.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/internal/int16.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using internal::DenseGeom;
using internal::DenseTile;
using internal::DenseTileFn;
using internal::DwGeom;
using internal::DwRow;
using internal::DwRowFn;
using internal::Epilogue;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat("spatial_pack conv2d: ", args...));
}

// A per-thread, 64-byte aligned scratch buffer (slot 0: padded input, slot 1:
// expanded depthwise input, slot 2: a tile for a tile epilogue). Reused
// across runs: no allocation per call.
uint8_t* Scratch(int slot, size_t bytes) {
  thread_local std::vector<uint8_t> buffers[4];
  std::vector<uint8_t>& b = buffers[slot];
  if (b.size() < bytes + 64) b.resize(bytes + 64);
  const uintptr_t p = reinterpret_cast<uintptr_t>(b.data());
  return b.data() + ((64 - (p & 63)) & 63);
}

constexpr int64_t kMaxExtent = int64_t{1} << 16;
// The padded input copy a run may make (per thread), at most.
constexpr int64_t kMaxPaddedBytes = int64_t{1} << 30;

absl::Status CheckPaddedBytes(int64_t bytes) {
  if (bytes > kMaxPaddedBytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "spatial_pack conv2d: the padded input needs ", bytes, " bytes, over the limit of ",
        kMaxPaddedBytes));
  }
  return absl::OkStatus();
}

bool IsDepthwise(const QuantizedConvParams& p) {
  return p.groups > 1 && p.groups == p.in_channels && p.out_channels % p.groups == 0;
}

// The weights w - zw as int16 values, from an i8 tensor or an i16 one (8-bit
// weights minus a zero point, in [-255, 255]).
absl::StatusOr<std::vector<int16_t>> WeightValues(const Tensor& w) {
  std::vector<int16_t> v(static_cast<size_t>(w.num_elements()));
  if (w.dtype() == DType::kI8) {
    std::copy(w.data<int8_t>(), w.data<int8_t>() + v.size(), v.begin());
    return v;
  }
  std::copy(w.data<int16_t>(), w.data<int16_t>() + v.size(), v.begin());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < -255 || v[i] > 255) {
      return Invalid("i16 weight ", v[i], " at index ", i, " is outside [-255, 255]");
    }
  }
  return v;
}

bool FitsS8(const std::vector<int16_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int16_t x) { return x >= -128 && x <= 127; });
}

// u8s8 kernels write blocks of 16 channels and read them, except the dense
// kernel of an image (in_channels <= 4: the stem), which reads blocks of 4.
constexpr int64_t kU8S8OutputBlock = 16;
int64_t U8S8InputBlock(const QuantizedConvParams& p) {
  return p.in_channels <= 4 && !IsDepthwise(p) ? 4 : kU8S8OutputBlock;
}

absl::Status ValidateParams(const QuantizedConvParams& p, const tensor::Tensor& weight,
                            DType weight_dtype) {
  if (p.in_channels <= 0 || p.out_channels <= 0 || p.groups <= 0) {
    return Invalid("channels and groups must be positive, got in_channels=", p.in_channels,
                   " out_channels=", p.out_channels, " groups=", p.groups);
  }
  if (p.in_channels % p.groups != 0 || p.out_channels % p.groups != 0) {
    return Invalid("groups=", p.groups, " must divide in_channels=", p.in_channels,
                   " and out_channels=", p.out_channels);
  }
  if (p.kernel_h <= 0 || p.kernel_w <= 0) {
    return Invalid("kernel must be positive, got ", p.kernel_h, "x", p.kernel_w);
  }
  for (int i = 0; i < 2; ++i) {
    if (p.strides[i] <= 0 || p.dilation[i] <= 0) {
      return Invalid("strides and dilation must be positive, got strides=", p.strides[0], ",",
                     p.strides[1], " dilation=", p.dilation[0], ",", p.dilation[1]);
    }
  }
  for (int64_t pad : p.pads) {
    if (pad < 0) return Invalid("pads must be non-negative, got ", pad);
  }
  // Bounds that keep every size the kernels derive (padded planes, window
  // offsets) far from int64 overflow; real layers are orders below them.
  for (int64_t v : {p.kernel_h, p.kernel_w, p.strides[0], p.strides[1], p.dilation[0],
                    p.dilation[1], p.pads[0], p.pads[1], p.pads[2], p.pads[3]}) {
    if (v > kMaxExtent) {
      return Invalid("kernel, strides, dilation and pads must be at most ", kMaxExtent,
                     ", got ", v);
    }
  }
  if (!weight.defined() || weight.dtype() != weight_dtype) {
    return Invalid("weight must be ", tensor::DTypeName(weight_dtype), ", got ",
                   weight.defined() ? tensor::DTypeName(weight.dtype()) : "undefined");
  }
  const Shape want = {p.out_channels, p.in_channels / p.groups, p.kernel_h, p.kernel_w};
  if (weight.shape() != want) {
    return Invalid("weight shape ", tensor::ShapeToString(weight.shape()), " should be ",
                   tensor::ShapeToString(want));
  }
  if (!p.bias.empty() && static_cast<int64_t>(p.bias.size()) != p.out_channels) {
    return Invalid("bias has ", p.bias.size(), " values for ", p.out_channels, " output channels");
  }
  const int64_t nm = static_cast<int64_t>(p.requant_multiplier.size());
  if (nm != 1 && nm != p.out_channels) {
    return Invalid("requant_multiplier has ", nm, " values; want 1 or ", p.out_channels);
  }
  if (p.out_dtype != DType::kU8 && p.out_dtype != DType::kI8 && p.out_dtype != DType::kI32) {
    return Invalid("out_dtype must be u8, i8 or i32 (raw accumulators), got ",
                   tensor::DTypeName(p.out_dtype));
  }
  const int64_t lo = std::max<int64_t>(p.clamp_min, tensor::DTypeMin(p.out_dtype));
  const int64_t hi = std::min<int64_t>(p.clamp_max, tensor::DTypeMax(p.out_dtype));
  if (lo > hi) return Invalid("empty clamp range [", lo, ", ", hi, "]");
  return absl::OkStatus();
}

Epilogue MakeEpilogue(const QuantizedConvParams& p) {
  Epilogue e;
  const int64_t lo = std::max<int64_t>(p.clamp_min, tensor::DTypeMin(p.out_dtype));
  const int64_t hi = std::min<int64_t>(p.clamp_max, tensor::DTypeMax(p.out_dtype));
  // Clamp bounds relative to the zero point; beyond +-2^24 they only matter
  // as "larger than any in-range result", so saturate them there.
  auto rel = [](int64_t v) {
    return static_cast<float>(std::clamp<int64_t>(v, -(int64_t{1} << 40), int64_t{1} << 40));
  };
  e.lo = rel(lo - p.output_zero_point);
  e.hi = rel(hi - p.output_zero_point);
  e.zp = p.output_zero_point;
  for (float m : p.requant_multiplier) e.nan_check |= !std::isfinite(m);
  e.packed16 = p.output_zero_point >= -255 && p.output_zero_point <= 255;
  for (float m : p.requant_multiplier) e.packed16 &= std::isfinite(m) && std::fabs(m) < 0.5f;
  e.out_signed = p.out_dtype == DType::kI8;
  e.clamp16 = lo != tensor::DTypeMin(p.out_dtype) || hi != tensor::DTypeMax(p.out_dtype);
  e.lo_abs = static_cast<int16_t>(lo);
  e.hi_abs = static_cast<int16_t>(hi);
  e.raw32 = p.out_dtype == DType::kI32;
  if (e.raw32) e.packed16 = e.nan_check = false;
  return e;
}

// Bias and multipliers padded to `channels` (extra channels: 0 and 1).
std::vector<int32_t> PaddedBias(const QuantizedConvParams& p, int64_t channels) {
  std::vector<int32_t> b(channels, 0);
  for (size_t i = 0; i < p.bias.size(); ++i) b[i] = p.bias[i];
  return b;
}
std::vector<float> PaddedMultipliers(const QuantizedConvParams& p, int64_t channels) {
  std::vector<float> m(channels, 1.0f);
  for (int64_t i = 0; i < p.out_channels; ++i) {
    m[i] = p.requant_multiplier.size() == 1 ? p.requant_multiplier[0] : p.requant_multiplier[i];
  }
  return m;
}

// Resolves tile_co/tile_ow from `config` (defaults for missing knobs).
absl::StatusOr<std::pair<int64_t, int64_t>> ResolveTiles(const KnobMap& config,
                                                         const KnobSpace& space,
                                                         const KnobMap& defaults) {
  for (const auto& [name, value] : config) {
    auto it = space.find(name);
    if (it == space.end()) {
      return Invalid("unknown knob '", name, "' (knobs: tile_co, tile_ow)");
    }
    if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) {
      std::string allowed;
      for (int64_t v : it->second) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", v);
      return Invalid("knob ", name, "=", value, " is not in the space {", allowed, "}");
    }
  }
  auto get = [&](const std::string& k) {
    auto it = config.find(k);
    return it != config.end() ? it->second : defaults.at(k);
  };
  return std::make_pair(get("tile_co"), get("tile_ow"));
}

struct OutGeom {
  int64_t n, h, w, oh, ow;
};

absl::StatusOr<OutGeom> Geometry(const QuantizedConvParams& p, const Shape& in, int64_t block,
                                 DType want_dtype, DType got_dtype) {
  const int64_t want_rank = block ? 5 : 4;
  if (got_dtype != want_dtype || static_cast<int64_t>(in.size()) != want_rank) {
    return Invalid("input must be ", tensor::DTypeName(want_dtype), " of rank ", want_rank,
                   ", got ", tensor::DTypeName(got_dtype), " ", tensor::ShapeToString(in));
  }
  const int64_t c_dim = block ? CeilDiv(p.in_channels, block) : p.in_channels;
  if (in[1] != c_dim || (block && in[4] != block)) {
    return Invalid("input shape ", tensor::ShapeToString(in), " does not hold ", p.in_channels,
                   " channels in layout ", block ? absl::StrCat("NCHW", block, "c") : "NCHW");
  }
  OutGeom g;
  g.n = in[0];
  g.h = in[2];
  g.w = in[3];
  const int64_t eh = g.h + p.pads[0] + p.pads[2] - p.dilation[0] * (p.kernel_h - 1) - 1;
  const int64_t ew = g.w + p.pads[1] + p.pads[3] - p.dilation[1] * (p.kernel_w - 1) - 1;
  if (g.n <= 0 || eh < 0 || ew < 0) {
    return Invalid("input ", tensor::ShapeToString(in), " gives an empty output");
  }
  g.oh = eh / p.strides[0] + 1;
  g.ow = ew / p.strides[1] + 1;
  return g;
}

absl::Status PrepareOutput(Tensor* output, DType dtype, const Shape& shape) {
  if (output == nullptr) return Invalid("output is null");
  if (output->defined() && output->dtype() == dtype && output->shape() == shape) {
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(*output, Tensor::CreateForOverwrite(dtype, shape));
  return absl::OkStatus();
}

// Padded rows of planes [h][w][elem] -> [hp][wp][elem], with a border of
// `top`/`left` filled with the byte `fill` (elem bytes per pixel; fill is
// repeated bytewise, enough for u8 values and i16 zeros). With `widen` (the
// u8i16 kernels) every 4 bytes become the int16 pairs (x0, x2), (x1, x3)
// (internal::WidenPairs): the output has 2 * elem bytes per pixel, and the
// border the widened `fill`.
struct PadRows {
  int64_t h, w, wp, top, left, elem;
  uint8_t fill;
  internal::WidenFn widen = nullptr;

  int64_t OutElem() const { return widen ? 2 * elem : elem; }
  // Padded row y of the plane at `src` into `d` (wp * OutElem() bytes).
  void Row(const uint8_t* src, int64_t y, uint8_t* d) const {
    const int64_t iy = y - top;
    const int64_t e = OutElem();
    if (iy < 0 || iy >= h) {
      Fill(d, wp * e);
      return;
    }
    Fill(d, left * e);
    if (widen) {
      widen(src + iy * w * elem, d + left * e, w * elem);
    } else {
      std::memcpy(d + left * elem, src + iy * w * elem, w * elem);
    }
    Fill(d + (left + w) * e, (wp - left - w) * e);
  }
  void Fill(uint8_t* d, int64_t bytes) const {
    if (!widen) {
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

  int64_t PlaneBytes() const { return band_in_rows * rows.wp * rows.OutElem(); }
  int64_t ImageBytes() const { return planes * PlaneBytes(); }

  // The calling thread's padded band holding output row `oy` of image `img`,
  // at (image 0 of the band, block 0, first row of the band); `*row0` is
  // the padded input row at the band's start.
  const uint8_t* Get(int64_t img, int64_t oy, int64_t* row0) const {
    struct Cached {
      uint64_t run = 0;
      int64_t key = -1;
    };
    thread_local Cached cached;
    // Bands of floor or ceil(oh / bands) rows, band b from row
    // ceil(b * oh / bands): their boundaries fall where pthreadpool splits
    // the rows between threads (the first threads take the larger shares),
    // so no band is padded by two threads.
    const int64_t band = oy * bands_per_image / oh;
    const int64_t key = all_images ? band : img * bands_per_image + band;
    *row0 = CeilDiv(band * oh, bands_per_image) * row_step;
    uint8_t* buf = Scratch(0, (all_images ? n : 1) * ImageBytes());
    if (cached.run == run && cached.key == key) return buf;
    const int64_t r1 = std::min(hp, *row0 + band_in_rows);
    const int64_t i0 = all_images ? 0 : img, i1 = all_images ? n : img + 1;
    const int64_t plane_in = rows.h * rows.w * rows.elem, row_out = rows.wp * rows.OutElem();
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t pl = 0; pl < planes; ++pl) {
        const uint8_t* plane = src + (i * planes + pl) * plane_in;
        uint8_t* d = buf + (i - i0) * ImageBytes() + pl * PlaneBytes();
        for (int64_t y = *row0; y < r1; ++y, d += row_out) rows.Row(plane, y, d);
      }
    }
    cached.run = run;
    cached.key = key;
    return buf;
  }
};

uint64_t NextRunId() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

void Parallel2D(pthreadpool_t pool, pthreadpool_task_2d_t fn, void* ctx, size_t i, size_t j) {
  pthreadpool_parallelize_2d(pool, fn, ctx, i, j, 0);
}

// Dense layers with packed weights up to this size split their pixels, not
// their output channels, between threads (half of Zen 5's 1 MB L2).
constexpr int64_t kSpatialMajorWeightBytes = 512 << 10;

// ---------------------------------------------------------------- u8s8 dense

class U8S8Dense final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& p,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith) {
    std::unique_ptr<U8S8Dense> k(new U8S8Dense());
    k->params_ = p;
    k->isa_ = isa;
    k->madd16_ = arith == Arithmetic::kMadd16;
    k->in_block_ = U8S8InputBlock(p);
    k->out_block_ = kU8S8OutputBlock;
    const IoLayouts layouts = LayoutsU8S8(p);
    k->input_layout_ = layouts.input;
    k->output_layout_ = layouts.output;
    k->nco_ = tile_co / 16;
    k->tile_ow_ = tile_ow;
    k->ocb_ = CeilDiv(p.out_channels, 16);
    k->icb_total_ = CeilDiv(p.in_channels, k->in_block_);
    k->ep_ = MakeEpilogue(p);
    k->bias_ = PaddedBias(p, k->ocb_ * 16);
    k->mult_ = PaddedMultipliers(p, k->ocb_ * 16);
    if (k->madd16_) {
      // The madd16 tiles hold a group's channels in Madd16Lane order.
      std::vector<int32_t> bias(k->bias_.size());
      std::vector<float> mult(k->mult_.size());
      for (size_t oc = 0; oc < bias.size(); ++oc) {
        const size_t to = oc / 16 * 16 + static_cast<size_t>(internal::Madd16Lane(static_cast<int>(oc % 16)));
        bias[to] = k->bias_[oc];
        mult[to] = k->mult_[oc];
      }
      k->bias_ = std::move(bias);
      k->mult_ = std::move(mult);
    }
    // Grouped convolutions with 4 or 8 channels per group in and out, on
    // whole blocks, get the tiles that read only each lane's own group
    // (microkernels.h: GetGroupedTile*): VNNI u8 x s8 and AVX2 madd16.
    const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
    const bool grouped_tiles = p.groups > 1 && cg == og && (cg == 4 || cg == 8) && k->in_block_ == 16 &&
                               p.in_channels % 16 == 0 && p.out_channels % 16 == 0 &&
                               ((isa == Isa::kAvx512Vnni && !k->madd16_) || (isa == Isa::kAvx2 && k->madd16_));
    k->group_words_ = grouped_tiles ? cg / 4 : 0;
    k->Pack(weight.data());
    // Register-tile functions for every (nco, npix) the run can need.
    const int max_pix = static_cast<int>(tile_ow);
    k->fns_.assign((k->nco_ + 1) * (max_pix + 1), nullptr);
    for (int nco = 1; nco <= k->nco_; ++nco) {
      for (int np = 1; np <= max_pix; ++np) {
        DenseTileFn fn = &internal::DenseTileScalar;
        if (isa == Isa::kAvx512Vnni) {
          fn = k->madd16_ ? internal::GetDenseTileMadd16Avx512Vnni(nco, np, k->in_block_)
                          : internal::GetDenseTileAvx512Vnni(nco, np, k->in_block_, p.strides[1]);
        }
        if (isa == Isa::kAvx2) {
          fn = k->madd16_ ? internal::GetDenseTileMadd16Avx2(nco, np, k->in_block_)
                          : internal::GetDenseTileAvx2(nco, np, k->in_block_);
        }
        if (k->group_words_ > 0) {
          const int words = static_cast<int>(k->group_words_);
          fn = isa == Isa::kAvx2 ? internal::GetGroupedTileMadd16Avx2(nco, np, words)
                                 : internal::GetGroupedTileAvx512Vnni(nco, np, words);
        }
        if (fn == nullptr) return absl::InternalError("missing microkernel");
        k->fns_[nco * (max_pix + 1) + np] = fn;
      }
    }
    k->description_ = Description(tile_co, tile_ow, isa, arith);
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  static std::string Description(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith) {
    if (arith == Arithmetic::kMadd16) {
      return absl::StrCat("u8i16.", IsaName(isa), ".dense tile_co=", tile_co, " tile_ow=", tile_ow);
    }
    return absl::StrCat("u8s8.", IsaName(isa), ".dense tile_co=", tile_co, " tile_ow=", tile_ow);
  }

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override;

 private:
  struct OcTile {
    int64_t ocb0, nco, icb_lo, icb_count, w_offset;
    int q_last;  // DenseTile::q_last
  };

  // w: OIHW values, within s8 unless madd16 (CreateU8S8 checks).
  void Pack(const int16_t* w) {
    const QuantizedConvParams& p = params_;
    const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
    const int64_t kk = p.kernel_h * p.kernel_w;
    const int64_t ib = in_block_;
    const int64_t j_bytes = madd16_ ? 128 : 64;
    for (int64_t ocb0 = 0; ocb0 < ocb_; ocb0 += nco_) {
      OcTile t;
      t.ocb0 = ocb0;
      t.nco = std::min<int64_t>(nco_, ocb_ - ocb0);
      const int64_t oc_lo = ocb0 * 16;
      const int64_t oc_hi = std::min<int64_t>(p.out_channels, (ocb0 + t.nco) * 16);
      const int64_t ic_lo = (oc_lo / og) * cg, ic_hi = ((oc_hi - 1) / og + 1) * cg;
      t.icb_lo = ic_lo / ib;
      t.icb_count = CeilDiv(ic_hi, ib) - t.icb_lo;
      t.q_last = static_cast<int>(CeilDiv(ic_hi - (t.icb_lo + t.icb_count - 1) * ib, 4));
      if (t.q_last == ib / 4) t.q_last = 0;
      t.w_offset = static_cast<int64_t>(packed_.size());
      if (group_words_ > 0) {
        // [k][d][j][16 oc][4 ic]: lane l's 4 channels 4d..4d+3 of its group.
        packed_.resize(packed_.size() + kk * group_words_ * t.nco * j_bytes, 0);
        int8_t* dst = packed_.data() + t.w_offset;
        for (int64_t k = 0; k < kk; ++k) {
          for (int64_t d = 0; d < group_words_; ++d) {
            for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
              for (int64_t l = 0; l < 16; ++l) {
                const int64_t oc = oc_lo + j * 16 + l;
                for (int64_t i = 0; i < 4 && oc < p.out_channels; ++i) {
                  const int16_t v = w[(oc * cg + 4 * d + i) * kk + k];
                  if (madd16_) {
                    std::memcpy(dst + 2 * internal::Madd16Offset(static_cast<int>(l), static_cast<int>(i)), &v, 2);
                  } else {
                    dst[l * 4 + i] = static_cast<int8_t>(v);
                  }
                }
              }
            }
          }
        }
        tiles_.push_back(t);
        continue;
      }
      const int64_t q4 = ib / 4;
      packed_.resize(packed_.size() + t.icb_count * kk * q4 * t.nco * j_bytes, 0);
      int8_t* dst = packed_.data() + t.w_offset;
      for (int64_t icb = 0; icb < t.icb_count; ++icb) {
        for (int64_t k = 0; k < kk; ++k) {
          for (int64_t q = 0; q < q4; ++q) {
            for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
              for (int64_t l = 0; l < 16; ++l) {
                const int64_t oc = oc_lo + j * 16 + l;
                if (oc >= p.out_channels) continue;
                const int64_t g = oc / og;
                for (int64_t i = 0; i < 4; ++i) {
                  const int64_t ic = (t.icb_lo + icb) * ib + q * 4 + i;
                  if (ic < g * cg || ic >= (g + 1) * cg) continue;
                  const int16_t v = w[(oc * cg + (ic - g * cg)) * kk + k];
                  if (madd16_) {
                    std::memcpy(dst + 2 * internal::Madd16Offset(static_cast<int>(l), static_cast<int>(i)),
                                &v, 2);
                  } else {
                    dst[l * 4 + i] = static_cast<int8_t>(v);
                  }
                }
              }
            }
          }
        }
      }
      tiles_.push_back(t);
    }
  }

  struct RunCtx {
    const U8S8Dense* k;
    DenseGeom geom;
    const uint8_t* in;   // image 0 at (icb 0, row 0, col 0) of the (padded) input
    int64_t in_image;    // bytes per image
    int64_t in_row;      // bytes per input row
    uint8_t* out;
    int64_t out_image, out_row, out_pix;  // bytes
    int64_t oh, ow, sh;
    int64_t chunk_pix, chunks_per_row, tiles_per_chunk;
    int64_t n;
    bool banded;  // padded input: per-thread bands (`band`), else `in`
    BandPad band;
    const TileEpilogue* tile_epilogue = nullptr;  // tiles go there, not to `out`
  };

  static void WorkSpatialMajor(void* vctx, size_t item, size_t oc_chunk) {
    Work(vctx, oc_chunk, item);
  }
  static void Work(void* vctx, size_t oc_chunk, size_t item) {
    const RunCtx& c = *static_cast<const RunCtx*>(vctx);
    const U8S8Dense& k = *c.k;
    const int64_t n = item / (c.oh * c.chunks_per_row);
    const int64_t rem = item % (c.oh * c.chunks_per_row);
    const int64_t oy = rem / c.chunks_per_row;
    const int64_t ox0 = (rem % c.chunks_per_row) * c.chunk_pix;
    const int64_t ox1 = std::min(c.ow, ox0 + c.chunk_pix);
    const int64_t t0 = oc_chunk * c.tiles_per_chunk;
    const int64_t t1 = std::min<int64_t>(t0 + c.tiles_per_chunk, k.tiles_.size());
    const int stride = static_cast<int>(k.tile_ow_) + 1;
    const uint8_t* in_image = c.in + n * c.in_image;
    int64_t row0 = 0;
    if (c.banded) {
      in_image = c.band.Get(n, oy, &row0);
      if (c.band.all_images) in_image += n * c.in_image;
    }
    // With a tile epilogue the microkernel writes this thread's tile buffer
    // ([nco][tile_ow][16] int32), handed over block by block.
    DenseGeom tile_geom;
    int32_t* tile_buf = nullptr;
    if (c.tile_epilogue) {
      tile_geom = c.geom;
      tile_geom.out_cstride = k.tile_ow_ * internal::kRawPixelBytes;
      tile_buf = reinterpret_cast<int32_t*>(Scratch(2, k.nco_ * tile_geom.out_cstride));
    }
    const DenseGeom& geom = c.tile_epilogue ? tile_geom : c.geom;
    for (int64_t ti = t0; ti < t1; ++ti) {
      const OcTile& t = k.tiles_[ti];
      DenseTile call;
      call.w = k.packed_.data() + t.w_offset;
      call.icb_count = t.icb_count;
      call.q_last = t.q_last;
      call.bias = k.bias_.data() + t.ocb0 * 16;
      call.mult = k.mult_.data() + t.ocb0 * 16;
      call.nco = static_cast<int>(t.nco);
      const uint8_t* in_row =
          in_image + t.icb_lo * c.geom.in_cstride + (oy * c.sh - row0) * c.in_row;
      uint8_t* out_row = c.out ? c.out + n * c.out_image + t.ocb0 * c.geom.out_cstride + oy * c.out_row
                               : nullptr;
      for (int64_t ox = ox0; ox < ox1; ox += k.tile_ow_) {
        call.npix = static_cast<int>(std::min(k.tile_ow_, ox1 - ox));
        call.in = in_row + ox * c.geom.pix_bytes;
        if (tile_buf) {
          call.out = reinterpret_cast<uint8_t*>(tile_buf);
          k.fns_[call.nco * stride + call.npix](geom, call);
          for (int j = 0; j < call.nco; ++j) {
            c.tile_epilogue->fn(c.tile_epilogue->ctx, n, t.ocb0 + j, oy * c.ow + ox, call.npix,
                                tile_buf + j * k.tile_ow_ * 16);
          }
        } else {
          call.out = out_row + ox * c.out_pix;
          k.fns_[call.nco * stride + call.npix](geom, call);
        }
      }
    }
  }

  Isa isa_ = Isa::kScalar;
  int64_t nco_ = 1, tile_ow_ = 1, ocb_ = 0, icb_total_ = 0;
  bool madd16_ = false;  // int16 weights for GetDenseTileMadd16Avx2
  int64_t group_words_ = 0;  // > 0: the grouped tiles (4-channel words per group), see Make
  Epilogue ep_;
  std::vector<int32_t> bias_;
  std::vector<float> mult_;
  std::vector<int8_t> packed_;
  std::vector<OcTile> tiles_;
  std::vector<DenseTileFn> fns_;
};

absl::Status U8S8Dense::RunImpl(const Tensor& input, int32_t zx, Tensor* output,
                               pthreadpool_t pool, const TileEpilogue* tile_epilogue) const {
  const QuantizedConvParams& p = params_;
  ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), in_block_, DType::kU8, input.dtype()));
  if (tile_epilogue == nullptr) RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, ocb_, g.oh, g.ow, 16}));
  const int64_t ib = in_block_;
  const bool padded = p.pads[0] || p.pads[1] || p.pads[2] || p.pads[3];
  // A 1x1 stride-1 convolution without padding sees its planes as one row.
  // The u8i16 kernel reads a widened copy, made by the same banded padding
  // (with no border when the layer has no padding), twice the bytes.
  const bool widen = madd16_;
  const int64_t e = widen ? 2 : 1;
  const bool flat = !padded && !widen && p.kernel_h == 1 && p.kernel_w == 1 &&
                    p.strides[0] == 1 && p.strides[1] == 1;
  const int64_t hp = g.h + p.pads[0] + p.pads[2], wp = g.w + p.pads[1] + p.pads[3];
  RunCtx c;
  c.k = this;
  c.geom.icblk = ib;
  c.geom.kh = p.kernel_h;
  c.geom.kw = p.kernel_w;
  c.geom.in_cstride = hp * wp * ib;  // banded: the band's plane (below)
  c.geom.dil_h_bytes = p.dilation[0] * wp * ib * e;
  c.geom.dil_w_bytes = p.dilation[1] * ib * e;
  c.geom.pix_bytes = p.strides[1] * ib * e;
  c.out_pix = internal::OutPixelBytes(ep_);
  c.geom.out_cstride = g.oh * g.ow * c.out_pix;
  c.geom.ep = ep_;
  c.in = input.data<uint8_t>();
  c.in_image = icb_total_ * hp * wp * ib;
  c.in_row = wp * ib * e;
  c.out = tile_epilogue ? nullptr : output->data<uint8_t>();
  c.tile_epilogue = tile_epilogue;
  c.out_image = ocb_ * g.oh * g.ow * c.out_pix;
  c.out_row = g.ow * c.out_pix;
  c.oh = flat ? 1 : g.oh;
  c.ow = flat ? g.oh * g.ow : g.ow;
  c.sh = p.strides[0];
  c.n = g.n;
  // Spatial chunks of about 128 pixels (whole tiles); output-channel chunks
  // whose packed weights stay within about 128 KB (L2).
  const int64_t tiles_in_row = CeilDiv(c.ow, tile_ow_);
  int64_t chunk_tiles = std::min(tiles_in_row, std::max<int64_t>(1, 128 / tile_ow_));
  const int64_t ntiles = static_cast<int64_t>(tiles_.size());
  const int64_t tile_bytes =
      std::max<int64_t>(1, static_cast<int64_t>(packed_.size()) / ntiles);
  int64_t oc_chunks = CeilDiv(ntiles, std::clamp<int64_t>((128 << 10) / tile_bytes, 1, ntiles));
  // With threads, at least 4 work items per thread where the layer allows
  // it (late, small layers have only one or two chunks): split pixels
  // first, then output channels.
  const int64_t threads = pool ? static_cast<int64_t>(pthreadpool_get_threads_count(pool)) : 1;
  auto items = [&] { return oc_chunks * g.n * c.oh * CeilDiv(tiles_in_row, chunk_tiles); };
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
  const size_t spatial_items = static_cast<size_t>(g.n * c.oh * c.chunks_per_row);
  const bool spatial_major = static_cast<int64_t>(packed_.size()) <= kSpatialMajorWeightBytes;
  c.banded = padded || widen;
  if (c.banded) {
    BandPad& b = c.band;
    b.src = input.data<uint8_t>();
    b.rows = {g.h, g.w, wp, p.pads[0], p.pads[1], ib, static_cast<uint8_t>(zx)};
    if (widen) {
      b.rows.widen = internal::GetWidenPairsAvx2();
      if (b.rows.widen == nullptr) return absl::InternalError("missing the AVX2 widening");
    }
    b.hp = hp;
    b.planes = icb_total_;
    b.row_step = p.strides[0];
    b.n = g.n;
    // Threads splitting pixels take bands of rows (two per thread, so a
    // thread that steals an item pads a small band), one thread too;
    // otherwise each thread pads the whole input once. (One thread padding
    // the whole widened input of MobileNetV2's 16 -> 96 1x1 at 112x112 ran
    // it 10x slower, 3.99 ms against 0.40 ms in two bands, cap avx2; the
    // lone layer was fast either way.)
    b.all_images = !spatial_major;
    b.oh = g.oh;
    b.bands_per_image = b.all_images ? 1 : std::min(g.oh, 2 * threads);
    b.band_rows = CeilDiv(g.oh, b.bands_per_image);
    b.band_in_rows = std::min(hp, (b.band_rows - 1) * p.strides[0] +
                                      (p.kernel_h - 1) * p.dilation[0] + 1);
    b.run = NextRunId();
    RETURN_IF_ERROR(CheckPaddedBytes((b.all_images ? g.n : 1) * b.ImageBytes()));
    c.geom.in_cstride = b.PlaneBytes();
    c.in_image = b.ImageBytes();
  }
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

// ------------------------------------------------------------ u8s8 depthwise

class U8S8Depthwise final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& p,
                                                            Isa isa) {
    std::unique_ptr<U8S8Depthwise> k(new U8S8Depthwise());
    k->params_ = p;
    k->in_block_ = U8S8InputBlock(p);
    k->out_block_ = kU8S8OutputBlock;
    const IoLayouts layouts = LayoutsU8S8(p);
    k->input_layout_ = layouts.input;
    k->output_layout_ = layouts.output;
    k->mult_ch_ = p.out_channels / p.groups;
    k->ocb_ = CeilDiv(p.out_channels, 16);
    k->ep_ = MakeEpilogue(p);
    k->bias_ = PaddedBias(p, k->ocb_ * 16);
    k->mult_ = PaddedMultipliers(p, k->ocb_ * 16);
    const int64_t kk = p.kernel_h * p.kernel_w;
    k->w_.assign(k->ocb_ * kk * 16, 0);
    const int16_t* w = weight.data();
    for (int64_t oc = 0; oc < p.out_channels; ++oc) {
      for (int64_t i = 0; i < kk; ++i) k->w_[((oc / 16) * kk + i) * 16 + oc % 16] = w[oc * kk + i];
    }
    // AVX2 multiplies two taps at once: their weights as int16 pairs.
    const int64_t pairs = CeilDiv(kk, 2);
    if (isa == Isa::kAvx2) {
      k->w_pairs_.assign(k->ocb_ * pairs * 32, 0);
      for (int64_t oc = 0; oc < p.out_channels; ++oc) {
        for (int64_t i = 0; i < kk; ++i) {
          k->w_pairs_[(((oc / 16) * pairs + i / 2) * 16 + oc % 16) * 2 + i % 2] = w[oc * kk + i];
        }
      }
    }
    k->fn_ = &internal::DwRowScalar;
    if (isa == Isa::kAvx512Vnni) k->fn_ = internal::GetDwRowAvx512Vnni();
    if (isa == Isa::kAvx2) k->fn_ = internal::GetDwRowAvx2();
    if (k->fn_ == nullptr) return absl::InternalError("missing depthwise microkernel");
    k->pad_small_maps_ = isa != Isa::kScalar;
    k->description_ = Description(isa);
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  static std::string Description(Isa isa) { return absl::StrCat("u8s8.", IsaName(isa), ".depthwise"); }

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override {
    const QuantizedConvParams& p = params_;
    ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), 16, DType::kU8, input.dtype()));
    if (tile_epilogue == nullptr) RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, ocb_, g.oh, g.ow, 16}));
    const int64_t icb = CeilDiv(p.in_channels, 16);
    const uint8_t* in = input.data<uint8_t>();
    if (mult_ch_ > 1) {
      // Channel multiplier m: output channel oc reads input channel oc / m;
      // expand the input to the output's channels once.
      uint8_t* buf = Scratch(1, g.n * ocb_ * g.h * g.w * 16);
      const int64_t plane = g.h * g.w;
      for (int64_t n = 0; n < g.n; ++n) {
        for (int64_t oc = 0; oc < ocb_ * 16; ++oc) {
          const int64_t c = std::min(oc / mult_ch_, p.in_channels - 1);
          const uint8_t* s = in + ((n * icb + c / 16) * plane) * 16 + c % 16;
          uint8_t* d = buf + ((n * ocb_ + oc / 16) * plane) * 16 + oc % 16;
          for (int64_t i = 0; i < plane; ++i) d[i * 16] = s[i * 16];
        }
      }
      in = buf;
    }
    Ctx c;
    c.k = this;
    c.in = in;
    c.out = tile_epilogue ? nullptr : output->data<uint8_t>();
    c.tile_epilogue = tile_epilogue;
    c.n = g.n;
    c.oh = g.oh;
    c.plane_in = g.h * g.w * 16;
    c.out_pix = internal::OutPixelBytes(ep_);
    c.plane_out = g.oh * g.ow * c.out_pix;
    DwGeom& d = c.geom;
    d.h = g.h;
    d.w = g.w;
    d.ow = g.ow;
    d.kh = p.kernel_h;
    d.kw = p.kernel_w;
    d.sh = p.strides[0];
    d.sw = p.strides[1];
    d.dh = p.dilation[0];
    d.dw = p.dilation[1];
    d.pad_t = p.pads[0];
    d.pad_l = p.pads[1];
    d.zx = static_cast<uint8_t>(zx);
    d.ep = ep_;
    // Columns whose taps are all inside: ox*sw - pl >= 0 and
    // ox*sw - pl + (kw-1)*dw <= w-1.
    d.ow_lo = std::min(g.ow, CeilDiv(p.pads[1], p.strides[1]));
    const int64_t last = g.w - 1 + p.pads[1] - (p.kernel_w - 1) * p.dilation[1];
    d.ow_hi = last < 0 ? d.ow_lo : std::clamp(last / p.strides[1] + 1, d.ow_lo, g.ow);
    // Small maps (MobileNetV3's 7x7 and 4x4 with 5x5 windows) have few
    // outputs whose taps are all inside, and the border paths check every
    // tap: when fewer than 3/5 of the outputs are interior, copy the input
    // padded with zx first (a few KB there), so every output takes the
    // SIMD kernels' interior path (the 4x4 layers at the avx2 cap: 13 ->
    // 9.5 us). Above 3/5 (MobileNetV2's 14x14 stride 2: 36 of 49) the copy
    // costs more than the border saves.
    const int64_t oh_lo = std::min(g.oh, CeilDiv(p.pads[0], p.strides[0]));
    const int64_t last_h = g.h - 1 + p.pads[0] - (p.kernel_h - 1) * p.dilation[0];
    const int64_t oh_hi = last_h < 0 ? oh_lo : std::clamp(last_h / p.strides[0] + 1, oh_lo, g.oh);
    const int64_t hp = g.h + p.pads[0] + p.pads[2], wp = g.w + p.pads[1] + p.pads[3];
    // (Optional: a copy over the padded-input limit is skipped, not refused.)
    if (pad_small_maps_ && (d.ow_hi - d.ow_lo) * (oh_hi - oh_lo) * 5 < g.oh * g.ow * 3 &&
        g.n * ocb_ * hp * wp * 16 <= kMaxPaddedBytes) {
      uint8_t* padded = Scratch(3, g.n * ocb_ * hp * wp * 16);
      std::memset(padded, zx, g.n * ocb_ * hp * wp * 16);
      for (int64_t nb = 0; nb < g.n * ocb_; ++nb) {
        for (int64_t y = 0; y < g.h; ++y) {
          std::memcpy(padded + ((nb * hp + y + p.pads[0]) * wp + p.pads[1]) * 16, in + (nb * g.h + y) * g.w * 16,
                      g.w * 16);
        }
      }
      c.in = padded;
      c.plane_in = hp * wp * 16;
      d.h = hp;
      d.w = wp;
      d.pad_t = d.pad_l = 0;
      d.ow_lo = 0;
      d.ow_hi = g.ow;
    }
    // Rows outermost: with two threads each takes a contiguous band of rows
    // of every channel block, the band the dense kernels before and after
    // also give it, so activations stay in that core's cache between layers.
    // Each item covers whole blocks of at least ~512 output pixels.
    int64_t tile = std::max<int64_t>(1, 512 / g.ow);
    // Few rows (late layers: 14 or 7): rows alone split 7 items 4:3 between
    // two threads; cut the blocks too, for at least 8 items per thread.
    const int64_t threads = pool ? static_cast<int64_t>(pthreadpool_get_threads_count(pool)) : 1;
    const int64_t blocks = g.n * ocb_;
    if (threads > 1 && g.oh * CeilDiv(blocks, tile) < 8 * threads) {
      tile = std::max<int64_t>(1, CeilDiv(blocks, CeilDiv(8 * threads, g.oh)));
    }
    pthreadpool_parallelize_2d_tile_1d(pool, &Work, &c, static_cast<size_t>(g.oh),
                                       static_cast<size_t>(blocks), static_cast<size_t>(tile), 0);
    return absl::OkStatus();
  }

 private:
  struct Ctx {
    const U8S8Depthwise* k;
    DwGeom geom;
    const uint8_t* in;
    uint8_t* out;
    int64_t n, oh, plane_in, plane_out, out_pix;
    const TileEpilogue* tile_epilogue = nullptr;  // rows go there, not to `out`
  };
  static void Work(void* vctx, size_t oy, size_t nb0, size_t count) {
    for (size_t nb = nb0; nb < nb0 + count; ++nb) Row(*static_cast<const Ctx*>(vctx), oy, nb);
  }
  static void Row(const Ctx& c, size_t oy, size_t nb) {
    const U8S8Depthwise& k = *c.k;
    const int64_t b = nb % k.ocb_;
    const int64_t kk = k.params_.kernel_h * k.params_.kernel_w;
    DwRow r;
    r.in = c.in + nb * c.plane_in;
    r.w = k.w_.data() + b * kk * 16;
    if (!k.w_pairs_.empty()) r.w_pairs = k.w_pairs_.data() + b * CeilDiv(kk, 2) * 32;
    r.bias = k.bias_.data() + b * 16;
    r.mult = k.mult_.data() + b * 16;
    r.oh = oy;
    if (c.tile_epilogue) {
      int32_t* row = reinterpret_cast<int32_t*>(Scratch(2, c.geom.ow * internal::kRawPixelBytes));
      r.out = reinterpret_cast<uint8_t*>(row);
      k.fn_(c.geom, r);
      c.tile_epilogue->fn(c.tile_epilogue->ctx, static_cast<int64_t>(nb) / k.ocb_, b,
                          static_cast<int64_t>(oy) * c.geom.ow, c.geom.ow, row);
      return;
    }
    r.out = c.out + nb * c.plane_out + oy * c.geom.ow * c.out_pix;
    k.fn_(c.geom, r);
  }

  int64_t mult_ch_ = 1, ocb_ = 0;
  bool pad_small_maps_ = false;  // see RunImpl
  Epilogue ep_;
  std::vector<int32_t> bias_, w_;
  std::vector<int16_t> w_pairs_;  // AVX2 (DwRow::w_pairs)
  std::vector<float> mult_;
  DwRowFn fn_ = nullptr;
};

// ----------------------------------------------------------------- int16

class Int16Kernel final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const Tensor& weight,
                                                            const QuantizedConvParams& p,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            bool depthwise) {
    std::unique_ptr<Int16Kernel> k(new Int16Kernel());
    k->params_ = p;
    const IoLayouts layouts = LayoutsInt16(p);
    k->input_layout_ = layouts.input;
    k->output_layout_ = layouts.output;
    k->depthwise_ = depthwise;
    internal::Int16Setup& s = k->setup_;
    s.ep = MakeEpilogue(p);
    s.tile_co = depthwise ? 1 : tile_co;
    s.tile_ow = tile_ow;
    const int64_t oc_pad = CeilDiv(p.out_channels, s.tile_co) * s.tile_co;
    s.bias = PaddedBias(p, oc_pad);
    s.mult = PaddedMultipliers(p, oc_pad);
    internal::PackInt16(weight.data<int16_t>(), p.in_channels, p.out_channels, p.groups,
                        p.kernel_h, p.kernel_w, depthwise, &s);
    k->description_ = depthwise ? std::string("int16.portable.depthwise")
                                : absl::StrCat("int16.portable.dense tile_co=", tile_co,
                                               " tile_ow=", tile_ow);
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override {
    if (zx != 0) return Invalid("the int16 kernel pads with 0 (zero point already subtracted), got ", zx);
    if (tile_epilogue) return Invalid("the int16 kernel has no raw (i32) output");
    const QuantizedConvParams& p = params_;
    ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), 0, DType::kI16, input.dtype()));
    RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, p.out_channels, g.oh, g.ow}));
    internal::Int16Run r;
    r.n = g.n;
    r.c = p.in_channels;
    r.hp = g.h + p.pads[0] + p.pads[2];
    r.wp = g.w + p.pads[1] + p.pads[3];
    r.oh = g.oh;
    r.ow = g.ow;
    r.oc = p.out_channels;
    r.groups = p.groups;
    r.kh = p.kernel_h;
    r.kw = p.kernel_w;
    r.sh = p.strides[0];
    r.sw = p.strides[1];
    r.dh = p.dilation[0];
    r.dw = p.dilation[1];
    // Padded copy with slack: full register tiles may read past a row end.
    const int64_t slack = (setup_.tile_ow * r.sw + r.kw * r.dw + 64) * 2;
    RETURN_IF_ERROR(CheckPaddedBytes(g.n * r.c * r.hp * r.wp * 2 + slack));
    uint8_t* buf = Scratch(0, (g.n * r.c * r.hp * r.wp) * 2 + slack);
    PadCopy pc{input.data<uint8_t>(), buf, r.hp, {g.h, g.w, r.wp, p.pads[0], p.pads[1], 2, 0}};
    Parallel2D(pool, &PadCopy::Row, &pc, r.hp, g.n * r.c);
    std::memset(buf + g.n * r.c * r.hp * r.wp * 2, 0, slack);
    r.in = reinterpret_cast<const int16_t*>(buf);
    r.out = output->data<uint8_t>();
    internal::RunInt16(setup_, r, depthwise_, pool);
    return absl::OkStatus();
  }

 private:
  bool depthwise_ = false;
  internal::Int16Setup setup_;
};

}  // namespace

const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512Vnni:
      return "avx512vnni";
  }
  return "?";
}

bool IsaSupported(Isa isa) {
  // Compiled in (the build's compiler knew the ISA) and allowed on this host
  // (the CPU has it, and the cap, QNNC_ISA or --isa, does not exclude it).
  static const bool vnni_built = internal::GetDenseTileAvx512Vnni(1, 1, 16, 1) != nullptr;
  static const bool avx2_built = internal::GetDenseTileAvx2(1, 1, 16) != nullptr;
  const cpu::IsaLevel host = cpu::HostIsaLevel();
  switch (isa) {
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      return avx2_built && host >= cpu::IsaLevel::kAvx2;
    case Isa::kAvx512Vnni:
      return vnni_built && host >= cpu::IsaLevel::kAvx512vnni;
  }
  return false;
}

Isa DetectIsa() {
  return IsaSupported(Isa::kAvx512Vnni) ? Isa::kAvx512Vnni
         : IsaSupported(Isa::kAvx2)     ? Isa::kAvx2
                                        : Isa::kScalar;
}

KnobSpace ConfigSpaceU8S8(Isa isa, Arithmetic arith) {
  if (isa == Isa::kAvx2 && arith == Arithmetic::kMadd16) {
    return {{"tile_co", {16, 32}}, {"tile_ow", {2, 3, 4, 6}}};
  }
  if (isa == Isa::kAvx512Vnni && arith == Arithmetic::kMadd16) {
    return {{"tile_co", {16, 32}}, {"tile_ow", {4, 6, 8, 12}}};
  }
  if (isa == Isa::kAvx2) return {{"tile_co", {16}}, {"tile_ow", {2, 4, 6}}};
  return {{"tile_co", {16, 32}}, {"tile_ow", {4, 7, 8, 14}}};
}

KnobSpace ConfigSpaceInt16() { return {{"tile_co", {4, 8, 16}}, {"tile_ow", {4, 8}}}; }

KnobMap DefaultConfigU8S8(const QuantizedConvParams& p, Isa isa, int64_t out_width,
                          Arithmetic arith) {
  const bool flat = p.kernel_h == 1 && p.kernel_w == 1 && p.strides[0] == 1 &&
                    p.strides[1] == 1 && p.pads == std::array<int64_t, 4>{0, 0, 0, 0};
  if (isa == Isa::kAvx2 && arith == Arithmetic::kMadd16) {
    // 16 x 4 keeps every accumulator in a register (r50_c2_3x3 at cap avx2
    // on Zen 5: 159 GOPS, against 154 with 16 x 6, which spills).
    return {{"tile_co", 16}, {"tile_ow", 4}};
  }
  if (isa == Isa::kAvx512Vnni && arith == Arithmetic::kMadd16) {
    return {{"tile_co", p.out_channels > 16 ? 32 : 16}, {"tile_ow", flat || out_width == 0 || out_width >= 12 ? 12 : 8}};
  }
  if (isa == Isa::kAvx2) {
    return {{"tile_co", 16}, {"tile_ow", (out_width > 0 && out_width < 6 && !flat) ? 4 : 6}};
  }
  // With NCHW4c inputs (in_channels <= 4) the 2x14 tile spills a register:
  // at most 8 pixels there.
  const bool small_c = p.in_channels <= 4;
  int64_t ow = small_c ? 8 : 14;
  if (!flat && out_width > 0) {
    // The candidate leaving the fewest idle pixel slots, the larger on ties.
    int64_t best_waste = -1;
    for (int64_t c : {14, 8, 7, 4}) {
      if (small_c && c == 14) continue;
      const int64_t waste = CeilDiv(out_width, c) * c - out_width;
      if (best_waste < 0 || waste < best_waste) best_waste = waste, ow = c;
    }
  }
  // One block of 5..16 input channels (e.g. MobileNetV2's 16 -> 96 1x1): each
  // accumulator gets only 4 vpdpbusd, and single-block tiles run faster
  // (mbv2_pw_112: 0.114 ms with 16/14 against 0.131 ms with 32/14; wider
  // tiles than 14 pixels spill registers).
  const bool one_block = p.in_channels > 4 && p.in_channels <= 16 && p.groups == 1;
  return {{"tile_co", p.out_channels > 16 && !one_block ? 32 : 16}, {"tile_ow", ow}};
}

IoLayouts LayoutsU8S8(const QuantizedConvParams& p) {
  return {absl::StrCat("NCHW", U8S8InputBlock(p), "c"), absl::StrCat("NCHW", kU8S8OutputBlock, "c")};
}

IoLayouts LayoutsInt16(const QuantizedConvParams&) { return {"NCHW", "NCHW"}; }

KnobMap DefaultConfigInt16(const QuantizedConvParams& p, int64_t out_width) {
  const int64_t co = p.out_channels / p.groups >= 16 ? 16 : p.out_channels / p.groups >= 8 ? 8 : 4;
  return {{"tile_co", co}, {"tile_ow", out_width > 0 && out_width < 8 ? 4 : 8}};
}

namespace {
int64_t MaxPairSum(const int16_t* w, const Shape& shape, int64_t groups) {
  const int64_t oc_count = shape[0], cg = shape[1];
  const int64_t kk = shape[2] * shape[3], og = std::max<int64_t>(1, oc_count / groups);
  int64_t worst = 0;
  for (int64_t oc = 0; oc < oc_count; ++oc) {
    const int64_t lo = (oc / og) * cg, hi = lo + cg;  // the group's input channels
    for (int64_t k = 0; k < kk; ++k) {
      for (int64_t m = lo / 2; 2 * m < hi; ++m) {
        int64_t pos = 0, neg = 0;
        for (int64_t ic = 2 * m; ic <= 2 * m + 1; ++ic) {
          if (ic < lo || ic >= hi) continue;
          const int64_t v = w[(oc * cg + (ic - lo)) * kk + k];
          (v > 0 ? pos : neg) += v > 0 ? v : -v;
        }
        worst = std::max({worst, pos, neg});
      }
    }
  }
  return worst;
}
}  // namespace

int64_t MaxWeightPairSum(const Tensor& weight, int64_t groups) {
  std::vector<int16_t> w(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return MaxPairSum(w.data(), weight.shape(), groups);
}

static absl::Status CheckArithmetic(const QuantizedConvParams& params,
                                    const std::vector<int16_t>& weight, const Shape& shape, Isa isa,
                                    Arithmetic arith) {
  if (!IsDepthwise(params) && arith != Arithmetic::kMadd16 && !FitsS8(weight)) {
    return Invalid("weights outside [-128, 127] (w - zw of 8-bit weights) need the madd16 "
                   "arithmetic (dense) or a depthwise kernel");
  }
  if (arith == Arithmetic::kMaddubs && isa == Isa::kAvx2 && !IsDepthwise(params)) {
    const int64_t sum = MaxPairSum(weight.data(), shape, params.groups);
    if (sum > kMaddubsMaxPairSum) {
      return absl::FailedPreconditionError(absl::StrCat(
          "spatial_pack conv2d: a weight pair (input channels 2m, 2m+1) sums to ", sum,
          " in magnitude, over ", kMaddubsMaxPairSum,
          ": vpmaddubsw's int16 sum could saturate (use Arithmetic::kMadd16)"));
    }
  }
  if (arith != Arithmetic::kMadd16) return absl::OkStatus();
  if (isa != Isa::kAvx2 && isa != Isa::kAvx512Vnni) {
    return Invalid("madd16 arithmetic is for AVX2 and AVX-512 VNNI only, not ", IsaName(isa));
  }
  if (IsDepthwise(params)) {
    return Invalid("madd16 arithmetic has no depthwise kernel (the AVX2 depthwise kernel already "
                   "multiplies in int16)");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::CreateU8S8(
    const Tensor& weight, const QuantizedConvParams& params, const KnobMap& config, Isa isa,
    Arithmetic arith) {
  RETURN_IF_ERROR(ValidateParams(params, weight, weight.dtype() == DType::kI16 ? DType::kI16 : DType::kI8));
  if (params.input_zero_point < 0 || params.input_zero_point > 255) {
    return Invalid("u8 input_zero_point must be in [0, 255], got ", params.input_zero_point);
  }
  ASSIGN_OR_RETURN(std::vector<int16_t> values, WeightValues(weight));
  RETURN_IF_ERROR(CheckArithmetic(params, values, weight.shape(), isa, arith));
  if (!IsaSupported(isa)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "instruction set ", IsaName(isa), " is not available on this host (",
        cpu::DescribeHostIsa(), ")"));
  }
  ASSIGN_OR_RETURN(auto tiles, ResolveTiles(config, ConfigSpaceU8S8(isa, arith),
                                            DefaultConfigU8S8(params, isa, 0, arith)));
  if (IsDepthwise(params)) return U8S8Depthwise::Make(values, params, isa);
  return U8S8Dense::Make(values, params, tiles.first, tiles.second, isa, arith);
}

absl::StatusOr<std::string> Conv2DKernel::DescribeU8S8(const Tensor& weight,
                                                       const QuantizedConvParams& params,
                                                       const KnobMap& config, Isa isa,
                                                       Arithmetic arith) {
  RETURN_IF_ERROR(ValidateParams(params, weight, weight.dtype() == DType::kI16 ? DType::kI16 : DType::kI8));
  if (params.input_zero_point < 0 || params.input_zero_point > 255) {
    return Invalid("u8 input_zero_point must be in [0, 255], got ", params.input_zero_point);
  }
  ASSIGN_OR_RETURN(std::vector<int16_t> values, WeightValues(weight));
  RETURN_IF_ERROR(CheckArithmetic(params, values, weight.shape(), isa, arith));
  ASSIGN_OR_RETURN(auto tiles, ResolveTiles(config, ConfigSpaceU8S8(isa, arith),
                                            DefaultConfigU8S8(params, isa, 0, arith)));
  if (IsDepthwise(params)) return U8S8Depthwise::Description(isa);
  return U8S8Dense::Description(tiles.first, tiles.second, isa, arith);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::CreateInt16(
    const Tensor& weight, const QuantizedConvParams& params, const KnobMap& config) {
  RETURN_IF_ERROR(ValidateParams(params, weight, DType::kI16));
  if (params.out_dtype == DType::kI32) return Invalid("the int16 kernel has no raw (i32) output");
  if (params.input_zero_point != 0) {
    return Invalid("int16 input_zero_point must be 0 (already subtracted), got ",
                   params.input_zero_point);
  }
  ASSIGN_OR_RETURN(auto tiles,
                   ResolveTiles(config, ConfigSpaceInt16(), DefaultConfigInt16(params)));
  return Int16Kernel::Make(weight, params, tiles.first, tiles.second, IsDepthwise(params));
}

absl::StatusOr<Shape> Conv2DKernel::OutputShape(const Shape& input_shape) const {
  const DType in_dtype = in_block_ ? DType::kU8 : DType::kI16;
  ASSIGN_OR_RETURN(OutGeom g, Geometry(params_, input_shape, in_block_, in_dtype, in_dtype));
  if (out_block_) return Shape{g.n, CeilDiv(params_.out_channels, out_block_), g.oh, g.ow, out_block_};
  return Shape{g.n, params_.out_channels, g.oh, g.ow};
}

namespace {

// Pixels per tile of the layout loops: a tile of one channel block (4 KB)
// stays in L1 while its channels are gathered or scattered one plane at a
// time, and is large enough that the thread pool's cost per item (tens of
// ns at two threads) stays small.
int64_t TilePix(int64_t block, size_t elem) {
  return std::max<int64_t>(64, 4096 / (block * static_cast<int64_t>(elem)));
}

// PackWords builds little-endian words; big-endian machines take the
// generic byte loop.
constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// out[x] = the bytes lane[0..3][x] (little-endian), a null lane giving
// `pad`, for x in [x0, x1). Lanes are whole planes, so x indexes them directly.
void PackWords(const uint8_t* const lane[4], uint8_t pad, int64_t x0, int64_t x1,
               uint32_t* __restrict out) {
  const uint8_t* __restrict l0 = lane[0];
  const uint8_t* __restrict l1 = lane[1];
  const uint8_t* __restrict l2 = lane[2];
  const uint8_t* __restrict l3 = lane[3];
  if (l0 && l1 && l2 && !l3) {  // three channels: RGB images
    const uint32_t p = static_cast<uint32_t>(pad) << 24;
    for (int64_t x = x0; x < x1; ++x) {
      out[x] = l0[x] | (static_cast<uint32_t>(l1[x]) << 8) | (static_cast<uint32_t>(l2[x]) << 16) |
               p;
    }
    return;
  }
  for (int64_t x = x0; x < x1; ++x) {
    uint32_t v = 0;
    for (int l = 0; l < 4; ++l) {
      v |= static_cast<uint32_t>(lane[l] ? lane[l][x] : pad) << (8 * l);
    }
    out[x] = v;
  }
}

// One pixel tile of one (image, channel block): items run tile-major, so
// with threads each takes a band of rows of every block (as the kernels do).
template <typename T>
struct BlockTask {
  const T* s;
  T* d;
  int64_t c, cb, plane, block;
  T pad;
  int64_t tile;  // pixels per item: TilePix(block, sizeof(T))

  static void To(void* ctx, size_t tile, size_t ib) {
    const BlockTask& t = *static_cast<const BlockTask*>(ctx);
    const int64_t i = static_cast<int64_t>(ib) / t.cb, b = static_cast<int64_t>(ib) % t.cb;
    const int64_t x0 = static_cast<int64_t>(tile) * t.tile, x1 = std::min(t.plane, x0 + t.tile);
    T* dst = t.d + (i * t.cb + b) * t.plane * t.block;
    if constexpr (sizeof(T) == 1 && kLittleEndian) {
      // Bytes into blocks of 4 (the image stem's input): one 32-bit word per
      // pixel instead of four strided byte stores; the loop vectorizes.
      if (t.block == 4) {
        const uint8_t* lane[4];
        const uint8_t pad = static_cast<uint8_t>(t.pad);
        for (int64_t l = 0; l < 4; ++l) {
          const int64_t ch = b * 4 + l;
          lane[l] = ch < t.c ? reinterpret_cast<const uint8_t*>(t.s) + (i * t.c + ch) * t.plane
                             : nullptr;
        }
        uint32_t* out = reinterpret_cast<uint32_t*>(dst);
        PackWords(lane, pad, x0, x1, out);
        return;
      }
    }
    for (int64_t l = 0; l < t.block; ++l) {
      const int64_t ch = b * t.block + l;
      T* dp = dst + l;
      if (ch < t.c) {
        const T* sp = t.s + (i * t.c + ch) * t.plane;
        for (int64_t x = x0; x < x1; ++x) dp[x * t.block] = sp[x];
      } else {
        for (int64_t x = x0; x < x1; ++x) dp[x * t.block] = t.pad;
      }
    }
  }

  static void From(void* ctx, size_t tile, size_t ib) {
    const BlockTask& t = *static_cast<const BlockTask*>(ctx);
    const int64_t i = static_cast<int64_t>(ib) / t.cb, b = static_cast<int64_t>(ib) % t.cb;
    if (b * t.block >= t.c) return;
    const int64_t x0 = static_cast<int64_t>(tile) * t.tile, x1 = std::min(t.plane, x0 + t.tile);
    const T* src = t.s + (i * t.cb + b) * t.plane * t.block;
    const int64_t lanes = std::min(t.block, t.c - b * t.block);
    for (int64_t l = 0; l < lanes; ++l) {
      T* dp = t.d + (i * t.c + b * t.block + l) * t.plane;
      const T* sp = src + l;
      for (int64_t x = x0; x < x1; ++x) dp[x] = sp[x * t.block];
    }
  }
};

// Calls f with a typed null pointer of the unsigned type of `size` bytes
// (1, 2, 4 or 8): the loops only move bits.
template <typename F>
bool WithElementType(size_t size, F&& f) {
  switch (size) {
    case 1:
      f(static_cast<uint8_t*>(nullptr));
      return true;
    case 2:
      f(static_cast<uint16_t*>(nullptr));
      return true;
    case 4:
      f(static_cast<uint32_t*>(nullptr));
      return true;
    case 8:
      f(static_cast<uint64_t*>(nullptr));
      return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Tensor> ToBlocked(const Tensor& nchw, int64_t block, int64_t pad_value,
                                 pthreadpool_t pool) {
  Tensor out;
  RETURN_IF_ERROR(ToBlockedInto(nchw, block, pad_value, &out, pool));
  return out;
}

absl::Status ToBlockedInto(const Tensor& nchw, int64_t block, int64_t pad_value, Tensor* output,
                           pthreadpool_t pool) {
  if (nchw.rank() != 4 || block <= 0) {
    return Invalid("ToBlocked needs a rank-4 tensor and a positive block, got ",
                   tensor::ShapeToString(nchw.shape()), " block ", block);
  }
  const int64_t n = nchw.dim(0), c = nchw.dim(1), plane = nchw.dim(2) * nchw.dim(3);
  const int64_t cb = CeilDiv(c, block);
  RETURN_IF_ERROR(PrepareOutput(output, nchw.dtype(), {n, cb, nchw.dim(2), nchw.dim(3), block}));
  Tensor& out = *output;
  const size_t es = tensor::DTypeSize(nchw.dtype());
  const bool ok = WithElementType(es, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    // The pad value in the element type (its low bytes: integer dtypes).
    T pad{};
    std::memcpy(&pad, &pad_value, std::min(sizeof(T), sizeof(pad_value)));
    BlockTask<T> t{static_cast<const T*>(nchw.raw_data()), static_cast<T*>(out.raw_data()), c, cb,
                   plane, block, pad, TilePix(block, sizeof(T))};
    Parallel2D(pool, &BlockTask<T>::To, &t, static_cast<size_t>(CeilDiv(plane, t.tile)),
               static_cast<size_t>(n * cb));
  });
  if (!ok) return Invalid("ToBlocked: unsupported element size ", es);
  return absl::OkStatus();
}

absl::StatusOr<Tensor> FromBlocked(const Tensor& blocked, int64_t channels, pthreadpool_t pool) {
  Tensor out;
  RETURN_IF_ERROR(FromBlockedInto(blocked, channels, &out, pool));
  return out;
}

absl::Status FromBlockedInto(const Tensor& blocked, int64_t channels, Tensor* output,
                             pthreadpool_t pool) {
  if (blocked.rank() != 5 || channels <= 0 || channels > blocked.dim(1) * blocked.dim(4)) {
    return Invalid("FromBlocked needs a rank-5 tensor holding ", channels, " channels, got ",
                   tensor::ShapeToString(blocked.shape()));
  }
  const int64_t n = blocked.dim(0), cb = blocked.dim(1), block = blocked.dim(4);
  const int64_t plane = blocked.dim(2) * blocked.dim(3);
  RETURN_IF_ERROR(PrepareOutput(output, blocked.dtype(), {n, channels, blocked.dim(2), blocked.dim(3)}));
  Tensor& out = *output;
  const size_t es = tensor::DTypeSize(blocked.dtype());
  const bool ok = WithElementType(es, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    BlockTask<T> t{static_cast<const T*>(blocked.raw_data()), static_cast<T*>(out.raw_data()),
                   channels, cb, plane, block, T{}, TilePix(block, sizeof(T))};
    Parallel2D(pool, &BlockTask<T>::From, &t, static_cast<size_t>(CeilDiv(plane, t.tile)),
               static_cast<size_t>(n * cb));
  });
  if (!ok) return Invalid("FromBlocked: unsupported element size ", es);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::spatial_pack
