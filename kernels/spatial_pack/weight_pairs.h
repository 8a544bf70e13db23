// How u8 x s8 weights fare under AVX2's one-pass vpmaddubsw arithmetic (the
// pair sums, the channel order that pairs them best, the steps still to
// correct): facts about the weight values alone, so a leaf that workload
// extraction (//target) reads without linking the kernels.
#ifndef QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
#define QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_

#include <cstdint>
#include <vector>

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

// The pairs need not be channels (2m, 2m + 1): a kernel that reads its
// input through a copy may reorder the channels within each block of 16
// (one order for every output channel and tap), so that large weights pair
// with small ones. A pairing order holds, per block b of 16 input channels,
// the channel (within the block) at each of its 16 slots: slot s of block b
// reads channel 16 b + order[16 b + s] (slots past the channel count hold
// channels past it too, whose weights are 0), and slots (2m, 2m + 1) pair.
//
// PlanPairing chooses the order: the natural one when every pair fits in
// it; else, per block, the pairing whose pairs could saturate at the fewest
// (8 output channels, tap), summed over the pairs (a minimum-cost perfect
// matching of the block's channels, exact for that sum; which two pairs
// share a word of 4 slots is not optimized; a partial block's channels
// pair among themselves, with one padding channel if their count is odd,
// and keep the slots at its start; ties keep the natural order). Grouped
// weights (groups > 1) and at most 4 input channels (the image stem's
// 4-channel blocks) keep the natural order. `units` counts the steps the
// AVX2 kernel runs (16 output channels x one word of 4 slots x one tap, over
// each tile's input blocks up to its last real word); each step is two
// halves of 8 output channels (one ymm of weights each), and
// `corrected_halves` counts those that still hold a saturating pair: the
// kernel runs those twice (the part of the weights that fits, then a
// correction of that half with the rest; see u8s8_dense.cc).
// CorrectedFraction is the share of the work run twice.
using PairingOrder = std::vector<uint8_t>;
struct PairingPlan {
  PairingOrder order;
  int64_t units = 0;
  int64_t corrected_halves = 0;
  double CorrectedFraction() const { return units ? static_cast<double>(corrected_halves) / (2 * units) : 0.0; }
};
PairingPlan PlanPairing(const int16_t* weight, const tensor::Shape& shape, int64_t groups);
PairingPlan PlanPairing(const tensor::Tensor& weight_s8_OIHW, int64_t groups);
bool IsNaturalOrder(const PairingOrder& order);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
