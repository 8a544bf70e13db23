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
bool Fits(const Sums& a, const Sums& room) {
#if defined(__SSE2__)
  __m128i over = _mm_setzero_si128();
  for (int i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + 16 * i));
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(room.data() + 16 * i));
    over = _mm_or_si128(over, _mm_subs_epu8(x, r));
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) == 0xffff;
#else
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] > room[i]) return false;
  }
  return true;
#endif
}

Sums Room(const Sums& s) {
  Sums r;
  for (size_t i = 0; i < s.size(); ++i) r[i] = static_cast<uint8_t>(kMaddubsMaxPairSum - s[i]);
  return r;
}

}  // namespace

bool StepsShareMadd(const int8_t* a, const int8_t* b) {
  const Sums sa = LaneSums(a), sb = LaneSums(b);
  for (const Sums* s : {&sa, &sb}) {
    for (uint8_t v : *s) {
      if (v > kMaddubsMaxPairSum) return false;  // a pair that saturates on its own
    }
  }
  return Fits(sa, Room(sb));
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
  // A step with a pair over the limit on its own (its room wraps) shares
  // with none.
  std::vector<bool> alone(n);
  for (int64_t i = 0; i < n; ++i) {
    alone[i] = std::any_of(sums[i].begin(), sums[i].end(), [](uint8_t v) { return v > kMaddubsMaxPairSum; });
  }
  auto share = [&](int64_t i, int64_t j) { return !alone[i] && !alone[j] && Fits(sums[i], room[j]); };
  // Each step's partners among at most kSampled others, evenly spaced: its
  // degree where the tile has few steps, an estimate of its rank where it
  // has many (all of them: 660 K checks for a 512-channel 3x3 tile, a
  // fifth of ResNet-18's compile; sampled, the same share of steps paired
  // within 0.1%).
  constexpr int64_t kSampled = 128;
  const int64_t stride = std::max<int64_t>(1, n / kSampled);
  std::vector<int32_t> degree(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; j += stride) degree[i] += j != i && share(i, j);
  }
  std::vector<int32_t> order(n);
  for (int64_t i = 0; i < n; ++i) order[i] = static_cast<int32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return degree[a] < degree[b]; });
  // In that order, each free step with the first free one it shares with
  // (the free ones kept as a list: `next` skips those paired).
  std::vector<int32_t> partner(n, -1), next(n + 1);
  for (int64_t k = 0; k <= n; ++k) next[k] = static_cast<int32_t>(k + 1);  // positions in `order`; n ends
  int32_t head = 0;
  auto unlink = [&](int32_t prev, int32_t k) {  // prev < 0: k is the head
    if (prev < 0) {
      head = next[k];
    } else {
      next[prev] = next[k];
    }
  };
  while (head < n) {
    const int32_t ka = head, a = order[ka];
    unlink(-1, ka);
    for (int32_t prev = -1, k = head; k < n; prev = k, k = next[k]) {
      if (share(a, order[k])) {
        partner[a] = order[k];
        partner[order[k]] = a;
        unlink(prev, k);
        break;
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    if (partner[i] < 0) {
      out.singles.push_back(live[i]);
    } else if (partner[i] > i) {
      out.pairs.push_back({live[i], live[partner[i]]});
    }
  }
  return out;
}

}  // namespace qnnc::kernels::spatial_pack
