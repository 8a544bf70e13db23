#include "target/common_implementations.h"

#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/conv2d.h"
#include "kernels/spatial_pack/dynamic_conv.h"
#include "kernels/xnnpack/variant.h"
#include "target/predicates.h"
#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {
namespace {

// Output channels and output width of a workload (dense: N and 1).
int64_t OutChannels(const Workload& w) {
  if (w.op == "qnn.dense") return w.output.shape[1];
  return w.data_layout.is_nhwc() ? w.output.shape[3] : w.output.shape[1];
}

int64_t OutWidth(const Workload& w) {
  if (w.op == "qnn.dense") return 1;
  return w.data_layout.is_nhwc() ? w.output.shape[2] : w.output.shape[3];
}

// The largest candidate dividing `n`, else the smallest candidate.
int64_t LargestDivisor(int64_t n, const std::vector<int64_t>& candidates) {
  int64_t best = candidates.front();
  for (int64_t c : candidates) {
    if (n % c == 0 && c > best) best = c;
  }
  return best;
}

ConfigSpace TileSpace(std::vector<int64_t> co, std::vector<int64_t> ow) {
  return {{{"tile_co", std::move(co)}, {"tile_ow", std::move(ow)}}};
}

Config TileDefault(const Workload& w, const ConfigSpace& space) {
  const auto& co = space.knobs[0].values;
  const auto& ow = space.knobs[1].values;
  int64_t tile_ow = ow.front();
  for (int64_t c : ow) {
    if (c <= OutWidth(w)) tile_ow = std::max(tile_ow, c);
  }
  return {{"tile_co", LargestDivisor(OutChannels(w), co)}, {"tile_ow", tile_ow}};
}

namespace sp = ::qnnc::kernels::spatial_pack;

ConfigSpace FromKnobSpace(const sp::KnobSpace& space) {
  ConfigSpace out;
  for (const auto& [name, values] : space) out.knobs.push_back({name, values});
  return out;
}

// Whether the kernel of a spatial-pack implementation for `w` takes no tiles:
// the depthwise kernels, and the int8 dense kernel a dense runs on.
bool TakesNoTiles(const Workload& w) { return w.depthwise() || w.op == "qnn.dense"; }

// Workloads whose kernel takes no tiles get an empty space (one config, {}),
// the others `space`.
std::function<ConfigSpace(const Workload&)> OnlyTiledKernelsHaveKnobs(ConfigSpace space) {
  return [space](const Workload& w) { return TakesNoTiles(w) ? ConfigSpace{} : space; };
}

// The kernel's view of a workload (a dense is a 1x1 convolution).
sp::QuantizedConvParams KernelParams(const Workload& w) {
  sp::QuantizedConvParams p;
  if (w.op == "qnn.dense") {
    p.in_channels = w.weight.shape[1];
    p.out_channels = w.weight.shape[0];
    return p;
  }
  p.out_channels = w.weight.shape[0];
  p.in_channels = w.weight.shape[1] * w.groups;
  p.groups = w.groups;
  p.kernel_h = w.weight.shape[2];
  p.kernel_w = w.weight.shape[3];
  p.strides = {w.strides[0], w.strides[1]};
  p.dilation = {w.dilation[0], w.dilation[1]};
  p.pads = {w.padding[0], w.padding[1], w.padding[2], w.padding[3]};
  if (w.data.shape.size() == 4) p.in_height = w.data.shape[2], p.in_width = w.data.shape[3];
  return p;
}

}  // namespace

Implementation ReferenceImplementation() {
  Implementation impl;
  impl.name = "reference";
  impl.priority = 0;
  impl.legalization = Legalization::kKeep;
  impl.applicable = [](const Workload& w, const Target&) -> absl::Status {
    // The reference kernels read NCHW data and OIHW weights.
    if (w.op == "qnn.conv2d") return NeedsLayout(w, ir::Layout::Nchw(), ir::Layout::Oihw());
    return absl::OkStatus();
  };
  impl.default_config = [](const Workload&, const Target&) { return Config{}; };
  return impl;
}

