// conv2d.h's API: which instruction sets this host may run, the tuning
// knobs and default configs, the layouts, and the factories that check
// parameters and weights and make a kernel (driver.h lists the kernels).
#include "kernels/spatial_pack/conv2d.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/driver.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {

const char* IsaName(Isa isa) { return cpu::IsaLevelName(isa); }

bool IsaSupported(Isa isa) {
  // Compiled in (the build's compiler knew the ISA) and allowed on this host
  // (the CPU has it, and the cap, QNNC_ISA or --isa, does not exclude it).
  static const bool vnni_built = internal::GetDenseTileAvx512Vnni(1, 1, 16, 1) != nullptr;
  static const bool avx2_built = internal::GetDenseTileAvx2(1, 1, 16) != nullptr;
  static const bool avxvnni_built = internal::GetDenseTileAvxVnni(1, 1, 16) != nullptr;
  static const bool dotprod_built = internal::GetDenseTileDotprod(1, 1, 16) != nullptr;
  static const bool i8mm_built = internal::GetDenseTileI8mm(1, 1, 16) != nullptr;
  const cpu::IsaLevel host = cpu::HostIsaLevel();
  switch (isa) {
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      return avx2_built && cpu::Includes(host, cpu::IsaLevel::kAvx2);
    case Isa::kAvxvnni:
      // Not implied by the levels above it (isa.h): the CPU's feature.
      return avxvnni_built && cpu::HostCpuFeatures().avxvnni;
    case Isa::kAvx512vnni:
      return vnni_built && cpu::Includes(host, cpu::IsaLevel::kAvx512vnni);
    case Isa::kDotprod:
      return dotprod_built && cpu::Includes(host, cpu::IsaLevel::kDotprod);
    case Isa::kI8mm:
      return i8mm_built && cpu::Includes(host, cpu::IsaLevel::kI8mm);
    case Isa::kAvx512bw:
    case Isa::kNeon:
      return false;  // no u8 x s8 kernels of these levels (NEON: the int16 ones)
  }
  return false;
}

bool VariantApplies(const U8S8Variant& v, bool depthwise) {
  if (v.isa == Isa::kAvx512bw) return false;  // no kernels of that level
  if (v.arith == Arithmetic::kMadd16) return v.isa != Isa::kScalar && !depthwise;
  if (v.isa == Isa::kAvxvnni) return !depthwise;
  return true;
}

Isa DetectIsa() {
  return IsaSupported(Isa::kAvx512vnni) ? Isa::kAvx512vnni
         : IsaSupported(Isa::kAvx2)     ? Isa::kAvx2
         : IsaSupported(Isa::kI8mm)     ? Isa::kI8mm
         : IsaSupported(Isa::kDotprod)  ? Isa::kDotprod
                                        : Isa::kScalar;
}

