#include "kernels/spatial_pack/dynamic_conv.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/float_range.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using tensor::DType;
using tensor::Tensor;

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat("dynamic conv2d: ", args...));
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// w' = w - zw[oc] as i16 OIHW, and the raw kernel's parameters.
struct Prepared {
  Tensor weight;
  std::vector<int32_t> sums;
  QuantizedConvParams params;
};

absl::StatusOr<Prepared> Prepare(const Tensor& weight, const std::vector<int32_t>& zw,
                                 const QuantizedConvParams& geometry) {
  if (!weight.defined() || (weight.dtype() != DType::kU8 && weight.dtype() != DType::kI8) ||
      weight.rank() != 4) {
    return Invalid("weight must be u8 or i8 OIHW, got ",
                   weight.defined() ? tensor::DTypeName(weight.dtype()) : "undefined", " ",
                   weight.defined() ? tensor::ShapeToString(weight.shape()) : "");
  }
  const int64_t oc = weight.dim(0);
  if (zw.size() != 1 && static_cast<int64_t>(zw.size()) != oc) {
    return Invalid("weight zero point has ", zw.size(), " values; want 1 or ", oc);
  }
  const int64_t lo = tensor::DTypeMin(weight.dtype()), hi = tensor::DTypeMax(weight.dtype());
  for (int32_t z : zw) {
    if (z < lo || z > hi) {
      return Invalid("weight zero point ", z, " is outside the ", tensor::DTypeName(weight.dtype()),
                     " range");
    }
  }
  // |x * w'| <= 255 * 255 per product: the int32 sums stay exact for at most
  // this many products per output (the reference's sum has the same bound).
  const int64_t k = weight.dim(1) * weight.dim(2) * weight.dim(3);
  if (k > (int64_t{1} << 31) / (255 * 255)) {
    return Invalid(k, " products per output could overflow the int32 accumulator");
  }
  Prepared p;
  ASSIGN_OR_RETURN(p.weight, Tensor::CreateForOverwrite(DType::kI16, weight.shape()));
  p.sums.assign(oc, 0);
  int16_t* dst = p.weight.data<int16_t>();
  for (int64_t o = 0; o < oc; ++o) {
    const int32_t z = zw.size() == 1 ? zw[0] : zw[o];
    for (int64_t i = 0; i < k; ++i) {
      const int64_t idx = o * k + i;
      const int32_t v = static_cast<int32_t>(weight.GetAsInt(idx)) - z;
      dst[idx] = static_cast<int16_t>(v);
      p.sums[o] += v;
    }
  }
  p.params = geometry;
  p.params.out_channels = oc;
  p.params.bias.clear();
  p.params.requant_multiplier = {1.0f};
  p.params.output_zero_point = 0;
  p.params.clamp_min = INT32_MIN;
  p.params.clamp_max = INT32_MAX;
  p.params.input_zero_point = 0;
  p.params.out_dtype = DType::kI32;
  return p;
}

// The epilogue of one tile of int32 accumulators ([npix][16], channel
// order), called by the convolution's worker threads while the tile is in
// their cache (Conv2DKernel::RunWithTileEpilogue): minus the compensation,
// then either int32 or the float epilogue, into the blocked output (its
// pixels are contiguous: the lane loops vectorize; padding lanes 0) or the
// NCHW planes.
// The range of a run's outputs, accumulated per thread without locks: a
// thread registers its accumulator with the run the first time it sees it.
struct RangeAcc {
  uint64_t run = 0;
  FloatRange range;
};
RangeAcc& ThreadRangeAcc() {
  thread_local RangeAcc acc;
  return acc;
}
uint64_t NextRun() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

struct TileContext {
  void* out;
  // Whether to compute the range of the float outputs (DynamicQuantizeLinear's).
  bool want_range = false;
  uint64_t run = 0;
  std::mutex* mu = nullptr;
  std::vector<RangeAcc*>* accs = nullptr;
  const int32_t* comp;  // [ocb * 16] zx * sum(w')
  const float* scale;   // [ocb * 16]
  const float* bias;    // [ocb * 16] or nullptr
  bool to_float, clip, blocked;
  float lo, hi;
  int64_t c, ocb, plane;
};

