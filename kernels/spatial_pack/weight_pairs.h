// Whether u8 x s8 weights can take AVX2's one-pass vpmaddubsw arithmetic: a
// fact about the weight values alone, so a leaf that workload extraction
// (//target) reads without linking the kernels.
#ifndef QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
#define QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_

#include <cstdint>
#include <optional>
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
// FindPairingOrder returns an order under which every pair fits
// (kMaddubsMaxPairSum): the natural one (order[16 b + s] = s) when it
// fits, else one found by an exact search per block (a perfect matching of
// the channels that fit together; the channels of a partial block pair
// among themselves, with one padding channel if their count is odd, and
// keep their slots at its start); nullopt when none exists, or the search
// gave up (a bounded number of steps per block, the same on every run).
// Grouped weights (groups > 1) and at most 4 input channels (the image
// stem's 4-channel blocks) keep the natural order.
using PairingOrder = std::vector<uint8_t>;
std::optional<PairingOrder> FindPairingOrder(const int16_t* weight, const tensor::Shape& shape,
                                             int64_t groups);
std::optional<PairingOrder> FindPairingOrder(const tensor::Tensor& weight_s8_OIHW, int64_t groups);
bool IsNaturalOrder(const PairingOrder& order);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
