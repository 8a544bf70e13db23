// Native quantized 2-D convolution kernels ("spatial pack"): one fused
// convolution + bias + requantize + clamp, bit-exact with
//   reference::QnnConv2D (+ bias) -> reference::Requantize (float mode).
//
// A kernel is created ONCE from the constant weights (they are packed then:
// this is compile time) and run many times. Two paths:
//
//  u8s8 (CreateU8S8; x86 VNNI vpdpbusd, AVX2 vpmaddubsw, portable scalar):
//    data x: u8, weights w' = w - zw: s8 (OIHW), padding stands for
//    input_zero_point (zx), so
//      acc[oc] = sum x * w' + bias[oc]
//    where `bias` already holds -zx * sum(w'[oc]) plus the model bias (so the
//    accumulator equals the reference's sum (x - zx)(w - zw) + model bias).
//    Activations are channel-blocked (see Layouts below).
//
//  int16 (CreateInt16; portable C++, auto-vectorizable, the Arm default):
//    data x16 = x - zx and weights w16 = w - zw, both i16 (zero points
//    already subtracted by the caller), padding is 0:
//      acc[oc] = sum x16 * w16 + bias[oc]
//    Activations are plain NCHW.
//
// Both then requantize exactly like reference::Requantize in float mode:
//   v = float(acc) * requant_multiplier[oc]      (float32; NaN -> 0)
//   q = nearbyint(v) (ties to even) + output_zero_point
//   out = clamp(q, max(clamp_min, min(out_dtype)), min(clamp_max, max(out_dtype)))
//
// Depthwise convolutions (groups == in_channels, out_channels = groups * m,
// m >= 1) get their own kernel on both paths; other group counts run on the
// dense kernel (each output-channel tile only visits the input channels of
// its groups).
//
// Layouts (Conv2DKernel::input_layout() / output_layout()):
//  - "NCHW16c": [N, ceil(C/16), H, W, 16], channel c at block c/16, lane c%16.
//    Lanes past C are padding: the kernels never let them influence a real
//    output (their weights are zero); the output's padding lanes are written
//    with clamp(output_zero_point).
//  - "NCHW4c": [N, ceil(C/4), H, W, 4], the same with blocks of 4. Only the
//    input of a dense u8s8 kernel with in_channels <= 4 (the image stem).
//  - "NCHW": the int16 path, input and output.
// u8s8 dense and depthwise kernels produce NCHW16c; they consume NCHW16c
// (NCHW4c when in_channels <= 4). ToBlocked/FromBlocked (blocked_layout.h) convert.
//
// Threads: Run splits the work over `pool` (pthreadpool; nullptr = serial).
// Run is const and thread-safe (scratch buffers are per calling thread).
#ifndef QNNC_KERNELS_SPATIAL_PACK_CONV2D_H_
#define QNNC_KERNELS_SPATIAL_PACK_CONV2D_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/variants.h"
#include "kernels/spatial_pack/weight_pairs.h"
#include "tensor/tensor.h"
#include "tensor/window.h"