// Locals and __restrict so that the lane loop vectorizes (the clamp stays
// the reference's compare-and-select, in registers). Each lane also keeps
// the range of its values (DynamicQuantizeLinear's: from 0, a value replaces
// only when strictly beyond, so NaN never does), in registers too, instead
// of a second pass over the tile.
template <bool kBias, bool kClip>
QNNC_CLONE_BODY void Floats(const int32_t* __restrict src, const int32_t* comp_in,
                            const float* scale_in, const float* bias_in, float lo, float hi,
                            int64_t n, float (*__restrict out)[16], FloatRange* range) {
  int32_t comp[16];
  float scale[16], bias[16], min[16], max[16];
  for (int l = 0; l < 16; ++l) {
    comp[l] = comp_in[l];
    scale[l] = scale_in[l];
    bias[l] = kBias ? bias_in[l] : 0.0f;
    min[l] = max[l] = 0.0f;
  }
  for (int64_t x = 0; x < n; ++x) {
    for (int l = 0; l < 16; ++l) {
      float v = static_cast<float>(src[x * 16 + l] - comp[l]) * scale[l];
      if constexpr (kBias) v = v + bias[l];
      if constexpr (kClip) {
        // v < lo ? lo : (v > hi ? hi : v), as two selects (NaN stays NaN).
        const float upper = v > hi ? hi : v;
        v = v < lo ? lo : upper;
      }
      out[x][l] = v;
      min[l] = v < min[l] ? v : min[l];
      max[l] = v > max[l] ? v : max[l];
    }
  }
  for (int l = 0; l < 16; ++l) {
    FloatRange r;
    r.lo = min[l];
    r.hi = max[l];
    range->Merge(r);
  }
}

// The range of a tile, merged into the calling thread's accumulator for
// this run (registered with the run the first time the thread sees it).
void AddRange(const TileContext& t, const FloatRange& tile_range) {
  RangeAcc& acc = ThreadRangeAcc();
  if (acc.run != t.run) {
    acc.run = t.run;
    acc.range = FloatRange();
    std::lock_guard<std::mutex> lock(*t.mu);
    t.accs->push_back(&acc);
  }
  acc.range.Merge(tile_range);
}

QNNC_CLONE_BODY void FloatTile(const TileContext& t, const int32_t* src, const int32_t* comp,
                               const float* scale, const float* bias, int64_t n,
                               float (*out)[16]) {
  FloatRange r;
  if (bias && t.clip) Floats<true, true>(src, comp, scale, bias, t.lo, t.hi, n, out, &r);
  if (bias && !t.clip) Floats<true, false>(src, comp, scale, bias, t.lo, t.hi, n, out, &r);
  if (!bias && t.clip) Floats<false, true>(src, comp, scale, bias, t.lo, t.hi, n, out, &r);
  if (!bias && !t.clip) Floats<false, false>(src, comp, scale, bias, t.lo, t.hi, n, out, &r);
  // Padding lanes (channels past the last) hold clip(0 * 0 + 0): inside
  // [min(0, min), max(0, max)] of the real values, they never change it.
  if (t.want_range) AddRange(t, r);
}

QNNC_CLONE_BODY void TileBody(const void* ctx, int64_t i, int64_t b, int64_t pixel0, int64_t n,
                              const int32_t* src) {
  const TileContext& t = *static_cast<const TileContext*>(ctx);
  const int32_t* comp = t.comp + b * 16;
  const int64_t lanes = std::min<int64_t>(16, t.c - b * 16);
  const float* scale = t.to_float ? t.scale + b * 16 : nullptr;
  const float* bias = t.bias ? t.bias + b * 16 : nullptr;
  if (t.blocked) {
    const int64_t at = ((i * t.ocb + b) * t.plane + pixel0) * 16;
    if (t.to_float) {
      float(*out)[16] = reinterpret_cast<float(*)[16]>(static_cast<float*>(t.out) + at);
      FloatTile(t, src, comp, scale, bias, n, out);
      for (int64_t x = 0; lanes < 16 && x < n; ++x) {
        for (int64_t l = lanes; l < 16; ++l) out[x][l] = 0.0f;
      }
    } else {
      int32_t* out = static_cast<int32_t*>(t.out) + at;
      for (int64_t x = 0; x < n; ++x) {
        for (int l = 0; l < 16; ++l) out[x * 16 + l] = l < lanes ? src[x * 16 + l] - comp[l] : 0;
      }
    }
    return;
  }
  const int64_t plane0 = (i * t.c + b * 16) * t.plane + pixel0;
  if (!t.to_float) {
    int32_t* out = static_cast<int32_t*>(t.out) + plane0;
    for (int64_t l = 0; l < lanes; ++l) {
      for (int64_t x = 0; x < n; ++x) out[l * t.plane + x] = src[x * 16 + l] - comp[l];
    }
    return;
  }
  // Through a tile in pixel order, then to the channel planes.
  thread_local std::vector<float> tile;
  if (static_cast<int64_t>(tile.size()) < n * 16) tile.resize(n * 16);
  float(*buf)[16] = reinterpret_cast<float(*)[16]>(tile.data());
  FloatTile(t, src, comp, scale, bias, n, buf);
  float* out = static_cast<float*>(t.out) + plane0;
  for (int64_t l = 0; l < lanes; ++l) {
    for (int64_t x = 0; x < n; ++x) out[l * t.plane + x] = buf[x][l];
  }
}