Implementation Int16SpatialPack(const std::string& name, int priority) {
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.legalization = Legalization::kInt16;
  impl.fuses_requantize = true;
  impl.config_space = FromKnobSpace(sp::ConfigSpaceInt16());
  impl.applicable = [](const Workload& w, const Target&) -> absl::Status {
    RETURN_IF_ERROR(NeedsEightBitOperands(w));
    RETURN_IF_ERROR(NeedsLayout(w, ir::Layout::Nchw(), ir::Layout::Oihw()));
    return NeedsFusedRequantize(w);
  };
  impl.space_for = OnlyTiledKernelsHaveKnobs(impl.config_space);
  impl.default_config = [](const Workload& w, const Target&) {
    return TakesNoTiles(w) ? Config{} : sp::DefaultConfigInt16(KernelParams(w), OutWidth(w));
  };
  impl.io_layouts = [](const Workload& w) {
    sp::IoLayouts l = sp::LayoutsInt16(KernelParams(w));
    return KernelIoLayouts(l.input, l.output);
  };
  return impl;
}

namespace {

Implementation XnnpackBase(const std::string& name, int priority, Legalization legalization) {
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.legalization = legalization;
  impl.layout = ir::Layout::Nhwc();
  impl.fuses_requantize = true;
  impl.default_config = [](const Workload&, const Target&) { return Config{}; };
  return impl;
}

absl::Status XnnpackCommon(const Workload& w, const Target& t) {
  RETURN_IF_ERROR(NeedsRealArch(t));
  RETURN_IF_ERROR(NeedsEightBitOperands(w));
  RETURN_IF_ERROR(NeedsConstantZeroPoints(w));
  RETURN_IF_ERROR(NeedsConstantWeights(w));
  if (w.op == "qnn.conv2d") RETURN_IF_ERROR(NeedsLayout(w, ir::Layout::Nchw(), ir::Layout::Oihw()));
  // XNNPACK's requantization takes a scale below 256 (checked at creation)
  // and rounds in float, half to even; its output has the data's dtype.
  RETURN_IF_ERROR(NeedsRequantScaleBelow(w, 256.0));
  if (!w.requant_fusable) {
    return absl::FailedPreconditionError(absl::StrCat(
        "needs the requantize after the op fused, which it cannot be: ", w.requant_not_fusable));
  }
  return absl::OkStatus();
}

absl::Status XnnpackOutput(const Workload& w, tensor::DType dtype) {
  if (w.requant_out_dtype != dtype) {
    return absl::FailedPreconditionError(absl::StrCat(
        "needs a ", tensor::DTypeName(dtype), " output (XNNPACK keeps the data's dtype), got ",
        w.requant_out_dtype ? tensor::DTypeName(*w.requant_out_dtype) : "none"));
  }
  return absl::OkStatus();
}

}  // namespace

Implementation XnnpackQu8(int priority) {
  Implementation impl = XnnpackBase("xnnpack.qu8", priority, Legalization::kXnnpackQu8);
  impl.applicable = [](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(XnnpackCommon(w, t));
    const kernels::cpu::Arch arch =
        t.arch == Arch::kAArch64 ? kernels::cpu::Arch::kAarch64 : kernels::cpu::Arch::kX86_64;
    if (!kernels::xnnpack::RoundsHalfToEven(kernels::xnnpack::Variant::kQu8, arch)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "XNNPACK's qu8 kernels round ties upward on ", ArchName(t.arch), ", not to even"));
    }
    RETURN_IF_ERROR(XnnpackOutput(w, tensor::DType::kU8));
    return NeedsPerTensorKernel(w);
  };
  return impl;
}

Implementation XnnpackQs8(int priority) {
  Implementation impl = XnnpackBase("xnnpack.qs8", priority, Legalization::kXnnpackQs8);
  impl.applicable = [](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(XnnpackCommon(w, t));
    RETURN_IF_ERROR(XnnpackOutput(w, tensor::DType::kI8));
    RETURN_IF_ERROR(NeedsPerTensorKernel(w));
    if (w.weight.dtype != tensor::DType::kI8) return absl::FailedPreconditionError("needs i8 weights");
    return NeedsZeroKernelZeroPoint(w);
  };
  return impl;
}

