// The portable int16 convolution (zero points subtracted at packing): the
// exact path of every target, NCHW in and out.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/driver.h"
#include "kernels/spatial_pack/internal/int16.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

// A padded int16 copy of u8 planes minus a zero point: x - zx inside, 0 in
// the padding (which stands for zx).
struct PadCopyMinusZeroPoint {
  const uint8_t* src;
  int16_t* dst;
  int64_t h, w, hp, wp, top, left;
  int32_t zx;
  static void Row(void* ctx, size_t y, size_t plane) {
    const PadCopyMinusZeroPoint& c = *static_cast<const PadCopyMinusZeroPoint*>(ctx);
    int16_t* d = c.dst + (static_cast<int64_t>(plane) * c.hp + static_cast<int64_t>(y)) * c.wp;
    const int64_t iy = static_cast<int64_t>(y) - c.top;
    if (iy < 0 || iy >= c.h) {
      std::fill(d, d + c.wp, int16_t{0});
      return;
    }
    const uint8_t* s = c.src + (static_cast<int64_t>(plane) * c.h + iy) * c.w;
    std::fill(d, d + c.left, int16_t{0});
    for (int64_t x = 0; x < c.w; ++x) d[c.left + x] = static_cast<int16_t>(s[x] - c.zx);
    std::fill(d + c.left + c.w, d + c.wp, int16_t{0});
  }
};

// What a plan's int16 packing is: raised when the layout of the packed
// weights changes, so that an older plan is refused, never misread.
constexpr int kInt16PackingVersion = 1;

class Int16Kernel final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const Tensor& weight,
                                                            const QuantizedConvParams& p,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            bool depthwise) {
    std::unique_ptr<Int16Kernel> k = Begin(p, tile_co, tile_ow, depthwise);
    ASSIGN_OR_RETURN(k->packed_, Tensor::Create(DType::kI16, {k->packed_count_}));
    internal::PackInt16(weight.data<int16_t>(), p.in_channels, p.out_channels, p.groups, p.kernel_h,
                        p.kernel_w, depthwise, k->setup_, k->packed_.data<int16_t>());
    k->setup_.weights = k->packed_.data<int16_t>();
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  // Over weights Make packed (a plan's, used in place): nothing is packed.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Restore(const PackedConvWeights& packed,
                                                               const QuantizedConvParams& p,
                                                               int64_t tile_co, int64_t tile_ow,
                                                               bool depthwise) {
    std::unique_ptr<Int16Kernel> k = Begin(p, tile_co, tile_ow, depthwise);
    if (packed.packing != k->Packing()) {
      return Invalid("the weights were packed as '", packed.packing, "', but this kernel packs as '",
                     k->Packing(), "'");
    }
    const Tensor& w = packed.weights;
    if (!w.defined() || w.dtype() != DType::kI16 || w.shape() != tensor::Shape{k->packed_count_}) {
      return Invalid("packed weights should be i16[", k->packed_count_, "], got ",
                     w.defined() ? absl::StrCat(tensor::DTypeName(w.dtype()), tensor::ShapeToString(w.shape()))
                                 : "none");
    }
    if (packed.bias.defined() || !packed.pairing.empty()) return Invalid("the int16 kernel packs only weights");
    k->packed_ = w;
    k->setup_.weights = w.data<int16_t>();
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  std::optional<PackedConvWeights> packed() const override {
    PackedConvWeights out;
    out.packing = Packing();
    out.weights = packed_;
    return out;
  }

  // i16 input: the zero point already subtracted (by the int16
  // legalization), zx 0. A raw (i32) kernel also takes u8 input with a zero
  // point known only at run time (dynamic quantization): x - zx is
  // subtracted here, while packing the padded int16 copy.
  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override {
    if (tile_epilogue) return Invalid("the int16 kernel hands over no tiles (it writes NCHW)");
    const QuantizedConvParams& p = params_;
    const bool u8 = input.defined() && input.dtype() == DType::kU8 && p.out_dtype == DType::kI32;
    if (!u8 && zx != 0) {
      return Invalid("the int16 kernel pads i16 input with 0 (zero point already subtracted), got ", zx);
    }
    ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), 0, u8 ? DType::kU8 : DType::kI16, input.dtype()));
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
    // Padded copy with slack: full register tiles (and the depthwise rows'
    // pixels) may read past a row end.
    const int64_t pixels = std::max<int64_t>(setup_.tile_ow, internal::kInt16DepthwisePixels);
    const int64_t slack = (pixels * r.sw + r.kw * r.dw + 64) * 2;
    RETURN_IF_ERROR(CheckPaddedBytes(g.n * r.c * r.hp * r.wp * 2 + slack));
    uint8_t* buf = Scratch(0, (g.n * r.c * r.hp * r.wp) * 2 + slack);
    if (u8) {
      PadCopyMinusZeroPoint pc{input.data<uint8_t>(), reinterpret_cast<int16_t*>(buf), g.h, g.w,
                               r.hp, r.wp, p.pads[0], p.pads[1], zx};
      Parallel2D(pool, &PadCopyMinusZeroPoint::Row, &pc, r.hp, g.n * r.c);
    } else {
      PadCopy pc{input.data<uint8_t>(), buf, r.hp, {g.h, g.w, r.wp, p.pads[0], p.pads[1], 2, 0}};
      Parallel2D(pool, &PadCopy::Row, &pc, r.hp, g.n * r.c);
    }
    std::memset(buf + g.n * r.c * r.hp * r.wp * 2, 0, slack);
    r.in = reinterpret_cast<const int16_t*>(buf);
    r.out = static_cast<uint8_t*>(output->raw_data());
    internal::RunInt16(setup_, r, depthwise_, pool);
    return absl::OkStatus();
  }

 private:
  // Everything but the weights, which the tiles say how to lay out.
  static std::unique_ptr<Int16Kernel> Begin(const QuantizedConvParams& p, int64_t tile_co, int64_t tile_ow,
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
    k->packed_count_ = internal::LayOutInt16(p.in_channels, p.out_channels, p.groups, p.kernel_h,
                                             p.kernel_w, depthwise, &s);
    k->description_ = depthwise ? std::string("int16.portable.depthwise")
                                : absl::StrCat("int16.portable.dense tile_co=", tile_co, " tile_ow=", tile_ow);
    return k;
  }

  std::string Packing() const { return absl::StrCat(description_, " packing=", kInt16PackingVersion); }

  bool depthwise_ = false;
  internal::Int16Setup setup_;
  int64_t packed_count_ = 0;
  Tensor packed_;  // i16 [packed_count_], its own or a plan's
};

}  // namespace

absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeInt16(const Tensor& weight,
                                                        const QuantizedConvParams& params,
                                                        int64_t tile_co, int64_t tile_ow,
                                                        bool depthwise) {
  return Int16Kernel::Make(weight, params, tile_co, tile_ow, depthwise);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeInt16FromPacked(const PackedConvWeights& packed,
                                                           const QuantizedConvParams& params,
                                                           int64_t tile_co, int64_t tile_ow, bool depthwise) {
  return Int16Kernel::Restore(packed, params, tile_co, tile_ow, depthwise);
}

}  // namespace qnnc::kernels::spatial_pack