// TileBody compiled per x86-64 level (kernels/cpu_clones.h), the clone
// chosen by the host's level and the cap.
using TileFn = void (*)(const void*, int64_t, int64_t, int64_t, int64_t, const int32_t*);
#if QNNC_HAS_CPU_CLONES
QNNC_TARGET_X86_64_V4 void TileAvx512(const void* c, int64_t i, int64_t b, int64_t p, int64_t n,
                                      const int32_t* s) {
  TileBody(c, i, b, p, n, s);
}
QNNC_TARGET_X86_64_V3 void TileAvx2(const void* c, int64_t i, int64_t b, int64_t p, int64_t n,
                                    const int32_t* s) {
  TileBody(c, i, b, p, n, s);
}
#endif
void TileBaseline(const void* c, int64_t i, int64_t b, int64_t p, int64_t n, const int32_t* s) {
  TileBody(c, i, b, p, n, s);
}
TileFn PickTileFn() {
  return PickForHost<TileFn>({QNNC_X86_BODY(TileAvx512), QNNC_X86_BODY(TileAvx2)}, &TileBaseline);
}

// `count` values (1 or `channels`) spread over `padded` channels (extra: 0).
void PerChannel(const float* v, int64_t count, int64_t channels, int64_t padded,
                std::vector<float>* out) {
  out->assign(padded, 0.0f);
  for (int64_t c = 0; c < channels; ++c) (*out)[c] = v[count == 1 ? 0 : c];
}

// The per-run tables of the calling thread, kept between runs (no allocation
// per run once they have grown).
struct RunTables {
  std::vector<int32_t> comp;
  std::vector<float> scale, bias;
};
RunTables& ThreadTables() {
  thread_local RunTables tables;
  return tables;
}

// The int16 path's epilogue, one NCHW plane per task, in place: the
// plane's i32 accumulators become its floats (each element read before it
// is written), and the plane's range.
struct PlaneEpilogue {
  void* data;  // i32 in, f32 out
  int64_t plane, channels;
  const float* scale;  // [channels]
  const float* bias;   // [channels] or nullptr
  bool clip;
  float lo, hi;
  FloatRange* ranges;  // [planes]

  static void Run(void* ctx, size_t i) {
    const PlaneEpilogue& e = *static_cast<const PlaneEpilogue*>(ctx);
    const int64_t c = static_cast<int64_t>(i) % e.channels;
    const int32_t* acc = static_cast<const int32_t*>(e.data) + static_cast<int64_t>(i) * e.plane;
    float* out = static_cast<float*>(e.data) + static_cast<int64_t>(i) * e.plane;
    const float scale = e.scale[c], bias = e.bias ? e.bias[c] : 0.0f;
    FloatRange r;
    for (int64_t j = 0; j < e.plane; ++j) {
      float v = static_cast<float>(acc[j]) * scale;
      if (e.bias) v = v + bias;
      if (e.clip) {
        const float upper = v > e.hi ? e.hi : v;
        v = v < e.lo ? e.lo : upper;
      }
      out[j] = v;
      r.lo = v < r.lo ? v : r.lo;
      r.hi = v > r.hi ? v : r.hi;
    }
    e.ranges[i] = r;
  }
};

}  // namespace

Arithmetic DynamicArithmetic(Isa isa, bool depthwise, bool weights_fit_s8) {
  if (depthwise || isa == Isa::kScalar) return Arithmetic::kMaddubs;
  if (isa == Isa::kAvx2) return Arithmetic::kMadd16;
  return weights_fit_s8 ? Arithmetic::kMaddubs : Arithmetic::kMadd16;
}

