#include "kernels/spatial_pack/weight_pairs.h"

#include <algorithm>
#include <array>
#include <vector>

namespace qnnc::kernels::spatial_pack {

int64_t MaxWeightPairSum(const int16_t* w, const tensor::Shape& shape, int64_t groups) {
  const int64_t oc_count = shape[0], cg = shape[1];
  const int64_t kk = shape[2] * shape[3], og = std::max<int64_t>(1, oc_count / groups);
  int64_t worst = 0;
  for (int64_t oc = 0; oc < oc_count; ++oc) {
    const int64_t lo = (oc / og) * cg, hi = lo + cg;  // the group's input channels
    for (int64_t k = 0; k < kk; ++k) {
      for (int64_t m = lo / 2; 2 * m < hi; ++m) {
        int64_t pos = 0, neg = 0;
        for (int64_t ic = 2 * m; ic <= 2 * m + 1; ++ic) {
          if (ic < lo || ic >= hi) continue;
          const int64_t v = w[(oc * cg + (ic - lo)) * kk + k];
          (v > 0 ? pos : neg) += v > 0 ? v : -v;
        }
        worst = std::max({worst, pos, neg});
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

constexpr int kBlock = 16;
// Backtracking steps per block before the search gives up. Blocks whose
// channels have few partners end within a few hundred.
constexpr int kMaxSearchSteps = 1 << 16;

// Pairs the channels of one block (fits[a] bit b: a and b may pair) into
// `slots` (slot 2m, 2m + 1 a pair). Lowest unpaired channel first; its
// natural partner (a ^ 1) is tried first, so blocks that almost fit stay
// close to their order.
bool Match(const std::array<uint32_t, kBlock>& fits, uint32_t unpaired, std::array<uint8_t, kBlock>* slots,
           int depth, int* steps) {
  if (unpaired == 0) return true;
  if (++*steps > kMaxSearchSteps) return false;
  const int a = __builtin_ctz(unpaired);
  const uint32_t rest = unpaired & ~(1u << a);
  uint32_t partners = fits[a] & rest;
  auto attempt = [&](int b) {
    (*slots)[2 * depth] = static_cast<uint8_t>(a);
    (*slots)[2 * depth + 1] = static_cast<uint8_t>(b);
    return Match(fits, rest & ~(1u << b), slots, depth + 1, steps);
  };
  const int natural = a ^ 1;
  if (partners & (1u << natural)) {
    if (attempt(natural)) return true;
    partners &= ~(1u << natural);
  }
  for (; partners != 0; partners &= partners - 1) {
    if (attempt(__builtin_ctz(partners))) return true;
  }
  return false;
}

}  // namespace

std::optional<PairingOrder> FindPairingOrder(const int16_t* w, const tensor::Shape& shape,
                                             int64_t groups) {
  const int64_t oc_count = shape[0], cg = shape[1], kk = shape[2] * shape[3];
  const int64_t blocks = (groups * cg + kBlock - 1) / kBlock;
  PairingOrder order(blocks * kBlock);
  for (int64_t i = 0; i < static_cast<int64_t>(order.size()); ++i) order[i] = static_cast<uint8_t>(i % kBlock);
  if (MaxWeightPairSum(w, shape, groups) <= kMaddubsMaxPairSum) return order;
  if (groups != 1 || cg <= 4) return std::nullopt;
  // Per channel, the largest positive and negative weight at each (oc, tap)
  // decide nothing alone: two channels fit together when at every (oc, tap)
  // their positive parts add up to at most 128, and their negative parts.
  for (int64_t b = 0; b < blocks; ++b) {
    std::array<uint32_t, kBlock> fits{};
    const int64_t c0 = b * kBlock, n = std::min<int64_t>(kBlock, cg - c0);
    for (int a = 0; a < kBlock; ++a) {
      for (int c = a + 1; c < kBlock; ++c) {
        bool ok = true;
        if (a < n && c < n) {  // a channel past the count has weights 0
          for (int64_t oc = 0; oc < oc_count && ok; ++oc) {
            const int16_t* wa = w + (oc * cg + c0 + a) * kk;
            const int16_t* wc = w + (oc * cg + c0 + c) * kk;
            for (int64_t k = 0; k < kk; ++k) {
              const int va = wa[k], vc = wc[k];
              const int pos = std::max(va, 0) + std::max(vc, 0), neg = std::max(-va, 0) + std::max(-vc, 0);
              if (pos > kMaddubsMaxPairSum || neg > kMaddubsMaxPairSum) {
                ok = false;
                break;
              }
            }
          }
        }
        if (ok) {
          fits[a] |= 1u << c;
          fits[c] |= 1u << a;
        }
      }
    }
    // The real channels (and one padding channel when their count is odd)
    // pair among themselves and the rest of the block stays padding: the
    // kernels skip steps past a block's last real channel (q_last), so
    // spreading the channels of a partial block over its padding slots would
    // only add steps (Inception's 8-channel 3x3: 1.6x slower).
    const int real = static_cast<int>(n + (n % 2));
    std::array<uint8_t, kBlock> slots{};
    for (int i = real; i < kBlock; ++i) slots[i] = static_cast<uint8_t>(i);
    int steps = 0;
    if (!Match(fits, (1u << real) - 1, &slots, 0, &steps)) return std::nullopt;
    std::copy(slots.begin(), slots.end(), order.begin() + c0);
  }
  return order;
}

std::optional<PairingOrder> FindPairingOrder(const tensor::Tensor& weight, int64_t groups) {
  std::vector<int16_t> w(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return FindPairingOrder(w.data(), weight.shape(), groups);
}

bool IsNaturalOrder(const PairingOrder& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != i % kBlock) return false;
  }
  return true;
}

}  // namespace qnnc::kernels::spatial_pack
