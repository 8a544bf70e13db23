// A quantized convolution whose data zero point is known only at run time
// (ONNX ConvInteger after DynamicQuantizeLinear), on the spatial-pack
// kernels, exact:
//   acc[oc] = sum (x - zx) * (w - zw[oc])        (the reference's int32)
//           = sum x * w' - zx * sum(w'[oc])      (w' = w - zw; padding x = zx)
// A raw (i32) u8s8 spatial-pack kernel computes the first sum, its padding
// standing for zx; the second term is subtracted per run (O(out_channels)).
// The portable int16 kernel (CreateInt16) computes the first line directly:
// it subtracts zx while packing its int16 copy of the data (padding 0).
// The result is the accumulators as i32 NCHW, or with the dynamic epilogue
// fused, f32 NCHW:
//   y = clip(float(acc) * scale[oc] + bias[oc])
// the reference's cast, multiply, add and clip in that order and rounding
// (no fused multiply-add), scale typically x_scale * w_scale, known per run.
#ifndef QNNC_KERNELS_SPATIAL_PACK_DYNAMIC_CONV_H_
#define QNNC_KERNELS_SPATIAL_PACK_DYNAMIC_CONV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernels/spatial_pack/conv2d.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::spatial_pack {

struct DynamicEpilogue {
  const float* scale = nullptr;  // 1 or out_channels values
  int64_t scale_count = 1;
  const float* bias = nullptr;  // none (nullptr), 1 or out_channels values
  int64_t bias_count = 0;
  bool clip = false;  // y = y < clip_min ? clip_min : (y > clip_max ? clip_max : y)
  float clip_min = 0, clip_max = 0;
};

// The multiply a dynamic convolution uses on `isa`: depthwise layers take
// any weights (kMaddubs names their one kernel); dense layers on AVX2 always
// multiply in int16 (vpmaddubsw's pairs rarely fit), on AVX-512 VNNI by
// vpdpbusd where every w - zw fits s8, else by vpdpwssd (kMadd16).
Arithmetic DynamicArithmetic(Isa isa, bool depthwise, bool weights_fit_s8);

class DynamicConv2D {
 public:
  // weight: u8 or i8 OIHW [out_channels, in_channels / groups, kh, kw];
  // weight_zero_point: 1 or out_channels values in the weight's range.
  // geometry: channels, groups, kernel, strides, dilation, pads (its
  // quantization fields are ignored). isa/arith as Conv2DKernel::CreateU8S8:
  // weights w - zw outside [-128, 127] need kMadd16 (dense) or a depthwise
  // layer. Fails with InvalidArgument on bad parameters, FailedPrecondition
  // for an ISA this host may not run or an arithmetic these weights refuse.
  static absl::StatusOr<std::unique_ptr<DynamicConv2D>> Create(
      const tensor::Tensor& weight, const std::vector<int32_t>& weight_zero_point,
      const QuantizedConvParams& geometry, const KnobMap& config, Isa isa, Arithmetic arith);
  // The portable path (any CPU): the int16 spatial-pack kernel, NCHW in and
  // out, x - zx subtracted while it packs its padded int16 copy (so no
  // compensation), the float epilogue a pass over the i32 accumulators,
  // written where the f32 output goes. Runs kNchw only.
  static absl::StatusOr<std::unique_ptr<DynamicConv2D>> CreateInt16(
      const tensor::Tensor& weight, const std::vector<int32_t>& weight_zero_point,
      const QuantizedConvParams& geometry, const KnobMap& config);
  // What Create checks except whether this host may run `isa`; the
  // description the kernel would have (compiling for another host).
  static absl::StatusOr<std::string> Describe(const tensor::Tensor& weight,
                                              const std::vector<int32_t>& weight_zero_point,
                                              const QuantizedConvParams& geometry,
                                              const KnobMap& config, Isa isa, Arithmetic arith);

  // input: u8 NCHW; input_zero_point in [0, 255]. output: i32 NCHW without
  // an epilogue, f32 NCHW with one; written in place when already defined
  // with that dtype and shape. kBlocked: the input is in input_layout() and
  // the output in output_layout() ("NCHW16c"), its padding lanes 0 (so they
  // never widen a DynamicQuantizeLinear's range); kBlockedInNchwOut: the
  // input blocked, the output NCHW (a few channels, where a 16-lane block
  // would be mostly padding, e.g. a segmentation head's classes).
  // `range` (with an epilogue): the outputs' (min(0, min), max(0, max)), NaN
  // ignored (DynamicQuantizeLinear's range), computed tile by tile (int16:
  // plane by plane).
  enum class Layouts { kNchw, kBlocked, kBlockedInNchwOut };
  absl::Status Run(const tensor::Tensor& input, int32_t input_zero_point,
                   const DynamicEpilogue* epilogue, tensor::Tensor* output, pthreadpool_t pool,
                   Layouts layouts = Layouts::kNchw, float* range = nullptr) const;
  // The blocked layouts (Run with kBlocked): "NCHW16c" or, for an input of
  // at most 4 channels, "NCHW4c"; and "NCHW16c". (int16: "NCHW", unused.)
  const std::string& input_layout() const { return conv_->input_layout(); }
  const std::string& output_layout() const { return conv_->output_layout(); }

  // E.g. "dynamic u8i16.avx2.dense tile_co=16 tile_ow=4".
  std::string description() const { return "dynamic " + conv_->description(); }
  int64_t out_channels() const { return conv_->params().out_channels; }

 private:
  DynamicConv2D() = default;
  absl::Status RunInt16(const tensor::Tensor& input, int32_t input_zero_point,
                        const DynamicEpilogue* epilogue, tensor::Tensor* output, pthreadpool_t pool,
                        float* range) const;

  std::unique_ptr<Conv2DKernel> conv_;  // raw (i32) accumulators
  std::vector<int32_t> weight_sums_;    // sum of w' per output channel (u8s8: the compensation)
  bool int16_ = false;                  // CreateInt16's portable kernel
};

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_DYNAMIC_CONV_H_