absl::StatusOr<std::unique_ptr<DynamicConv2D>> DynamicConv2D::Create(
    const Tensor& weight, const std::vector<int32_t>& weight_zero_point,
    const QuantizedConvParams& geometry, const KnobMap& config, Isa isa, Arithmetic arith) {
  ASSIGN_OR_RETURN(Prepared p, Prepare(weight, weight_zero_point, geometry));
  std::unique_ptr<DynamicConv2D> k(new DynamicConv2D());
  ASSIGN_OR_RETURN(k->conv_, Conv2DKernel::CreateU8S8(p.weight, p.params, config, isa, arith));
  k->weight_sums_ = std::move(p.sums);
  return k;
}

absl::StatusOr<std::unique_ptr<DynamicConv2D>> DynamicConv2D::CreateInt16(
    const Tensor& weight, const std::vector<int32_t>& weight_zero_point,
    const QuantizedConvParams& geometry, const KnobMap& config) {
  ASSIGN_OR_RETURN(Prepared p, Prepare(weight, weight_zero_point, geometry));
  std::unique_ptr<DynamicConv2D> k(new DynamicConv2D());
  ASSIGN_OR_RETURN(k->conv_, Conv2DKernel::CreateInt16(p.weight, p.params, config));
  k->int16_ = true;
  return k;
}

absl::StatusOr<std::string> DynamicConv2D::Describe(const Tensor& weight,
                                                    const std::vector<int32_t>& weight_zero_point,
                                                    const QuantizedConvParams& geometry,
                                                    const KnobMap& config, Isa isa,
                                                    Arithmetic arith) {
  ASSIGN_OR_RETURN(Prepared p, Prepare(weight, weight_zero_point, geometry));
  ASSIGN_OR_RETURN(std::string d, Conv2DKernel::DescribeU8S8(p.weight, p.params, config, isa, arith));
  return "dynamic " + d;
}

