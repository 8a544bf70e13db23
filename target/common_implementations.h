// Implementations shared by several targets: the reference kernel, the
// portable int16 spatial pack, the XNNPACK (QNNPack) operators and the
// compensated 8-bit pairings, parameterized by name, priority and the
// feature they need. Targets register them under their keys.
#ifndef QNNC_TARGET_COMMON_IMPLEMENTATIONS_H_
#define QNNC_TARGET_COMMON_IMPLEMENTATIONS_H_

#include <optional>
#include <string>

#include "kernels/spatial_pack/variants.h"
#include "target/implementation.h"

namespace qnnc::target {

Implementation ReferenceImplementation();
Implementation Int16SpatialPack(const std::string& name, int priority);
Implementation XnnpackQu8(int priority);
Implementation XnnpackQs8(int priority);
Implementation XnnpackQc8(int priority);
// u8 x s8 (x86 VNNI vpdpbusd; AVX2 vpmaddubsw, whose pair sums saturate at
// 16 bits, so `max_abs_weight` limits the weights there; Arm usmmla, or sdot
// on the input read as x - 128) or s8 x s8, with the zero-point
// compensation folded into a bias. Without `needs`, on any CPU: registered
// for dense layers only, whose u8 x s8 kernel (the int8 dense) is portable.
Implementation CompensatedSpatialPack(const std::string& name, int priority, bool u8_data,
                                      std::optional<Feature> needs, int64_t max_abs_weight);

// u8 x s8 on AVX2 by vpmaddubsw, one pass with the input channels reordered
// so that weight pairs fit its int16 sum, plus corrections for the steps
// where they still could saturate: dense convolutions whose weights are
// known, but not groups of 4 or 8 channels on whole 16-channel blocks
// (u8i16.avx2's grouped tiles run those); depthwise convolutions (an int16
// kernel) and dense ops (the int8 dense kernel) always. The fallback takes it
// only where at most 2% of its half steps (8 output channels) need a
// correction (for kernels larger than 1x1, 12% where each output sums at
// least 576 products, 18% from 1152)
// (WeightPairs::corrected, Implementation::fallback_ok); the tuner
// measures it everywhere it applies.
Implementation MaddubsSpatialPackAvx2(const std::string& name, int priority);
// u8 x s8 on AVX2 by vpmaddwd alone (the u8 inputs widened in registers,
// int16 weights): one exact pass for any weights, on the u8s8 legalization.
// Dense convolutions only (the AVX2 depthwise kernel already is int16).
Implementation U8I16SpatialPackAvx2(const std::string& name, int priority);
// vpdpbusd on ymm (AVX-VNNI hosts): exact for any s8 weights in one pass;
// dense and grouped convolutions, but not depthwise layers or groups of 4 or
// 8 channels on whole 16-channel blocks (the AVX2 kernels' depthwise and
// grouped tiles run those).
Implementation AvxVnniSpatialPack(const std::string& name, int priority);

// Convolutions whose data zero point is known only at run time (ONNX
// ConvInteger after DynamicQuantizeLinear): kernels/spatial_pack/dynamic_conv.h
// on the ISA of `needs`: an unfused one reads and writes NCHW (the blocked
// layouts stay inside the kernel); with the dynamic epilogue fused
// (qnn.conv2d_dynamic, FuseOps) it reads and writes the blocked layouts. The
// zero point's compensation is computed per run. Any 8-bit weights: the
// multiply follows the weights (spatial_pack::DynamicArithmetic).
Implementation DynamicSpatialPack(const std::string& name, int priority, Feature needs);
// The same workloads on the portable int16 kernel (any CPU, NCHW in and out):
// the zero point is subtracted while the kernel packs its int16 copy of the
// data, the float epilogue fused as above. A dense layer runs the same
// dynamic dense kernel as under the x86 decisions (kernels/dense/qnn_matmul.h,
// portable), so for dense layers the two decisions are one kernel.
Implementation DynamicInt16SpatialPack(const std::string& name, int priority);

// Registers an implementation for qnn.conv2d and qnn.dense (it has a
// kernel for both), or for qnn.conv2d only. Only implementations with a
// kernel are registered (//tools:implementation_kernels_test).
absl::Status RegisterForTunableOps(class Registry& registry, const std::string& key,
                                   const Implementation& impl);
absl::Status RegisterForConv(class Registry& registry, const std::string& key,
                             const Implementation& impl);
// Registers `make(name, priority)` for the u8 x s8 variant's implementation
// under `key`: for dense layers too where the variant table says it decides
// them (kernels/spatial_pack/variants.h).
template <typename Make>
absl::Status RegisterU8S8(class Registry& registry, const std::string& key,
                          const kernels::spatial_pack::U8S8Variant& v, Make make, int priority) {
  const Implementation impl = make(v.implementation, priority);
  return v.dense_op ? RegisterForTunableOps(registry, key, impl) : RegisterForConv(registry, key, impl);
}

}  // namespace qnnc::target

#endif  // QNNC_TARGET_COMMON_IMPLEMENTATIONS_H_