KnobSpace ConfigSpaceU8S8(Isa isa, Arithmetic arith) {
  if (isa == Isa::kAvx2 && arith == Arithmetic::kMadd16) {
    return {{"tile_co", {16, 32}}, {"tile_ow", {2, 3, 4, 6}}};
  }
  if (isa == Isa::kAvx512vnni && arith == Arithmetic::kMadd16) {
    return {{"tile_co", {16, 32}}, {"tile_ow", {4, 6, 8, 12}}};
  }
  if (isa == Isa::kAvx2) return {{"tile_co", {16}}, {"tile_ow", {2, 4, 6}}};
  if (isa == Isa::kAvxvnni || isa == Isa::kDotprod || isa == Isa::kI8mm) {
    return {{"tile_co", {16, 32}}, {"tile_ow", {2, 3, 4, 6}}};
  }
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
  if (isa == Isa::kAvx512vnni && arith == Arithmetic::kMadd16) {
    return {{"tile_co", p.out_channels > 16 ? 32 : 16}, {"tile_ow", flat || out_width == 0 || out_width >= 12 ? 12 : 8}};
  }
  if (isa == Isa::kDotprod || isa == Isa::kI8mm) {
    // The tiles whose accumulators, weights and inputs fit the 32 vector
    // registers (16 x 6 spills). By llvm-mca-19 (bench/arm_mca.py): sdot
    // 32 x 2 at 97% of its peak on Neoverse-N1 and V1; usmmla 16 x 4 at 1.77
    // times sdot's peak on V1 (89% of its own, twice sdot's).
    // 16 x 4 too where one group of 16 channels is all there is.
    if (p.out_channels <= 16 || isa == Isa::kI8mm) return {{"tile_co", 16}, {"tile_ow", 4}};
    return {{"tile_co", 32}, {"tile_ow", 2}};
  }
  if (isa == Isa::kAvx2 || isa == Isa::kAvxvnni) {
    // AVX-VNNI: 16 x 6 is the widest tile that stays in registers.
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

static absl::Status CheckArithmetic(const QuantizedConvParams& params,
                                    const std::vector<int16_t>& weight, const Shape& shape, Isa isa,
                                    Arithmetic arith) {
  if (isa == Isa::kAvx512bw) {
    return Invalid("no spatial-pack kernels for avx512bw (its hosts run the avx2 ones)");
  }
  if (isa == Isa::kAvxvnni && IsDepthwise(params)) {
    return Invalid("avxvnni has no depthwise kernel (the AVX2 depthwise kernel multiplies in int16, "
                   "exact and as fast)");
  }
  if (!IsDepthwise(params) && arith != Arithmetic::kMadd16 && !FitsS8(weight)) {
    return Invalid("weights outside [-128, 127] (w - zw of 8-bit weights) need the madd16 "
                   "arithmetic (dense) or a depthwise kernel");
  }
  if (arith != Arithmetic::kMadd16) return absl::OkStatus();
  if (isa != Isa::kAvx2 && isa != Isa::kAvx512vnni) {
    return Invalid("madd16 arithmetic is for AVX2 and AVX-512 VNNI only, not ", IsaName(isa));
  }
  if (IsDepthwise(params)) {
    return Invalid("madd16 arithmetic has no depthwise kernel (the AVX2 depthwise kernel already "
                   "multiplies in int16)");
  }
  return absl::OkStatus();
}

static absl::Status NeedIsa(Isa isa) {
  if (IsaSupported(isa)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("instruction set ", IsaName(isa),
                                                    " is not available on this host (",
                                                    cpu::DescribeHostIsa(), ")"));
}

// CreateU8S8, or with `bind` false PackU8S8.
static absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8(const Tensor& weight,
                                                              const QuantizedConvParams& params,
                                                              const KnobMap& config, Isa isa,
                                                              Arithmetic arith, bool bind) {
  RETURN_IF_ERROR(ValidateParams(params, weight, weight.dtype() == DType::kI16 ? DType::kI16 : DType::kI8));
  if (params.input_zero_point < 0 || params.input_zero_point > 255) {
    return Invalid("u8 input_zero_point must be in [0, 255], got ", params.input_zero_point);
  }
  ASSIGN_OR_RETURN(std::vector<int16_t> values, WeightValues(weight));
  RETURN_IF_ERROR(CheckArithmetic(params, values, weight.shape(), isa, arith));
  if (bind) RETURN_IF_ERROR(NeedIsa(isa));
  ASSIGN_OR_RETURN(auto tiles, ResolveTiles(config, ConfigSpaceU8S8(isa, arith),
                                            DefaultConfigU8S8(params, isa, 0, arith)));
  if (IsDepthwise(params)) return MakeU8S8Depthwise(values, params, isa, /*describe_only=*/!bind);
  return MakeU8S8Dense(values, params, tiles.first, tiles.second, isa, arith, /*describe_only=*/!bind);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::CreateU8S8(
    const Tensor& weight, const QuantizedConvParams& params, const KnobMap& config, Isa isa,
    Arithmetic arith) {
  return MakeU8S8(weight, params, config, isa, arith, /*bind=*/true);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::PackU8S8(
    const Tensor& weight, const QuantizedConvParams& params, const KnobMap& config, Isa isa,
    Arithmetic arith) {
  return MakeU8S8(weight, params, config, isa, arith, /*bind=*/false);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::RestoreU8S8(
    const Shape& weight_shape, const QuantizedConvParams& params, const KnobMap& config, Isa isa,
    Arithmetic arith, const PackedConvWeights& packed, bool bind) {
  RETURN_IF_ERROR(ValidateParams(params, weight_shape));
  if (params.input_zero_point < 0 || params.input_zero_point > 255) {
    return Invalid("u8 input_zero_point must be in [0, 255], got ", params.input_zero_point);
  }
  if (IsDepthwise(params)) {
    if (bind) RETURN_IF_ERROR(NeedIsa(isa));
    return RestoreU8S8Depthwise(packed, params, isa, /*describe_only=*/!bind);
  }
  if (isa == Isa::kAvx512bw || (arith == Arithmetic::kMadd16 && isa != Isa::kAvx2 && isa != Isa::kAvx512vnni)) {
    return Invalid("no u8s8 dense kernel ", IsaName(isa), arith == Arithmetic::kMadd16 ? " madd16" : "");
  }
  if (bind) RETURN_IF_ERROR(NeedIsa(isa));
  ASSIGN_OR_RETURN(auto tiles, ResolveTiles(config, ConfigSpaceU8S8(isa, arith),
                                            DefaultConfigU8S8(params, isa, 0, arith)));
  return RestoreU8S8Dense(packed, params, tiles.first, tiles.second, isa, arith, /*describe_only=*/!bind);
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
  if (IsDepthwise(params)) return DescribeU8S8Depthwise(isa);
  if (isa == Isa::kAvx2 && arith == Arithmetic::kMaddubs) {
    ASSIGN_OR_RETURN(auto packed, MakeU8S8Dense(values, params, tiles.first, tiles.second, isa, arith,
                                                /*describe_only=*/true));
    return packed->description();
  }
  return DescribeU8S8Dense(tiles.first, tiles.second, isa, arith, RowTapSteps(params, isa, arith));
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::CreateInt16(
    const Tensor& weight, const QuantizedConvParams& params, const KnobMap& config) {
  RETURN_IF_ERROR(ValidateParams(params, weight, DType::kI16));
  if (params.input_zero_point != 0) {
    return Invalid("int16 input_zero_point must be 0 (already subtracted), got ",
                   params.input_zero_point);
  }
  ASSIGN_OR_RETURN(auto tiles,
                   ResolveTiles(config, ConfigSpaceInt16(), DefaultConfigInt16(params)));
  return MakeInt16(weight, params, tiles.first, tiles.second, IsDepthwise(params));
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> Conv2DKernel::RestoreInt16(const Shape& weight_shape,
                                                                         const QuantizedConvParams& params,
                                                                         const KnobMap& config,
                                                                         const PackedConvWeights& packed) {
  RETURN_IF_ERROR(ValidateParams(params, weight_shape));
  if (params.input_zero_point != 0) {
    return Invalid("int16 input_zero_point must be 0 (already subtracted), got ", params.input_zero_point);
  }
  ASSIGN_OR_RETURN(auto tiles, ResolveTiles(config, ConfigSpaceInt16(), DefaultConfigInt16(params)));
  return MakeInt16FromPacked(packed, params, tiles.first, tiles.second, IsDepthwise(params));
}

absl::StatusOr<Shape> Conv2DKernel::OutputShape(const Shape& input_shape) const {
  const DType in_dtype = in_block_ ? DType::kU8 : DType::kI16;
  ASSIGN_OR_RETURN(OutGeom g, Geometry(params_, input_shape, in_block_, in_dtype, in_dtype));
  if (out_block_) return Shape{g.n, CeilDiv(params_.out_channels, out_block_), g.oh, g.ow, out_block_};
  return Shape{g.n, params_.out_channels, g.oh, g.ow};
}

}  // namespace qnnc::kernels::spatial_pack
