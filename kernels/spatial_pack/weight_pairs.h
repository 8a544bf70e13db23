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
// (one order for every tap and, see below, for a group of output
// channels), so that large weights pair
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
//
// The order may differ between groups of output channels: a copy of the
// input per order costs little beside a 3x3 layer's products, and the
// fewer output channels an order serves, the fewer pairs it must fit
// (ResNet-18's 256 -> 256 3x3: 11.5% of half steps corrected with one order,
// 2% with one per 16 output channels). `order_groups` orders serve
// `oc_per_order` output channels each (a multiple of 16), `order` holding
// them in turn (OrderOf: that of an output channel).
//
// A channel may also be read complemented (255 - x, `flip` 1 at its slot,
// beside `order`) with its weights negated: w x = 255 w + (-w)(255 - x), the
// 255 w going to the bias. Only a pair's relative sign matters for
// saturation, and a pair of opposite signs never saturates, so per pair the
// plan takes the orientation that saturates at fewer half steps (flipping
// a channel none of whose weights in the order's output channels is -128,
// whose negation s8 cannot hold). ResNet-18's 64 -> 64 3x3: 10.7% of half
// steps corrected -> 6%. A 1x1 layer flips only where its order is not the
// natural one anyway (in the natural order it may read its input in place).
// The channels of a block, which an order permutes among themselves (a
// vpshufb's 16 bytes).
inline constexpr int kPairingBlock = 16;
using PairingOrder = std::vector<uint8_t>;
struct PairingPlan {
  PairingOrder order;
  std::vector<uint8_t> flip;  // per slot of `order`: 1 where read complemented
  int64_t order_groups = 1, oc_per_order = 0;
  int64_t units = 0;
  int64_t corrected_halves = 0;
  double CorrectedFraction() const { return units ? static_cast<double>(corrected_halves) / (2 * units) : 0.0; }
  const uint8_t* OrderOf(int64_t oc) const {
    return order.data() + (oc / oc_per_order) * (static_cast<int64_t>(order.size()) / order_groups);
  }
  const uint8_t* FlipOf(int64_t oc) const {
    return flip.data() + (oc / oc_per_order) * (static_cast<int64_t>(flip.size()) / order_groups);
  }
  bool HasFlips() const;
  // Calls fn(oc, ic) for each output channel oc < out_channels and input
  // channel ic < in_channels its order reads flipped, until fn returns
  // false; returns whether it ran to the end.
  template <typename Fn>
  bool ForEachFlipped(int64_t out_channels, int64_t in_channels, Fn fn) const {
    const int64_t per_order = static_cast<int64_t>(flip.size()) / order_groups;
    for (int64_t oc = 0; oc < out_channels; ++oc) {
      const uint8_t *o = OrderOf(oc), *f = FlipOf(oc);
      for (int64_t s = 0; s < per_order; ++s) {
        const int64_t ic = s / kPairingBlock * kPairingBlock + o[s];  // slot s of its block
        if (f[s] && ic < in_channels && !fn(oc, ic)) return false;
      }
    }
    return true;
  }
  // Whether the kernel reads its input through a copy (another order, or
  // channels flipped).
  bool Copies() const;
};
// How many orders the AVX2 kernel uses for a convolution with this weight
// shape (OIHW), groups and input plane (0 when unknown): one per 16 output
// channels of a 3x3 (or larger) kernel while the copies stay within about
// 2 MiB (each copy is one vpshufb per 32 bytes of the padded input; on
// ResNet-18's 7x7 planes 32 orders ran 3% faster than 8); one for 1x1
// kernels (each input byte serves 16 products per order there: ResNet-18's
// downsamples ran no faster with 2 to 32 orders), grouped weights and
// unknown planes.
int64_t PairingOrderGroups(const tensor::Shape& weight_shape, int64_t groups, int64_t in_height,
                           int64_t in_width);
// `flips` false: no channel is flipped (the plan as before flips, for
// comparison and tests).
PairingPlan PlanPairing(const int16_t* weight, const tensor::Shape& shape, int64_t groups,
                        int64_t order_groups = 1, bool flips = true);
PairingPlan PlanPairing(const tensor::Tensor& weight_s8_OIHW, int64_t groups, int64_t order_groups = 1,
                        bool flips = true);
bool IsNaturalOrder(const PairingOrder& order);
// The weight of slot `slot` as packed: negated where the plan flips it.
inline int FlippedWeight(int w, uint8_t flip) { return flip ? -w : w; }

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_WEIGHT_PAIRS_H_
