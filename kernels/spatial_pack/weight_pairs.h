// Whether u8 x s8 weights can take AVX2's one-pass vpmaddubsw arithmetic: a
// fact about the weight values alone, so a leaf that workload extraction
// (//target) reads without linking the kernels.
#ifndef QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
#define QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_

#include <cstdint>

#include "tensor/tensor.h"

namespace qnnc::kernels::spatial_pack {

// vpmaddubsw adds the products of input channels 2m and 2m + 1 (at one
// output channel and tap; a channel outside the output channel's group
// counts as weight 0) in int16, saturating. With u8 inputs up to 255 the sum
// stays exact when both the positive weights of a pair and the negative ones
// add up to at most 128 in magnitude (255 * 128 = 32640). MaxWeightPairSum
// is the largest such magnitude over the weights (w - zw, s8 OIHW).
inline constexpr int64_t kMaddubsMaxPairSum = 128;
int64_t MaxWeightPairSum(const tensor::Tensor& weight_s8_OIHW, int64_t groups);
// The same over int16 values (w - zw) of an OIHW weight of `shape`.
int64_t MaxWeightPairSum(const int16_t* weight, const tensor::Shape& shape, int64_t groups);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