namespace qnnc::kernels::spatial_pack {

// One fused conv + bias + requantize + clamp.
// The window (strides, pads, dilation, groups): ConvGeometry.
struct QuantizedConvParams : tensor::ConvGeometry {
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  int64_t kernel_h = 1, kernel_w = 1;
  // The value padding stands for (u8s8: in [0, 255]; int16: must be 0, the
  // zero point is already subtracted).
  int32_t input_zero_point = 0;
  // Per output channel, added to the accumulator; empty = all zero.
  std::vector<int32_t> bias;
  // Per output channel or one value (float32, ORT/MLAS float mode).
  std::vector<float> requant_multiplier{1.0f};
  int32_t output_zero_point = 0;
  int32_t clamp_min = -2147483647 - 1;  // intersected with the out_dtype range
  int32_t clamp_max = 2147483647;
  // kU8 or kI8; kI32 (u8s8 kernels): the raw accumulators sum x * w' + bias,
  // no requantization (multipliers, output zero point and clamp unused).
  tensor::DType out_dtype = tensor::DType::kU8;
  // The input plane (rows, columns), when known when the kernel is made:
  // the AVX2 vpmaddubsw kernel sizes its channel orders by it
  // (weight_pairs.h PairingOrderGroups; 0: one order). Not checked at run:
  // any input size runs.
  int64_t in_height = 0, in_width = 0;
};

// Isa, Arithmetic and the variant tables: variants.h.
// Whether `variant` has a kernel for a layer: madd16 and avxvnni have no
// depthwise kernel, madd16 no scalar one. The factories refuse exactly the
// rest.
bool VariantApplies(const U8S8Variant& variant, bool depthwise);
const char* IsaName(Isa isa);
// The best of scalar, avx2 and avx512vnni this host may use
// (kernels/cpu/isa.h: the CPU, lowered by the cap). AVX-VNNI, a branch off
// avx2, is not in that line: IsaSupported(Isa::kAvxvnni) asks for it.
Isa DetectIsa();
// Whether kernels for `isa` were compiled in and this host may run them.
bool IsaSupported(Isa isa);

// Knob name -> value. Knobs (missing ones take DefaultConfig's value):
//   tile_co  output channels per register tile
//   tile_ow  output pixels (along a row) per register tile
using KnobMap = std::map<std::string, int64_t>;
using KnobSpace = std::map<std::string, std::vector<int64_t>>;

// The config spaces; every point of the product is valid for every workload.
//   u8s8, kAvx512vnni and kScalar: tile_co {16, 32} x tile_ow {4, 7, 8, 14}
//   u8s8, kAvx2:                   tile_co {16}     x tile_ow {2, 4, 6}
//   u8s8, kAvxvnni:                tile_co {16, 32} x tile_ow {2, 3, 4, 6}
//   u8s8, kAvx2, kMadd16:          tile_co {16, 32} x tile_ow {2, 3, 4, 6}
//   u8s8, kAvx512vnni, kMadd16:    tile_co {16, 32} x tile_ow {4, 6, 8, 12}
//   int16 (portable):              tile_co {4, 8, 16} x tile_ow {4, 8}
// Depthwise kernels accept (and validate) the same knobs and ignore them.
KnobSpace ConfigSpaceU8S8(Isa isa, Arithmetic arith = Arithmetic::kMaddubs);

KnobSpace ConfigSpaceInt16();
// A good config without tuning. `out_width` (0 = unknown) refines tile_ow.
KnobMap DefaultConfigU8S8(const QuantizedConvParams& params, Isa isa, int64_t out_width = 0,
                          Arithmetic arith = Arithmetic::kMaddubs);
KnobMap DefaultConfigInt16(const QuantizedConvParams& params, int64_t out_width = 0);

// The layouts a kernel for `params` reads and writes (the kernels' own
// input_layout()/output_layout() come from here, and so does the layout
// AlterOpLayout gives the graph around it).
// A kernel's weights as it packed them, saved with a compiled plan so that
// loading the plan packs nothing (Conv2DKernel::RestoreU8S8 uses them in
// place). `packing` names what the bytes are: the kernel's description and
// its packing's version, which the restoring kernel must match.
struct PackedConvWeights {
  std::string packing;
  tensor::Tensor weights;  // i8 [bytes]: the packed weights
  tensor::Tensor bias;     // i32 [channels]: the bias with the zero points' terms, in tile order
  // The AVX2 vpmaddubsw kernel's pairing, which followed the weights'
  // values (its channel orders, paired steps, corrections); else empty.
  std::vector<tensor::Tensor> pairing;
};

struct IoLayouts {
  std::string input, output;
};
IoLayouts LayoutsU8S8(const QuantizedConvParams& params);
IoLayouts LayoutsInt16(const QuantizedConvParams& params);

class Conv2DKernel {
 public:
  virtual ~Conv2DKernel() = default;

