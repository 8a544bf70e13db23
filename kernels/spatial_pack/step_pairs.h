// Which of the AVX2 u8s8 kernel's packed steps may share one vpmaddwd: the
// int16 sums of two steps' vpmaddubsw products, added before widening (a
// third fewer multiplies for the two: 2 vpmaddubsw and 1 vpmaddwd where two
// steps alone take 2 and 2).
#ifndef QNNC_KERNELS_SPATIAL_PACK_STEP_PAIRS_H_
#define QNNC_KERNELS_SPATIAL_PACK_STEP_PAIRS_H_

#include <array>
#include <cstdint>
#include <vector>

namespace qnnc::kernels::spatial_pack {

// A step is 64 bytes of s8 weights, [16 output channels][4 input channels]:
// one word of 4 input channels (one tap) for the tile's 16 output channels,
// as the AVX2 kernel packs it (two ymm of 8 output channels). vpmaddubsw
// makes int16 lane 2l + i of a ymm (output channel l, i = 0, 1) from the
// channels (2i, 2i + 1) of the word. Two steps a, b add their lanes in
// int16 (vpaddw, wrapping) before vpmaddwd by ones widens them: exact when
// each lane's sum stays in int16 for any u8 inputs, that is when its four
// weights' positive ones add up to at most 128 and so do their negative
// ones' magnitudes (255 * 128 = 32640, as kMaddubsMaxPairSum; each step's
// own pairs must fit too, the packing's split guarantees that).
inline constexpr int64_t kStepBytes = 64;
bool StepsShareMadd(const int8_t* a, const int8_t* b);

// The steps of one tile paired for sharing: `pairs` (indices into the
// steps, each pair satisfying StepsShareMadd) and the rest in `singles`, in
// their original order; steps whose weights are all 0 are in neither (they
// add nothing). A greedy maximal matching: the steps with the fewest
// partners first (counted among at most 128 evenly spaced steps), each with
// the first free partner in that order (ties: index order, so it is
// deterministic). On ResNet-18's trained weights it pairs 15-21% of the
// steps of the layers with 64 input channels, 55% with 128, 90% with 256 and
// 99.6% with 512 (92.5% of all; counting every partner, not a sample: 93.1%).
// The steps left then pair the same way where one half of their output
// channels fits (`half_pairs[h]`: half h, output channels 8h..8h+7, shares a
// vpmaddwd, the other half runs each step's own): on ResNet-18's 64-channel
// layers another 68% of their steps, each saving one multiply of eight.
struct StepPairing {
  std::vector<std::array<int32_t, 2>> pairs;
  std::vector<std::array<int32_t, 2>> half_pairs[2];
  std::vector<int32_t> singles;
};
StepPairing PairSteps(const int8_t* steps, int64_t count);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_STEP_PAIRS_H_