Implementation XnnpackQc8(int priority) {
  Implementation impl = XnnpackBase("xnnpack.qc8", priority, Legalization::kXnnpackQc8);
  impl.applicable = [](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(XnnpackCommon(w, t));
    RETURN_IF_ERROR(XnnpackOutput(w, tensor::DType::kI8));
    RETURN_IF_ERROR(NeedsPerChannelScale(w));
    if (w.weight.dtype != tensor::DType::kI8) return absl::FailedPreconditionError("needs i8 weights");
    return NeedsZeroKernelZeroPoint(w);
  };
  return impl;
}

Implementation CompensatedSpatialPack(const std::string& name, int priority, bool u8_data,
                                      std::optional<Feature> needs, int64_t max_abs_weight) {
  // The pairings run kernels/spatial_pack: its config space and default.
  std::optional<sp::Isa> isa;
  if (needs == Feature::kAvx512vnni) isa = sp::Isa::kAvx512vnni;
  if (needs == Feature::kAvx2) isa = sp::Isa::kAvx2;
  if (needs == Feature::kAvxvnni) isa = sp::Isa::kAvxvnni;
  if (needs == Feature::kDotprod) isa = sp::Isa::kDotprod;
  if (needs == Feature::kI8mm) isa = sp::Isa::kI8mm;
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.legalization = u8_data ? Legalization::kU8S8 : Legalization::kS8S8;
  impl.layout = ir::Layout::ChannelBlocked(16);
  impl.fuses_requantize = true;
  impl.config_space = TileSpace({16, 32, 64}, {4, 7, 8, 14});
  impl.applicable = [needs, max_abs_weight](const Workload& w, const Target& t) -> absl::Status {
    if (needs) RETURN_IF_ERROR(NeedsFeature(t, *needs));
    RETURN_IF_ERROR(NeedsEightBitOperands(w));
    RETURN_IF_ERROR(NeedsConstantZeroPoints(w));
    RETURN_IF_ERROR(NeedsConstantWeights(w));
    if (w.op == "qnn.conv2d") RETURN_IF_ERROR(NeedsLayout(w, ir::Layout::Nchw(), ir::Layout::Oihw()));
    RETURN_IF_ERROR(NeedsFusedRequantize(w));
    if (!w.data_zero_point) return absl::FailedPreconditionError("needs a per-tensor data zero point");
    return NeedsWeightOffsetsIn(w, -std::min<int64_t>(max_abs_weight, 128), std::min<int64_t>(max_abs_weight, 127));
  };
  if (isa) {
    impl.config_space = FromKnobSpace(sp::ConfigSpaceU8S8(*isa));
    sp::Isa i = *isa;
    impl.default_config = [i](const Workload& w, const Target&) {
      return TakesNoTiles(w) ? Config{} : sp::DefaultConfigU8S8(KernelParams(w), i, OutWidth(w));
    };
  } else {
    ConfigSpace space = impl.config_space;
    impl.default_config = [space](const Workload& w, const Target&) {
      return TakesNoTiles(w) ? Config{} : TileDefault(w, space);
    };
  }
  impl.space_for = OnlyTiledKernelsHaveKnobs(impl.config_space);
  impl.io_layouts = [](const Workload& w) {
    sp::IoLayouts l = sp::LayoutsU8S8(KernelParams(w));
    return KernelIoLayouts(l.input, l.output);
  };
  return impl;
}