  // weight_s8_OIHW: i8 [out_channels, in_channels / groups, kernel_h, kernel_w]
  // holding w - zw; or i16 holding w - zw of 8-bit weights ([-255, 255]),
  // which only the madd16 dense and the depthwise kernels take beyond s8. Fails with InvalidArgument on inconsistent params, an
  // unknown knob or knob value; FailedPrecondition for an `isa` this host
  // may not run (not built, not in the CPU, or above the cap).
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> CreateU8S8(
      const tensor::Tensor& weight_s8_OIHW, const QuantizedConvParams& params,
      const KnobMap& config, Isa isa, Arithmetic arith = Arithmetic::kMaddubs);
  // CreateU8S8's kernel packed, without its microkernels and without asking
  // whether this host may run `isa`: its packed() weights for a plan that
  // runs elsewhere. Not to be run. Unimplemented for the depthwise kernel,
  // which packs when it is made.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> PackU8S8(
      const tensor::Tensor& weight_s8_OIHW, const QuantizedConvParams& params,
      const KnobMap& config, Isa isa, Arithmetic arith = Arithmetic::kMaddubs);
  // The kernel CreateU8S8 made, from the weights it packed (packed()) and a
  // weight of `weight_shape`: nothing is packed. An error when `packed` is
  // not what this kernel packs (another packing, or sizes that do not fit).
  // `bind` false: not checked against this host nor bound, as PackU8S8.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreU8S8(
      const tensor::Shape& weight_shape, const QuantizedConvParams& params,
      const KnobMap& config, Isa isa, Arithmetic arith, const PackedConvWeights& packed, bool bind);
  // Checks what CreateU8S8 checks, except whether this host may run `isa`,
  // and returns the description the kernel would have, without packing:
  // compiling for a target this host cannot run (compile --no-run).
  static absl::StatusOr<std::string> DescribeU8S8(const tensor::Tensor& weight_s8_OIHW,
                                                  const QuantizedConvParams& params,
                                                  const KnobMap& config, Isa isa,
                                                  Arithmetic arith = Arithmetic::kMaddubs);
  // weight_i16_OIHW: i16 [out_channels, in_channels / groups, kernel_h,
  // kernel_w] holding w - zw; params.input_zero_point must be 0. With an i32
  // output (raw accumulators) it also reads u8 data with a run-time zero
  // point (RunWithZeroPoint), subtracted while packing: no compensation.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> CreateInt16(
      const tensor::Tensor& weight_i16_OIHW, const QuantizedConvParams& params,
      const KnobMap& config);
  // The kernel CreateInt16 made, from the weights it packed (packed()),
  // used in place.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreInt16(
      const tensor::Shape& weight_shape, const QuantizedConvParams& params, const KnobMap& config,
      const PackedConvWeights& packed);

  // input: input_layout() of dtype u8 (u8s8) or i16 (int16), batch N,
  // in_channels, any H, W with an output of at least 1x1.
  // output: if it is defined with output dtype and OutputShape(input) it is
  // written in place (preallocated); otherwise it is replaced by a new tensor.
  absl::Status Run(const tensor::Tensor& input, tensor::Tensor* output, pthreadpool_t pool) const {
    return RunImpl(input, params_.input_zero_point, output, pool, nullptr);
  }
  // Run with padding standing for `input_zero_point` (u8s8: [0, 255]) instead
  // of params().input_zero_point: a zero point known only at run time. Only
  // meaningful for raw (i32) kernels, whose bias cannot hold the zero point's
  // compensation: the caller subtracts input_zero_point * sum(w - zw).
  absl::Status RunWithZeroPoint(const tensor::Tensor& input, int32_t input_zero_point,
                                tensor::Tensor* output, pthreadpool_t pool) const {
    if (input_zero_point < 0 || input_zero_point > 255) {
      return absl::InvalidArgumentError("spatial_pack conv2d: a u8 input zero point must be in [0, 255]");
    }
    return RunImpl(input, input_zero_point, output, pool, nullptr);
  }

  // A consumer of raw accumulators, tile by tile, in place of an output:
  // fn(ctx, n, ocb, pixel0, npix, acc) is called on the worker threads (it
  // must be thread-safe) once per image n, 16-channel output block ocb and
  // run of npix consecutive output pixels (row-major, from pixel0), with acc
  // [npix][16] int32 in channel order, while the tile is in the core's cache.
  struct TileEpilogue {
    void (*fn)(const void* ctx, int64_t n, int64_t ocb, int64_t pixel0, int64_t npix,
               const int32_t* acc) = nullptr;
    const void* ctx = nullptr;
  };
  // Runs a raw (i32) u8s8 kernel, handing every tile to `epilogue` instead of
  // writing an output (padding stands for `input_zero_point`).
  absl::Status RunWithTileEpilogue(const tensor::Tensor& input, int32_t input_zero_point,
                                   const TileEpilogue& epilogue, pthreadpool_t pool) const {
    if (input_zero_point < 0 || input_zero_point > 255) {
      return absl::InvalidArgumentError("spatial_pack conv2d: a u8 input zero point must be in [0, 255]");
    }
    if (epilogue.fn == nullptr || params_.out_dtype != tensor::DType::kI32) {
      return absl::InvalidArgumentError("spatial_pack conv2d: a tile epilogue needs a raw (i32) kernel");
    }
    return RunImpl(input, input_zero_point, nullptr, pool, &epilogue);
  }

  // The shape Run produces for `input_shape` (in input_layout()).
  absl::StatusOr<tensor::Shape> OutputShape(const tensor::Shape& input_shape) const;

  // The activation layout produced (== the consumed one except "NCHW4c"
  // inputs of the stem): "NCHW16c" (u8s8) or "NCHW" (int16).
  const std::string& layout() const { return output_layout_; }
  const std::string& input_layout() const { return input_layout_; }
  const std::string& output_layout() const { return output_layout_; }
  // E.g. "u8s8.avx512vnni.dense tile_co=32 tile_ow=14".
  const std::string& description() const { return description_; }
  const QuantizedConvParams& params() const { return params_; }
  // The packed weights, for a kernel RestoreU8S8 can make from them (the
  // u8s8 dense kernels); otherwise nullopt.
  virtual std::optional<PackedConvWeights> packed() const { return std::nullopt; }

 protected:
  Conv2DKernel() = default;
  // `tile_epilogue` (raw kernels, RunWithTileEpilogue): no output is written.
  virtual absl::Status RunImpl(const tensor::Tensor& input, int32_t input_zero_point,
                               tensor::Tensor* output, pthreadpool_t pool,
                               const TileEpilogue* tile_epilogue) const = 0;

  QuantizedConvParams params_;
  std::string input_layout_, output_layout_, description_;
  int64_t in_block_ = 0;   // channel block of the input (0 = NCHW)
  int64_t out_block_ = 0;  // channel block of the output (0 = NCHW)
};

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_CONV2D_H_
