#include "kernels/spatial_pack/weight_pairs.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

namespace qnnc::kernels::spatial_pack {

int64_t MaxWeightPairSum(const int16_t* w, const tensor::Shape& shape, int64_t groups) {
  const int64_t oc_count = shape[0], cg = shape[1];
  const int64_t kk = shape[2] * shape[3], og = std::max<int64_t>(1, oc_count / groups);
  // Pairs (2m, 2m + 1) of the group's input channels, a channel outside the
  // group reading as 0; the taps innermost, contiguous, so the loop
  // vectorizes.
  int32_t worst = 0;
  for (int64_t oc = 0; oc < oc_count; ++oc) {
    const int64_t lo = (oc / og) * cg, hi = lo + cg;  // the group's input channels
    auto row = [&](int64_t ic) { return ic >= lo && ic < hi ? w + (oc * cg + (ic - lo)) * kk : nullptr; };
    for (int64_t m = lo / 2; 2 * m < hi; ++m) {
      const int16_t* a = row(2 * m);
      const int16_t* b = row(2 * m + 1);
      for (int64_t k = 0; k < kk; ++k) {
        const int32_t va = a ? a[k] : 0, vb = b ? b[k] : 0;
        const int32_t pos = std::max(va, 0) + std::max(vb, 0);
        const int32_t neg = std::max(-va, 0) + std::max(-vb, 0);
        worst = std::max(worst, std::max(pos, neg));
      }
    }
  }
  return worst;
}

int64_t MaxWeightPairSum(const tensor::Tensor& weight, int64_t groups) {
  std::vector<int16_t> w(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return MaxWeightPairSum(w.data(), weight.shape(), groups);
}

namespace {

constexpr int kBlock = kPairingBlock;

// Whether the pair (a, b) of values at one output channel and tap could
// saturate vpmaddubsw's int16 sum.
inline bool Saturates(int a, int b) {
  return std::max(a, 0) + std::max(b, 0) > kMaddubsMaxPairSum ||
         std::max(-a, 0) + std::max(-b, 0) > kMaddubsMaxPairSum;
}

// An OIHW weight's extents: output channels, input channels per group,
// taps, output channels per group.
struct Weights {
  int64_t oc_count, cg, kk, og;
};

// Minimum-cost pairing of the channels of one block (cost[a][b]: the (8
// output channels, tap) at which the pair (a, b) could saturate; the sum
// over the pairs stands in for the kernel's corrected half steps, which
// hold two pairs): exact for that sum, by dynamic programming over the unpaired sets,
// lowest channel first and its natural partner (a ^ 1) first, so ties keep
// the natural order.
class BlockMatcher {
 public:
  using Cost = std::array<std::array<int64_t, kBlock>, kBlock>;
  BlockMatcher() : memo_(size_t{1} << kBlock), stamp_(size_t{1} << kBlock, 0), partner_(size_t{1} << kBlock) {}
  // The best pairing of the channels in `all` into slots (2m, 2m + 1).
  void Solve(const Cost& cost, uint32_t all, uint8_t* slots) {
    cost_ = &cost;
    // Forgets the previous block's memo without clearing it (but when the
    // stamps wrap around).
    if (++generation_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), generation_ = 1;
    Best(all);
    for (int m = 0; all != 0; ++m) {
      const int a = __builtin_ctz(all), b = partner_[all];
      slots[2 * m] = static_cast<uint8_t>(a);
      slots[2 * m + 1] = static_cast<uint8_t>(b);
      all &= ~((1u << a) | (1u << b));
    }
  }

 private:
  int64_t Best(uint32_t unpaired) {
    if (unpaired == 0) return 0;
    if (stamp_[unpaired] == generation_) return memo_[unpaired];
    const int a = __builtin_ctz(unpaired);
    const uint32_t rest = unpaired & ~(1u << a);
    int64_t best = -1;
    // Only a strictly lower sum replaces the best, and the rest costs at
    // least 0: a partner costing the best or more is skipped unexplored, and
    // a best of 0 ends the search (the same pairing, far fewer sets
    // visited: most pairs cost 0).
    auto attempt = [&](int b) {
      if (best >= 0 && (*cost_)[a][b] >= best) return;
      const int64_t v = (*cost_)[a][b] + Best(rest & ~(1u << b));
      if (best < 0 || v < best) best = v, partner_[unpaired] = static_cast<uint8_t>(b);
    };
    if (rest & (1u << (a ^ 1))) attempt(a ^ 1);
    for (uint32_t r = rest & ~(1u << (a ^ 1)); r != 0 && best != 0; r &= r - 1) attempt(__builtin_ctz(r));
    stamp_[unpaired] = generation_;
    return memo_[unpaired] = best;
  }

  const Cost* cost_ = nullptr;
  std::vector<int64_t> memo_;     // by set of unpaired channels, valid where
  std::vector<uint32_t> stamp_;   // stamp_ holds this block's generation
  uint32_t generation_ = 0;
  std::vector<uint8_t> partner_;
};

// Whether the pair of channels with these magnitudes (pos and neg: [unit][16
// lanes]) could saturate in half h (8 lanes) of unit u (16 output channels,
// tap).
inline bool HalfSaturates(const int16_t* pa, const int16_t* pc, const int16_t* na, const int16_t* nc,
                          int64_t u, int h) {
  // The 8 lanes as one vector (GCC's vector extensions: SSE2 or NEON, any
  // x86-64 or aarch64); lane by lane, this loop was half of planning.
  typedef int16_t Lanes __attribute__((vector_size(16)));
  Lanes a, c, n, m;
  const int64_t i = u * kBlock + 8 * h;
  std::memcpy(&a, pa + i, sizeof a);
  std::memcpy(&c, pc + i, sizeof c);
  std::memcpy(&n, na + i, sizeof n);
  std::memcpy(&m, nc + i, sizeof m);
  const Lanes limit = Lanes{} + static_cast<int16_t>(kMaddubsMaxPairSum);
  const Lanes bad = (a + c > limit) | (n + m > limit);
  uint64_t any[2];
  std::memcpy(any, &bad, sizeof any);
  return (any[0] | any[1]) != 0;
}

// The (8 output channels, tap) halves at which that pair could saturate, as bits.
std::vector<uint64_t> SaturatingHalves(const int16_t* pa, const int16_t* pc, const int16_t* na,
                                       const int16_t* nc, int64_t unit_count) {
  std::vector<uint64_t> bits((2 * unit_count + 63) / 64, 0);
  for (int64_t u = 0; u < unit_count; ++u) {
    for (int h = 0; h < 2; ++h) {
      if (HalfSaturates(pa, pc, na, nc, u, h)) bits[(2 * u + h) / 64] |= uint64_t{1} << ((2 * u + h) % 64);
    }
  }
  return bits;
}

// Which two pairs share a word of 4 slots. A half step is corrected where
// either of its word's pairs could saturate, so the pairs whose saturating
// halves coincide most share words: a minimum-cost perfect matching of the
// pairs (cost: the halves where either saturates), by dynamic programming
// over at most 8, ties keeping the words as they are. With an odd number of
// pairs, the one left over shares the last word with two padding channels.
// sets[i]: pair i's (slots 2i, 2i + 1) saturating halves.
void GroupWords(const std::vector<std::vector<uint64_t>>& sets, uint8_t* slots) {
  const int pairs = static_cast<int>(sets.size());
  const int items = pairs + pairs % 2;  // item `pairs` (when odd): the padding pair
  int64_t cost[kBlock / 2][kBlock / 2] = {};
  for (int a = 0; a < pairs; ++a) {
    for (int b = a + 1; b < items; ++b) {
      int64_t n = 0;
      for (size_t i = 0; i < sets[a].size(); ++i) n += __builtin_popcountll(sets[a][i] | (b < pairs ? sets[b][i] : 0));
      cost[a][b] = cost[b][a] = n;
    }
  }
  std::vector<int64_t> best(size_t{1} << items, -1);
  std::vector<uint8_t> partner(size_t{1} << items, 0);
  best[0] = 0;
  // Sets in increasing order: every subset is solved before the sets holding it.
  for (uint32_t set = 1; set < (1u << items); ++set) {
    if (__builtin_popcount(set) % 2 != 0) continue;
    const int a = __builtin_ctz(set);
    const uint32_t rest = set & ~(1u << a);
    auto attempt = [&](int b) {
      const int64_t v = cost[a][b] + best[rest & ~(1u << b)];
      if (best[set] < 0 || v < best[set]) best[set] = v, partner[set] = static_cast<uint8_t>(b);
    };
    if (rest & (1u << (a ^ 1))) attempt(a ^ 1);
    for (uint32_t r = rest & ~(1u << (a ^ 1)); r != 0; r &= r - 1) attempt(__builtin_ctz(r));
  }
  uint8_t old[kBlock];
  std::copy(slots, slots + 2 * items, old);  // the padding pair's slots too
  int word = 0, padded_with = -1;
  for (uint32_t set = (1u << items) - 1; set != 0;) {
    const int a = __builtin_ctz(set), b = partner[set];
    set &= ~((1u << a) | (1u << b));
    if (b == pairs) {
      padded_with = a;
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      slots[4 * word + i] = old[2 * a + i];
      slots[4 * word + 2 + i] = old[2 * b + i];
    }
    ++word;
  }
  if (padded_with >= 0) {
    for (int i = 0; i < 2; ++i) {
      slots[4 * word + i] = old[2 * padded_with + i];
      slots[4 * word + 2 + i] = old[2 * pairs + i];
    }
  }
}

}  // namespace

int64_t PairingOrderGroups(const tensor::Shape& shape, int64_t groups, int64_t in_height, int64_t in_width) {
  if (shape.size() != 4 || groups != 1 || shape[2] * shape[3] <= 1 || in_height <= 0 || in_width <= 0) return 1;
  const int64_t ocbs = (shape[0] + kBlock - 1) / kBlock, pixels = in_height * in_width;
  const int64_t input_bytes = pixels * ((shape[1] + kBlock - 1) / kBlock) * kBlock;
  constexpr int64_t kMaxCopyBytes = 2 << 20;
  const int64_t by_bytes = kMaxCopyBytes / std::max<int64_t>(1, input_bytes);
  const int64_t wanted = std::clamp<int64_t>(by_bytes, 1, ocbs);
  const int64_t tiles_per_order = (ocbs + wanted - 1) / wanted;  // equal groups of whole tiles
  return (ocbs + tiles_per_order - 1) / tiles_per_order;
}

// One input block's channels in an order group: output channels [oc0,
// oc1), input channels [c0, c0 + n), `nodes` of them paired (n, rounded up
// to even), each with unit_count units of 16 lanes (per_channel values).
struct BlockSpan {
  int64_t oc0, oc1, c0, n;
  int nodes;
  int64_t unit_count, per_channel;
};

// The cost of pairing each two channels of a block (the halves that could
// saturate), as they are or with one flipped where that costs less, from
// their positive and negative magnitudes.
static void PairCosts(const int16_t* w, const Weights& wt, const BlockSpan& span, const std::vector<int16_t>& pos,
                      const std::vector<int16_t>& neg, bool flips, bool (&can_flip)[kBlock],
                      BlockMatcher::Cost& cost, bool (&flipped)[kBlock][kBlock]) {
  const int64_t oc0 = span.oc0, oc1 = span.oc1, c0 = span.c0, n = span.n;
  const int nodes = span.nodes;
  const int64_t unit_count = span.unit_count, per_channel = span.per_channel;
  // Channels that may be flipped: none of their weights here is -128.
  for (int64_t c = 0; c < n && flips; ++c) {
    can_flip[c] = true;
    for (int64_t oc = oc0; oc < oc1 && can_flip[c]; ++oc) {
      const int16_t* src = w + (oc * wt.cg + c0 + c) * wt.kk;
      for (int64_t k = 0; k < wt.kk; ++k) can_flip[c] = can_flip[c] && src[k] != -128;
    }
  }
  // (8 output channels, tap) where (a, c) could saturate, as they are
  // and with one of them flipped (c's magnitudes swapped).
  auto halves = [&](int a, int c, bool flipped) {
    const int16_t *pa = pos.data() + a * per_channel, *na = neg.data() + a * per_channel;
    const int16_t *pc = (flipped ? neg : pos).data() + c * per_channel;
    const int16_t *nc = (flipped ? pos : neg).data() + c * per_channel;
    int64_t count = 0;
    for (int64_t u = 0; u < unit_count; ++u) {
      count += HalfSaturates(pa, pc, na, nc, u, 0) + HalfSaturates(pa, pc, na, nc, u, 1);
    }
    return count;
  };
  for (int a = 0; a < nodes; ++a) {
    for (int c = a + 1; c < nodes; ++c) {
      cost[a][c] = cost[c][a] = halves(a, c, false);
      if (can_flip[a] || can_flip[c]) {
        const int64_t f = halves(a, c, true);
        if (f < cost[a][c]) cost[a][c] = cost[c][a] = f, flipped[a][c] = flipped[c][a] = true;
      }
    }
  }
}

// The steps the kernel runs (as u8s8_dense_pack.cc packs them: per tile of 16
// output channels, the input blocks of its groups, up to the last real word
// of the last block), and their halves holding a saturating pair.
static void CountSteps(const int16_t* w, const Weights& wt, int64_t ic_count, int64_t ocbs, bool natural,
                       PairingPlan* out) {
  PairingPlan& plan = *out;
  const int64_t ib = ic_count <= 4 ? 4 : kBlock;  // the image stem's 4-channel blocks
  std::vector<uint8_t> bad;
  for (int64_t ocb = 0; ocb < ocbs; ++ocb) {
    const int64_t oc_lo = ocb * kBlock, oc_hi = std::min(wt.oc_count, oc_lo + kBlock);
    const int64_t ic_lo = (oc_lo / wt.og) * wt.cg, ic_hi = ((oc_hi - 1) / wt.og + 1) * wt.cg;
    for (int64_t blk = ic_lo / ib; blk * ib < ic_hi; ++blk) {
      const int64_t words = (std::min(ic_hi, (blk + 1) * ib) - blk * ib + 3) / 4;
      const int64_t base = blk * ib / kBlock * kBlock, slot0 = blk * ib % kBlock;
      plan.units += words * wt.kk;
      if (natural) continue;
      // Per (word, tap, half): whether some output channel's pair there
      // could saturate, output channel by output channel (the weights
      // walked in place).
      bad.assign(words * wt.kk * 2, 0);
      for (int64_t oc = oc_lo; oc < oc_hi; ++oc) {
        const uint8_t *order = plan.OrderOf(oc), *flip = plan.FlipOf(oc);
        const int64_t lo = (oc / wt.og) * wt.cg, h = (oc - oc_lo) / 8;
        auto row = [&](int64_t s) -> const int16_t* {  // the weights of slot s, nullptr outside oc's group
          const int64_t ic = base + order[s];
          return ic < lo || ic >= lo + wt.cg ? nullptr : w + (oc * wt.cg + ic - lo) * wt.kk;
        };
        for (int64_t q = 0; q < words; ++q) {
          for (int pair = 0; pair < 2; ++pair) {
            const int64_t s = base + slot0 + 4 * q + 2 * pair;
            const int16_t *r0 = row(s), *r1 = row(s + 1);
            for (int64_t k = 0; k < wt.kk; ++k) {
              const int v0 = r0 ? FlippedWeight(r0[k], flip[s]) : 0, v1 = r1 ? FlippedWeight(r1[k], flip[s + 1]) : 0;
              bad[(q * wt.kk + k) * 2 + h] |= Saturates(v0, v1);
            }
          }
        }
      }
      plan.corrected_halves += std::count(bad.begin(), bad.end(), 1);
    }
  }
}

static PairingPlan ComputePlan(const int16_t* w, const tensor::Shape& shape, int64_t groups, int64_t order_groups,
                        bool flips) {
  if (flips && shape[2] * shape[3] == 1) {
    // A 1x1 layer in the natural order may read its input in place; flips
    // would make it copy (MobileNetV2's 32 -> 16 at 112x112: 8% slower with
    // 6 channels flipped), so it flips only where it copies anyway.
    PairingPlan plain = ComputePlan(w, shape, groups, order_groups, false);
    if (IsNaturalOrder(plain.order)) return plain;
  }
  const Weights wt{shape[0], shape[1], shape[2] * shape[3], std::max<int64_t>(1, shape[0] / groups)};
  const int64_t ic_count = groups * wt.cg, blocks = (ic_count + kBlock - 1) / kBlock;
  const int64_t ocbs = (wt.oc_count + kBlock - 1) / kBlock;
  const bool natural = MaxWeightPairSum(w, shape, groups) <= kMaddubsMaxPairSum;
  const bool reorder = !natural && groups == 1 && wt.cg > 4;
  PairingPlan plan;
  // Orders of whole 16-channel tiles, as equal as they go.
  const int64_t per_group = reorder ? (ocbs + std::clamp<int64_t>(order_groups, 1, ocbs) - 1) /
                                          std::clamp<int64_t>(order_groups, 1, ocbs)
                                    : ocbs;
  plan.order_groups = (ocbs + per_group - 1) / per_group;
  plan.oc_per_order = per_group * kBlock;
  const int64_t per_order = blocks * kBlock;
  plan.order.resize(plan.order_groups * per_order);
  plan.flip.assign(plan.order.size(), 0);
  for (int64_t i = 0; i < static_cast<int64_t>(plan.order.size()); ++i) {
    plan.order[i] = static_cast<uint8_t>(i % kBlock);
  }
  for (int64_t og = 0; og < plan.order_groups && reorder; ++og) {
    // The group's weights by channel, [unit = (16 output channels, tap)][16],
    // as their positive and negative magnitudes (0 past the output channels):
    // a pair saturates a unit where either sum passes 128 in some lane, 16
    // lanes the compiler compares at once.
    const int64_t oc0 = og * plan.oc_per_order, oc1 = std::min(wt.oc_count, oc0 + plan.oc_per_order);
    const int64_t unit_count = ((oc1 - oc0 + kBlock - 1) / kBlock) * wt.kk, per_channel = unit_count * kBlock;
    std::vector<int16_t> pos, neg;
    // One per thread, its 850 KB of memo reused (ResNet-18's 512 -> 512 plans
    // 32 orders).
    thread_local BlockMatcher matcher;
    for (int64_t b = 0; b < blocks; ++b) {
      // The real channels (and one padding channel when their count is
      // odd) pair among themselves and the rest of the block stays padding:
      // the kernels skip steps past a block's last real channel (q_last), so
      // spreading a partial block's channels over its padding slots would
      // only add steps (Inception's 8-channel 3x3: 1.6x slower).
      const int64_t c0 = b * kBlock, n = std::min<int64_t>(kBlock, ic_count - c0);
      const int nodes = static_cast<int>(n + n % 2);
      pos.assign(nodes * per_channel, 0);
      neg.assign(nodes * per_channel, 0);
      for (int64_t oc = oc0; oc < oc1; ++oc) {
        for (int64_t c = 0; c < n; ++c) {
          const int16_t* src = w + (oc * wt.cg + c0 + c) * wt.kk;
          for (int64_t k = 0; k < wt.kk; ++k) {
            const int64_t at = c * per_channel + (((oc - oc0) / kBlock) * wt.kk + k) * kBlock + oc % kBlock;
            pos[at] = static_cast<int16_t>(std::max<int>(src[k], 0));
            neg[at] = static_cast<int16_t>(std::max<int>(-src[k], 0));
          }
        }
      }
      bool can_flip[kBlock] = {};
      BlockMatcher::Cost cost{};
      bool flipped[kBlock][kBlock] = {};
      PairCosts(w, wt, {oc0, oc1, c0, n, nodes, unit_count, per_channel}, pos, neg, flips, can_flip, cost, flipped);
      const uint32_t all = (1u << nodes) - 1;
      uint8_t* slots = plan.order.data() + og * per_order + c0;
      matcher.Solve(cost, all, slots);
      bool flip_channel[kBlock] = {};
      std::vector<std::vector<uint64_t>> sets(nodes / 2);
      for (int m = 0; m < nodes / 2; ++m) {
        const int a = slots[2 * m], c = slots[2 * m + 1];
        const bool f = flipped[a][c];
        if (f) flip_channel[can_flip[c] ? c : a] = true;
        sets[m] = SaturatingHalves(pos.data() + a * per_channel, (f ? neg : pos).data() + c * per_channel,
                                   neg.data() + a * per_channel, (f ? pos : neg).data() + c * per_channel, unit_count);
      }
      GroupWords(sets, slots);
      for (int s = 0; s < nodes; ++s) plan.flip[og * per_order + c0 + s] = flip_channel[slots[s]];
    }
  }
  CountSteps(w, wt, ic_count, ocbs, natural, &plan);
  return plan;
}

namespace {

// Plans by their inputs: compiling a model plans each layer twice (its
// workload's corrected share, then its kernel), and a plan of ResNet-18's
// 512 -> 512 layers with 32 orders takes tens of milliseconds. Keyed by a
// hash of the weights; a plan found is checked against them (no flipped
// channel holds -128), so even a collision could only give an exact plan
// with other counts.
struct PlanKey {
  size_t hash;
  tensor::Shape shape;
  int64_t groups, order_groups;
  bool flips;
  bool operator==(const PlanKey& o) const {
    return hash == o.hash && shape == o.shape && groups == o.groups && order_groups == o.order_groups &&
           flips == o.flips;
  }
};

size_t HashWeights(const int16_t* w, int64_t n) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the values
  for (int64_t i = 0; i < n; ++i) h = (h ^ static_cast<uint16_t>(w[i])) * 1099511628211ull;
  return static_cast<size_t>(h);
}

bool FlipsFit(const PairingPlan& plan, const int16_t* w, const tensor::Shape& shape) {
  if (!plan.HasFlips()) return true;
  const int64_t cg = shape[1], kk = shape[2] * shape[3];
  return plan.ForEachFlipped(shape[0], cg, [&](int64_t oc, int64_t ic) {
    const int16_t* v = w + (oc * cg + ic) * kk;
    return std::find(v, v + kk, int16_t{-128}) == v + kk;
  });
}

constexpr size_t kCachedPlans = 512;

}  // namespace

PairingPlan PlanPairing(const int16_t* w, const tensor::Shape& shape, int64_t groups, int64_t order_groups,
                        bool flips) {
  static std::mutex mu;
  static std::deque<std::pair<PlanKey, PairingPlan>> cache;  // oldest first
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const PlanKey key{HashWeights(w, n), shape, groups, order_groups, flips};
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [k, plan] : cache) {
      if (k == key && FlipsFit(plan, w, shape)) return plan;
    }
  }
  PairingPlan plan = ComputePlan(w, shape, groups, order_groups, flips);
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace_back(key, plan);
  if (cache.size() > kCachedPlans) cache.pop_front();
  return plan;
}

PairingPlan PlanPairing(const tensor::Tensor& weight, int64_t groups, int64_t order_groups, bool flips) {
  std::vector<int16_t> w(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return PlanPairing(w.data(), weight.shape(), groups, order_groups, flips);
}

bool PairingPlan::HasFlips() const {
  return std::find(flip.begin(), flip.end(), 1) != flip.end();
}

bool PairingPlan::Copies() const { return !IsNaturalOrder(order) || HasFlips(); }

bool IsNaturalOrder(const PairingOrder& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != i % kBlock) return false;
  }
  return true;
}

}  // namespace qnnc::kernels::spatial_pack