// Above this share of corrected half steps (WeightPairs::corrected;
// a half step is 8 output channels of one step, the unit the kernel
// corrects) the vpmaddubsw kernel is no faster than u8i16's vpmaddwd, so the
// fallback leaves it there (the tuner does not). Per layer (Zen 5, cap avx2,
// //tools:tune), u8s8.avx2's time against u8i16.avx2's: MobileNetV2's 1x1
// layers at 0-1.6% of half steps corrected 0.82-0.92x, its expansions with
// 16-32 input channels at 2.1-3.7% 1.03-1.13x.
constexpr double kMaxMaddubsCorrected = 0.02;
// Deep reductions amortize the corrections better. On ResNet-18's 3x3
// layers (same host and tuner) u8s8.avx2's time against u8i16.avx2's is
// 0.84 at 8% of half steps corrected (4608 products per output), 0.90-0.93
// at 11-13% (2304 products), 0.94-0.95 at 14-17% (1152), and at 576
// products 0.953 at 10.7%, 0.997 at 11.2%, 0.97 at 16-20% and 1.02 at 25%.
// So the fallback takes it up to kMaxDeepMaddubsCorrected where each output
// sums at least kDeepMaddubsProducts products, and up to
// kMaxMidMaddubsCorrected from kMidMaddubsProducts (docs/tuning.md, "The
// fallback on AVX2").
// Shallow reductions pay for the reordered copy with little work: on
// MobileNetV2's expansions (same host and tuner; reordered, some channels
// flipped, at most 2% of half steps corrected) u8s8.avx2's time against
// u8i16.avx2's is 1.16 at 16 input channels, 1.02 at 24, 1.03 at 32 and
// 0.91 at 64; the stem's 27 products 1.09. But its 32 -> 16 projection
// (copied too) 0.95: with few output channels the copy of the input, twice
// the bytes for u8i16.avx2's widened one, weighs more. So the rule holds
// for kMinReorderedMaddubsProducts output channels or more.
constexpr int64_t kMinReorderedMaddubsProducts = 64;
constexpr int64_t kDeepMaddubsProducts = 1152;
constexpr double kMaxDeepMaddubsCorrected = 0.18;
constexpr int64_t kMidMaddubsProducts = 576;
constexpr double kMaxMidMaddubsCorrected = 0.12;

namespace {

// Grouped convolutions with 4 or 8 channels per group in and out, on whole
// 16-channel blocks: u8i16.avx2's grouped tiles read only each group's
// channels (u8s8_dense.cc, grouped_tiles). The dense u8s8 tiles of the AVX2
// and AVX-VNNI kernels would multiply the other groups' zero weights too:
// 4x or 2x the work.
bool HasGroupedMadd16Tiles(const Workload& w) {
  if (w.groups <= 1 || w.weight.shape.size() != 4) return false;
  const int64_t cg = w.weight.shape[1], out = w.weight.shape[0];
  return out / w.groups == cg && (cg == 4 || cg == 8) && (cg * w.groups) % 16 == 0 && out % 16 == 0;
}

absl::Status RefuseGroupedMadd16Layers(const Workload& w) {
  if (!HasGroupedMadd16Tiles(w)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "has no grouped tiles (groups of ", w.weight.shape[1],
      " channels run x86.spatial_pack.u8i16.avx2's, which read only each group's channels)"));
}

}  // namespace

Implementation MaddubsSpatialPackAvx2(const std::string& name, int priority) {
  Implementation impl = CompensatedSpatialPack(name, priority, true, Feature::kAvx2, 128);
  const auto compensated = impl.applicable;
  impl.applicable = [compensated](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(compensated(w, t));
    if (w.op != "qnn.conv2d" || w.depthwise()) return absl::OkStatus();
    RETURN_IF_ERROR(RefuseGroupedMadd16Layers(w));
    if (w.lazy_weight_pairs == nullptr) {
      return absl::FailedPreconditionError(
          "needs the weights at compile time (it pairs and corrects them); "
          "x86.spatial_pack.u8i16.avx2 runs any weights");
    }
    return absl::OkStatus();
  };
  // Exact with any share of corrected half steps, but slower than u8i16.avx2 above
  // kMaxMaddubsCorrected where measured (Zen 5); on Intel, where u8i16's vpmaddwd +
  // vpaddd share three ports, it wins more: the tuner measures it on every layer.
  impl.fallback_ok = [](const Workload& w, const Target&) -> absl::Status {
    if (w.op != "qnn.conv2d" || w.depthwise() || w.lazy_weight_pairs == nullptr) return absl::OkStatus();
    const WeightPairs& pairs = *w.weight_pairs();
    const auto& ws = w.weight.shape;
    const int64_t products = ws.size() == 4 ? ws[1] * ws[2] * ws[3] : 0;
    // Measured on 3x3 layers only: 1x1 layers keep the 2% rule.
    const bool spatial = ws.size() == 4 && ws[2] * ws[3] > 1;
    double allowed = kMaxMaddubsCorrected;
    if (spatial && products >= kDeepMaddubsProducts) {
      allowed = kMaxDeepMaddubsCorrected;
    } else if (spatial && products >= kMidMaddubsProducts) {
      allowed = kMaxMidMaddubsCorrected;
    }
    if (pairs.corrected <= allowed) {
      const int64_t outputs = ws.empty() ? 0 : ws[0];
      if (products < kMinReorderedMaddubsProducts && outputs >= kMinReorderedMaddubsProducts &&
          pairs.copied) {
        return absl::FailedPreconditionError(absl::StrCat(
            "not the fallback where each output sums fewer than ", kMinReorderedMaddubsProducts,
            " products (here ", products, ") for at least as many output channels (here ", outputs,
            ") and it reads its input through a copy with channels reordered or flipped (a weight "
            "pair's same-signed parts add up to ", pairs.max_pair_sum,
            " in the natural order, more than ", sp::kMaddubsMaxPairSum,
            "): slower than x86.spatial_pack.u8i16.avx2 there where measured; the tuner measures both"));
      }
      return absl::OkStatus();
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "not the fallback where more than ", kMaxMaddubsCorrected * 100,
        "% of its half steps (8 output channels) need a correction (", kMaxMidMaddubsCorrected * 100,
        "% where a kernel larger than 1x1 sums at least ", kMidMaddubsProducts, " products per output, ",
        kMaxDeepMaddubsCorrected * 100, "% from ", kDeepMaddubsProducts, "; here ", ws.size() == 4 ? ws[2] : 0, "x",
        ws.size() == 4 ? ws[3] : 0, " summing ", products,
        "; a weight pair whose same-signed parts add up to more "
        "than ", sp::kMaddubsMaxPairSum,
        " could saturate vpmaddubsw's int16 sum, in the order of the input channels it chooses "
        "within each block of 16): got ", pairs.max_pair_sum, " in the natural order and ",
        absl::SixDigits(pairs.corrected * 100),
        "% of its half steps to correct (exact, but slower than x86.spatial_pack.u8i16.avx2 there "
        "where measured; the tuner measures both)"));
  };
  return impl;
}