namespace {

// Run's checks: the output, the input (u8 NCHW unless blocked), its zero
// point, the epilogue's sizes.
absl::Status CheckRunArgs(const QuantizedConvParams& p, bool int16, bool blocked, const Tensor& input,
                          int32_t input_zero_point, const DynamicEpilogue* epilogue, const Tensor* output) {
  if (output == nullptr) return Invalid("output is null");
  if (int16 && blocked) return Invalid("the int16 kernel reads and writes NCHW only");
  if (!blocked && (!input.defined() || input.dtype() != DType::kU8 || input.rank() != 4 ||
                   input.dim(1) != p.in_channels)) {
    return Invalid("input must be u8 NCHW with ", p.in_channels, " channels, got ",
                   input.defined() ? tensor::DTypeName(input.dtype()) : "undefined", " ",
                   input.defined() ? tensor::ShapeToString(input.shape()) : "");
  }
  if (input_zero_point < 0 || input_zero_point > 255) {
    return Invalid("input zero point ", input_zero_point, " is outside [0, 255]");
  }
  const int64_t c = p.out_channels;
  if (epilogue != nullptr) {
    const int64_t sc = epilogue->scale_count, bc = epilogue->bias_count;
    if (epilogue->scale == nullptr || (sc != 1 && sc != c)) {
      return Invalid("scale has ", sc, " values; want 1 or ", c);
    }
    if (epilogue->bias != nullptr && bc != 1 && bc != c) {
      return Invalid("bias has ", bc, " values; want 1 or ", c);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DynamicConv2D::Run(const Tensor& input, int32_t input_zero_point,
                                const DynamicEpilogue* epilogue, Tensor* output,
                                pthreadpool_t pool, Layouts layouts, float* range) const {
  const QuantizedConvParams& p = conv_->params();
  const bool blocked = layouts != Layouts::kNchw;
  const bool blocked_out = layouts == Layouts::kBlocked;
  RETURN_IF_ERROR(CheckRunArgs(p, int16_, blocked, input, input_zero_point, epilogue, output));
  const int64_t c = p.out_channels, ocb = CeilDiv(c, 16);
  if (int16_) return RunInt16(input, input_zero_point, epilogue, output, pool, range);
  Tensor in_blocked = input;
  if (!blocked) {
    const int64_t block = conv_->input_layout() == "NCHW4c" ? 4 : 16;
    ASSIGN_OR_RETURN(in_blocked, ToBlocked(input, block, input_zero_point, pool));
  }
  // (The convolution checks the blocked input's dtype and shape.)
  ASSIGN_OR_RETURN(const tensor::Shape acc_shape, conv_->OutputShape(in_blocked.shape()));
  const tensor::Shape shape =
      blocked_out ? acc_shape : tensor::Shape{acc_shape[0], c, acc_shape[2], acc_shape[3]};
  const DType dtype = epilogue ? DType::kF32 : DType::kI32;
  if (!output->defined() || output->dtype() != dtype || output->shape() != shape) {
    ASSIGN_OR_RETURN(*output, Tensor::CreateForOverwrite(dtype, shape));
  }
  RunTables& tables = ThreadTables();
  std::vector<int32_t>& comp = tables.comp;
  comp.assign(ocb * 16, 0);
  for (int64_t o = 0; o < c; ++o) comp[o] = input_zero_point * weight_sums_[o];
  std::vector<float>& scale = tables.scale;
  std::vector<float>& bias = tables.bias;
  TileContext t{};
  t.out = output->raw_data();
  t.comp = comp.data();
  t.c = c;
  t.ocb = ocb;
  t.plane = acc_shape[2] * acc_shape[3];
  t.blocked = blocked_out;
  t.to_float = epilogue != nullptr;
  if (epilogue) {
    PerChannel(epilogue->scale, epilogue->scale_count, c, ocb * 16, &scale);
    t.scale = scale.data();
    if (epilogue->bias) {
      PerChannel(epilogue->bias, epilogue->bias_count, c, ocb * 16, &bias);
      t.bias = bias.data();
    }
    t.clip = epilogue->clip;
    t.lo = epilogue->clip_min;
    t.hi = epilogue->clip_max;
  }
  std::mutex mu;
  std::vector<RangeAcc*> accs;
  if (range != nullptr && epilogue != nullptr) {
    t.want_range = true;
    t.run = NextRun();
    t.mu = &mu;
    t.accs = &accs;
  }
  Conv2DKernel::TileEpilogue tile;
  tile.fn = PickTileFn();
  tile.ctx = &t;
  RETURN_IF_ERROR(conv_->RunWithTileEpilogue(in_blocked, input_zero_point, tile, pool));
  if (t.want_range) {
    FloatRange r;
    for (const RangeAcc* a : accs) r.Merge(a->range);
    range[0] = r.lo;
    range[1] = r.hi;
  }
  return absl::OkStatus();
}

// Run's checks done: input u8 NCHW, zero point and epilogue sizes.
absl::Status DynamicConv2D::RunInt16(const Tensor& input, int32_t input_zero_point,
                                     const DynamicEpilogue* epilogue, Tensor* output,
                                     pthreadpool_t pool, float* range) const {
  const int64_t c = conv_->params().out_channels;
  ASSIGN_OR_RETURN(const tensor::Shape shape, conv_->OutputShape(input.shape()));
  std::vector<float>& scale = ThreadTables().scale;
  std::vector<float>& bias = ThreadTables().bias;
  if (epilogue != nullptr) {
    PerChannel(epilogue->scale, epilogue->scale_count, c, c, &scale);
    if (epilogue->bias) PerChannel(epilogue->bias, epilogue->bias_count, c, c, &bias);
  }
  const DType dtype = epilogue ? DType::kF32 : DType::kI32;
  if (!output->defined() || output->dtype() != dtype || output->shape() != shape) {
    ASSIGN_OR_RETURN(*output, Tensor::CreateForOverwrite(dtype, shape));
  }
  // The accumulators go where the floats will (same size); the view leaves
  // the bytes after the output alone (they may be a neighbour's).
  Tensor acc = *output;
  if (epilogue) {
    ASSIGN_OR_RETURN(acc, Tensor::View(*output, 0, DType::kI32, shape, /*zero_padding=*/false));
  }
  RETURN_IF_ERROR(conv_->RunWithZeroPoint(input, input_zero_point, &acc, pool));
  if (acc.raw_data() != output->raw_data()) return absl::InternalError("dynamic conv2d: accumulators moved");
  if (!epilogue) return absl::OkStatus();
  const int64_t planes = shape[0] * c;
  thread_local std::vector<FloatRange> ranges;  // no allocation per run once grown
  ranges.assign(planes, FloatRange());
  PlaneEpilogue e{output->raw_data(), shape[2] * shape[3], c, scale.data(),
                  epilogue->bias ? bias.data() : nullptr, epilogue->clip, epilogue->clip_min,
                  epilogue->clip_max, ranges.data()};
  pthreadpool_parallelize_1d(pool, &PlaneEpilogue::Run, &e, static_cast<size_t>(planes), 0);
  if (range != nullptr) {
    FloatRange r;
    for (const FloatRange& x : ranges) r.Merge(x);
    range[0] = r.lo;
    range[1] = r.hi;
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::spatial_pack
