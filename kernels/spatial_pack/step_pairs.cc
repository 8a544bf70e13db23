#include "kernels/spatial_pack/step_pairs.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kernels/spatial_pack/weight_pairs.h"

namespace qnnc::kernels::spatial_pack {
namespace {

// Per int16 lane of a step (32: two weights each): the magnitudes of its
// two weights' positive sum and negative sum (at most 128 after the
// packing's split; up to 256 before, kept as 255), [lane][positive, negative].
using Sums = std::array<uint8_t, kStepBytes>;

Sums LaneSums(const int8_t* step) {
  Sums s{};
  for (int lane = 0; lane < kStepBytes / 2; ++lane) {
    int sum[2] = {0, 0};
    for (int b = 0; b < 2; ++b) {
      const int v = step[2 * lane + b];
      sum[v < 0] += v < 0 ? -v : v;
    }
    for (int i = 0; i < 2; ++i) s[2 * lane + i] = static_cast<uint8_t>(std::min(sum[i], 255));
  }
  return s;
}

// Whether a's sums fit beside b's room (kMaddubsMaxPairSum minus b's sums)
// in every lane. The planner runs it for every two steps of a tile (660 K
// times for a 512-channel 3x3 tile): on x86-64 as SSE2's saturating
// subtraction (nonzero where a exceeds the room) over four 16-byte vectors.
bool Fits(const Sums& a, const Sums& room, int from = 0, int to = kStepBytes) {
#if defined(__SSE2__)
  __m128i over = _mm_setzero_si128();
  for (int i = from; i < to; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + i));
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(room.data() + i));
    over = _mm_or_si128(over, _mm_subs_epu8(x, r));
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) == 0xffff;
#else
  for (int i = from; i < to; ++i) {
    if (a[i] > room[i]) return false;
  }
  return true;
#endif
}

// The sums of half h (output channels 8h..8h+7: 16 lanes).
constexpr int kHalfBytes = kStepBytes / 2;

// A greedy maximal matching of items 0..n-1 under share(i, j): each item's
// partners among at most kSampled others, evenly spaced, give its degree
// where there are few items and an estimate of its rank where there are many
// (all of them: 660 K checks for a 512-channel 3x3 tile, a fifth of
// ResNet-18's compile; sampled, 0.6% fewer of its steps paired). In that
// order, each free item takes the first free one it shares with. Returns
// each item's partner, -1 where none.
template <typename Share>
std::vector<int32_t> GreedyMatch(int64_t n, Share share) {
  constexpr int64_t kSampled = 128;
  const int64_t stride = std::max<int64_t>(1, n / kSampled);
  std::vector<int32_t> degree(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; j += stride) degree[i] += j != i && share(i, j);
  }
  std::vector<int32_t> order(n);
  for (int64_t i = 0; i < n; ++i) order[i] = static_cast<int32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return degree[a] < degree[b]; });
  // The free ones as a list over positions in `order` (`next`; n ends it).
  std::vector<int32_t> partner(n, -1), next(n + 1);
  for (int64_t k = 0; k <= n; ++k) next[k] = static_cast<int32_t>(k + 1);
  int32_t head = 0;
  while (head < n) {
    const int32_t a = order[head];
    head = next[head];
    for (int32_t prev = -1, k = head; k < n; prev = k, k = next[k]) {
      if (share(a, order[k])) {
        partner[a] = order[k];
        partner[order[k]] = a;
        (prev < 0 ? head : next[prev]) = next[k];
        break;
      }
    }
  }
  return partner;
}

Sums Room(const Sums& s) {
  Sums r;
  for (size_t i = 0; i < s.size(); ++i) r[i] = static_cast<uint8_t>(kMaddubsMaxPairSum - s[i]);
  return r;
}

// A step with a pair over the limit on its own (its room would wrap)
// shares with none.
bool Alone(const Sums& s) {
  return std::any_of(s.begin(), s.end(), [](uint8_t v) { return v > kMaddubsMaxPairSum; });
}

}  // namespace

bool StepsShareMadd(const int8_t* a, const int8_t* b) {
  const Sums sa = LaneSums(a), sb = LaneSums(b);
  return !Alone(sa) && !Alone(sb) && Fits(sa, Room(sb));
}

StepPairing PairSteps(const int8_t* steps, int64_t count) {
  StepPairing out;
  std::vector<Sums> sums, room;
  std::vector<int32_t> live;  // the steps with a nonzero weight
  for (int64_t s = 0; s < count; ++s) {
    const int8_t* w = steps + s * kStepBytes;
    if (std::all_of(w, w + kStepBytes, [](int8_t v) { return v == 0; })) continue;
    sums.push_back(LaneSums(w));
    room.push_back(Room(sums.back()));
    live.push_back(static_cast<int32_t>(s));
  }
  const int64_t n = static_cast<int64_t>(live.size());
  std::vector<bool> alone(n);
  for (int64_t i = 0; i < n; ++i) alone[i] = Alone(sums[i]);
  const std::vector<int32_t> partner = GreedyMatch(n, [&](int64_t i, int64_t j) {
    return !alone[i] && !alone[j] && Fits(sums[i], room[j]);
  });
  std::vector<int32_t> rest;  // unpaired, as indices into live
  for (int64_t i = 0; i < n; ++i) {
    if (partner[i] < 0) {
      rest.push_back(static_cast<int32_t>(i));
    } else if (partner[i] > i) {
      out.pairs.push_back({live[i], live[partner[i]]});
    }
  }
  // The rest share one half, if any (not both: the matching is maximal).
  auto half_fits = [&](int32_t i, int32_t j, int h) {
    return !alone[i] && !alone[j] && Fits(sums[i], room[j], h * kHalfBytes, (h + 1) * kHalfBytes);
  };
  const std::vector<int32_t> half_partner = GreedyMatch(static_cast<int64_t>(rest.size()), [&](int64_t x, int64_t y) {
    return half_fits(rest[x], rest[y], 0) || half_fits(rest[x], rest[y], 1);
  });
  for (size_t x = 0; x < rest.size(); ++x) {
    const int32_t y = half_partner[x];
    if (y < 0) {
      out.singles.push_back(live[rest[x]]);
    } else if (y > static_cast<int32_t>(x)) {
      const int h = half_fits(rest[x], rest[y], 0) ? 0 : 1;
      out.half_pairs[h].push_back({live[rest[x]], live[rest[y]]});
    }
  }
  return out;
}

}  // namespace qnnc::kernels::spatial_pack