Implementation U8I16SpatialPackAvx2(const std::string& name, int priority) {
  Implementation impl = CompensatedSpatialPack(name, priority, true, Feature::kAvx2, 128);
  impl.config_space = FromKnobSpace(sp::ConfigSpaceU8S8(sp::Isa::kAvx2, sp::Arithmetic::kMadd16));
  impl.space_for = OnlyTiledKernelsHaveKnobs(impl.config_space);
  const auto compensated = impl.applicable;
  impl.applicable = [compensated](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(compensated(w, t));
    if (w.depthwise()) {
      return absl::FailedPreconditionError(
          "has no depthwise kernel (x86.spatial_pack.u8s8.avx2's already multiplies in int16)");
    }
    return absl::OkStatus();
  };
  impl.default_config = [](const Workload& w, const Target&) {
    return sp::DefaultConfigU8S8(KernelParams(w), sp::Isa::kAvx2, OutWidth(w),
                                 sp::Arithmetic::kMadd16);
  };
  return impl;
}

Implementation AvxVnniSpatialPack(const std::string& name, int priority) {
  Implementation impl = CompensatedSpatialPack(name, priority, true, Feature::kAvxvnni, 128);
  const auto compensated = impl.applicable;
  impl.applicable = [compensated](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(compensated(w, t));
    if (w.depthwise()) {
      return absl::FailedPreconditionError(
          "has no depthwise kernel (x86.spatial_pack.u8s8.avx2's int16 one runs those)");
    }
    // Other grouped layers (not on whole 16-channel blocks) run its dense
    // tile, faster than the AVX2 ones'.
    return RefuseGroupedMadd16Layers(w);
  };
  return impl;
}

