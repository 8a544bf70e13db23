// The u8 x s8 depthwise convolution: rows of NCHW16c pixels on the AVX-512
// VNNI, AVX2, NEON (the dotprod and i8mm levels) and scalar microkernels.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/driver.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using internal::DwGeom;
using internal::DwRow;
using internal::DwRowFn;

// What a plan's depthwise packing is: raised when the layout of the packed
// weights changes, so that an older plan is refused, never misread.
constexpr int kDepthwisePackingVersion = 1;

class U8S8Depthwise final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& p, Isa isa,
                                                            bool describe_only) {
    ASSIGN_OR_RETURN(std::unique_ptr<U8S8Depthwise> k, Begin(p, isa));
    ASSIGN_OR_RETURN(k->weights_, Tensor::Create(k->WeightsDType(), {k->WeightsCount()}));
    const int64_t kk = p.kernel_h * p.kernel_w, pairs = CeilDiv(kk, 2);
    const int16_t* w = weight.data();
    for (int64_t oc = 0; oc < p.out_channels; ++oc) {
      for (int64_t i = 0; i < kk; ++i) {
        const int16_t v = w[oc * kk + i];
        const int64_t at = ((oc / 16) * kk + i) * 16 + oc % 16;
        if (k->form_ == Form::kInt32) k->weights_.data<int32_t>()[at] = v;
        if (k->form_ == Form::kInt16) k->weights_.data<int16_t>()[at] = v;
        // AVX2 multiplies two taps at once: their weights as int16 pairs.
        if (k->form_ == Form::kPairs) {
          k->weights_.data<int16_t>()[(((oc / 16) * pairs + i / 2) * 16 + oc % 16) * 2 + i % 2] = v;
        }
      }
    }
    return Finish(std::move(k), describe_only);
  }

  // Over weights Make packed (a plan's, used in place): nothing is packed.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Restore(const PackedConvWeights& packed,
                                                               const QuantizedConvParams& p, Isa isa,
                                                               bool describe_only) {
    ASSIGN_OR_RETURN(std::unique_ptr<U8S8Depthwise> k, Begin(p, isa));
    if (packed.packing != k->Packing()) {
      return Invalid("the weights were packed as '", packed.packing, "', but this kernel packs as '",
                     k->Packing(), "'");
    }
    const Tensor& w = packed.weights;
    if (!w.defined() || w.dtype() != k->WeightsDType() || w.shape() != tensor::Shape{k->WeightsCount()}) {
      return Invalid("packed weights should be ", tensor::DTypeName(k->WeightsDType()), "[", k->WeightsCount(),
                     "], got ",
                     w.defined() ? absl::StrCat(tensor::DTypeName(w.dtype()), tensor::ShapeToString(w.shape()))
                                 : "none");
    }
    if (packed.bias.defined() || !packed.pairing.empty()) return Invalid("the depthwise kernel packs only weights");
    k->weights_ = w;
    return Finish(std::move(k), describe_only);
  }

  std::optional<PackedConvWeights> packed() const override {
    PackedConvWeights out;
    out.packing = Packing();
    out.weights = weights_;
    return out;
  }

  static std::string Description(Isa isa) { return absl::StrCat("u8s8.", IsaName(isa), ".depthwise"); }

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override {
    const QuantizedConvParams& p = params_;
    ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), 16, DType::kU8, input.dtype()));
    if (tile_epilogue == nullptr) RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, ocb_, g.oh, g.ow, 16}));
    const uint8_t* in = input.data<uint8_t>();
    if (mult_ch_ > 1) in = ExpandChannels(in, g);
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
    PadSmallMap(c, g, zx);
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
  // Channel multiplier m: output channel oc reads input channel oc / m;
  // the input expanded to the output's channels once (scratch slot 1).
  const uint8_t* ExpandChannels(const uint8_t* in, const OutGeom& g) const {
    const QuantizedConvParams& p = params_;
    const int64_t icb = CeilDiv(p.in_channels, 16);
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
    return buf;
  }

  // Small maps (MobileNetV3's 7x7 and 4x4 with 5x5 windows) have few
  // outputs whose taps are all inside, and the border paths check every
  // tap: when fewer than 3/5 of the outputs are interior, copy the input
  // padded with zx first (a few KB there), so every output takes the
  // SIMD kernels' interior path (the 4x4 layers at the avx2 cap: 13 ->
  // 9.5 us). Above 3/5 (MobileNetV2's 14x14 stride 2: 36 of 49) the copy
  // costs more than the border saves.
  void PadSmallMap(Ctx& c, const OutGeom& g, int32_t zx) const {
    const QuantizedConvParams& p = params_;
    DwGeom& d = c.geom;
    const uint8_t* in = c.in;
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
  }

  static void Work(void* vctx, size_t oy, size_t nb0, size_t count) {
    for (size_t nb = nb0; nb < nb0 + count; ++nb) Row(*static_cast<const Ctx*>(vctx), oy, nb);
  }
  static void Row(const Ctx& c, size_t oy, size_t nb) {
    const U8S8Depthwise& k = *c.k;
    const int64_t b = nb % k.ocb_;
    const int64_t kk = k.params_.kernel_h * k.params_.kernel_w;
    DwRow r;
    r.in = c.in + nb * c.plane_in;
    if (k.form_ == Form::kInt32) r.w = k.weights_.data<int32_t>() + b * kk * 16;
    if (k.form_ == Form::kInt16) r.w16 = k.weights_.data<int16_t>() + b * kk * 16;
    if (k.form_ == Form::kPairs) r.w_pairs = k.weights_.data<int16_t>() + b * CeilDiv(kk, 2) * 32;
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

  // The weights as the level's microkernel reads them, [ocb][taps][16]:
  // int32 (AVX-512 VNNI, scalar: DwRow::w), int16 (NEON: DwRow::w16), or
  // int16 pairs of taps [ocb][ceil(taps / 2)][16][2] (AVX2: DwRow::w_pairs).
  enum class Form { kInt32, kInt16, kPairs };

  // Everything but the weights and the microkernel.
  static absl::StatusOr<std::unique_ptr<U8S8Depthwise>> Begin(const QuantizedConvParams& p, Isa isa) {
    const bool neon = isa == Isa::kDotprod || isa == Isa::kI8mm;
    if (isa != Isa::kScalar && isa != Isa::kAvx2 && isa != Isa::kAvx512vnni && !neon) {
      return Invalid("no u8s8 depthwise kernel for ", IsaName(isa));
    }
    std::unique_ptr<U8S8Depthwise> k(new U8S8Depthwise());
    k->params_ = p;
    k->isa_ = isa;
    k->form_ = isa == Isa::kAvx2 ? Form::kPairs : neon ? Form::kInt16 : Form::kInt32;
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
    k->pad_small_maps_ = isa != Isa::kScalar;
    k->description_ = Description(isa);
    return k;
  }

  // The microkernel, unless only described (a build for another
  // architecture lacks it).
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Finish(std::unique_ptr<U8S8Depthwise> k,
                                                              bool describe_only) {
    if (describe_only) return std::unique_ptr<Conv2DKernel>(std::move(k));
    k->fn_ = &internal::DwRowScalar;
    if (k->isa_ == Isa::kAvx512vnni) k->fn_ = internal::GetDwRowAvx512Vnni();
    if (k->isa_ == Isa::kAvx2) k->fn_ = internal::GetDwRowAvx2();
    if (k->form_ == Form::kInt16) k->fn_ = internal::GetDwRowNeon();
    if (k->fn_ == nullptr) return absl::InternalError("missing depthwise microkernel");
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  tensor::DType WeightsDType() const { return form_ == Form::kInt32 ? DType::kI32 : DType::kI16; }
  int64_t WeightsCount() const {
    const int64_t kk = params_.kernel_h * params_.kernel_w;
    return ocb_ * 16 * (form_ == Form::kPairs ? 2 * CeilDiv(kk, 2) : kk);
  }
  std::string Packing() const { return absl::StrCat(description_, " packing=", kDepthwisePackingVersion); }

  Isa isa_ = Isa::kScalar;
  Form form_ = Form::kInt32;
  int64_t mult_ch_ = 1, ocb_ = 0;
  bool pad_small_maps_ = false;  // see RunImpl
  Epilogue ep_;
  std::vector<int32_t> bias_;
  std::vector<float> mult_;
  Tensor weights_;  // its own or a plan's
  DwRowFn fn_ = nullptr;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8Depthwise(const std::vector<int16_t>& weight,
                                                                const QuantizedConvParams& params, Isa isa,
                                                                bool describe_only) {
  return U8S8Depthwise::Make(weight, params, isa, describe_only);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreU8S8Depthwise(const PackedConvWeights& packed,
                                                                   const QuantizedConvParams& params, Isa isa,
                                                                   bool describe_only) {
  return U8S8Depthwise::Restore(packed, params, isa, describe_only);
}

std::string DescribeU8S8Depthwise(Isa isa) { return U8S8Depthwise::Description(isa); }

}  // namespace qnnc::kernels::spatial_pack