namespace {

// What the dynamic convolution kernels take, whatever the CPU.
absl::Status NeedsRunTimeDataZeroPoint(const Workload& w) {
  RETURN_IF_ERROR(NeedsEightBitOperands(w));
  if (w.data.dtype != tensor::DType::kU8) {
    return absl::FailedPreconditionError("needs u8 data (DynamicQuantizeLinear's)");
  }
  if (w.data_zero_point || w.constant_zero_points) {
    return absl::FailedPreconditionError(
        "is for a data zero point known only at run time (the u8s8 implementations take "
        "constant ones)");
  }
  RETURN_IF_ERROR(NeedsConstantWeights(w));
  if (w.kernel_zero_points.empty()) {
    return absl::FailedPreconditionError("needs a constant kernel zero point");
  }
  if (w.op == "qnn.conv2d") RETURN_IF_ERROR(NeedsLayout(w, ir::Layout::Nchw(), ir::Layout::Oihw()));
  if (w.output.dtype != tensor::DType::kI32) return absl::FailedPreconditionError("needs an i32 output");
  int64_t k = 1;
  for (size_t i = 1; i < w.weight.shape.size(); ++i) k *= w.weight.shape[i];
  if (k > (int64_t{1} << 31) / (255 * 255)) {
    return absl::FailedPreconditionError(absl::StrCat(
        k, " products per output could overflow the int32 accumulator"));
  }
  return absl::OkStatus();
}

}  // namespace

// Up to this many output channels a dynamic conv writes NCHW (io_layouts).
constexpr int64_t kDynamicNchwOutChannels = 4;

Implementation DynamicSpatialPack(const std::string& name, int priority, Feature needs) {
  const sp::Isa isa = needs == Feature::kAvx512vnni ? sp::Isa::kAvx512vnni : sp::Isa::kAvx2;
  // The multiply for a workload, as the kernel chooses it from the weights.
  auto arith_for = [isa](const Workload& w) {
    const bool fits = w.min_weight_offset && *w.min_weight_offset >= -128 && *w.max_weight_offset <= 127;
    return sp::DynamicArithmetic(isa, w.depthwise(), fits);
  };
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.legalization = Legalization::kKeep;
  // Fused (qnn.conv2d_dynamic), it reads and writes the blocked layouts
  // (AlterOpLayout); alone (i32), NCHW, converting inside.
  impl.layout = ir::Layout::ChannelBlocked(16);
  // Up to 4 output channels (a segmentation head's classes), the f32 result
  // is written NCHW: a 16-lane block would be at least 3/4 padding, written
  // and then dropped by a transform.
  impl.io_layouts = [](const Workload& w) {
    const sp::IoLayouts l = sp::LayoutsU8S8(KernelParams(w));
    const bool few = !w.weight.shape.empty() && w.weight.shape[0] <= kDynamicNchwOutChannels;
    return KernelIoLayouts(l.input, few ? ir::Layout::Nchw().str() : l.output);
  };
  impl.fuses_dynamic_epilogue = true;
  impl.config_space = FromKnobSpace(sp::ConfigSpaceU8S8(isa, sp::DynamicArithmetic(isa, false, true)));
  impl.space_for = [isa, arith_for](const Workload& w) {
    return TakesNoTiles(w) ? ConfigSpace{} : FromKnobSpace(sp::ConfigSpaceU8S8(isa, arith_for(w)));
  };
  impl.applicable = [needs](const Workload& w, const Target& t) -> absl::Status {
    RETURN_IF_ERROR(NeedsFeature(t, needs));
    return NeedsRunTimeDataZeroPoint(w);
  };
  impl.default_config = [isa, arith_for](const Workload& w, const Target&) {
    return TakesNoTiles(w) ? Config{}
                           : sp::DefaultConfigU8S8(KernelParams(w), isa, OutWidth(w), arith_for(w));
  };
  return impl;
}

Implementation DynamicInt16SpatialPack(const std::string& name, int priority) {
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.legalization = Legalization::kKeep;
  impl.fuses_dynamic_epilogue = true;
  impl.config_space = FromKnobSpace(sp::ConfigSpaceInt16());
  impl.space_for = OnlyTiledKernelsHaveKnobs(impl.config_space);
  impl.applicable = [](const Workload& w, const Target&) { return NeedsRunTimeDataZeroPoint(w); };
  impl.default_config = [](const Workload& w, const Target&) {
    return TakesNoTiles(w) ? Config{} : sp::DefaultConfigInt16(KernelParams(w), OutWidth(w));
  };
  return impl;
}

absl::Status RegisterForConv(Registry& registry, const std::string& key,
                             const Implementation& impl) {
  return registry.RegisterImplementation("qnn.conv2d", key, impl);
}

absl::Status RegisterForTunableOps(Registry& registry, const std::string& key,
                                   const Implementation& impl) {
  for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
    RETURN_IF_ERROR(registry.RegisterImplementation(op, key, impl));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::target
