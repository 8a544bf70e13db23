// Packing a u8 x s8 dense kernel's weights (u8s8_dense.h): per tile of
// output-channel blocks, the stem's taps along the row, the grouped tiles'
// words, or input-channel blocks of steps; on AVX2 vpmaddubsw the pairs that
// could saturate split off as corrections and the steps paired.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernels/spatial_pack/step_pairs.h"
#include "kernels/spatial_pack/u8s8_dense.h"

namespace qnnc::kernels::spatial_pack {

// AVX2 vpmaddubsw: splits the pairs of step `number` (packed at `step`,
// nco = 1: [16 oc][4 ic]) that could saturate into the part that fits, left
// in `step`, and the rest, a correction of each half (8 oc) that has any,
// added to the run (internal::CorrectionRun) of `runs` that fits.
void U8S8Dense::SplitStep(int8_t* step, int32_t number, std::vector<Correction> (&runs)[3]) const {
  Correction c{number, {}};
  bool any[2] = {false, false};
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 32; i += 2) {  // the pair of bytes (i, i + 1): output channel i / 4, pair i % 4 / 2
      int8_t* pair = step + 32 * h + i;
      const int a = pair[0], b = pair[1];
      if ((a > 0) != (b > 0) || a == 0 || std::abs(a) + std::abs(b) <= kMaddubsMaxPairSum) continue;
      // Same sign, magnitudes over 128: a keeps what b leaves of 128, the
      // rest (at most 128 in magnitude) goes to the correction.
      const int kept = (a > 0 ? 1 : -1) * (static_cast<int>(kMaddubsMaxPairSum) - std::abs(b));
      pair[0] = static_cast<int8_t>(kept);
      c.w[16 * h + i / 2] = static_cast<int16_t>(a - kept);
      any[h] = true;
    }
  }
  if (any[0] && any[1]) {
    runs[internal::kBothHalves].push_back(c);
  } else if (any[0] || any[1]) {
    if (any[1]) std::copy(c.w + 16, c.w + 32, c.w);  // the second half's weights only
    runs[any[0] ? internal::kFirstHalf : internal::kSecondHalf].push_back(c);
  }
}

// AVX2 vpmaddubsw: repacks the tile's `count` steps (split, at
// t->w_offset, [icb][ky][kx][q]) as PairSteps pairs them, the pairs' 128
// bytes first, then the half pairs' (first half, then second), then the
// single steps', without the steps of zero weights; their step numbers (as
// packed before) go to step_ids_ in the same order.
void U8S8Dense::PairTileSteps(OcTile* t, int64_t count) {
  const int8_t* steps = packed_.data() + t->w_offset;
  const StepPairing sp = PairSteps(steps, count);
  std::vector<int8_t> repacked;
  repacked.reserve(static_cast<size_t>(count) * kStepBytes);
  t->step0 = static_cast<int64_t>(step_ids_.size());
  auto add = [&](int32_t s) {
    repacked.insert(repacked.end(), steps + s * kStepBytes, steps + (s + 1) * kStepBytes);
    step_ids_.push_back(s);
  };
  for (const auto* pairs : {&sp.pairs, &sp.half_pairs[0], &sp.half_pairs[1]}) {
    for (const auto& pair : *pairs) {
      add(pair[0]);
      add(pair[1]);
    }
  }
  for (int32_t s : sp.singles) add(s);
  t->paired = static_cast<int64_t>(sp.pairs.size());
  for (int h = 0; h < 2; ++h) t->half_paired[h] = static_cast<int64_t>(sp.half_pairs[h].size());
  t->single = static_cast<int64_t>(sp.singles.size());
  step_table_size_ = std::max(step_table_size_, count);
  paired_steps_ += 2 * t->paired;
  half_paired_steps_ += 2 * (t->half_paired[0] + t->half_paired[1]);
  all_steps_ += static_cast<int64_t>(repacked.size()) / kStepBytes;
  packed_.resize(t->w_offset);
  packed_.insert(packed_.end(), repacked.begin(), repacked.end());
}

// w: OIHW values, within s8 unless madd16 (CreateU8S8 checks).
void U8S8Dense::Pack(const int16_t* w) {
  if (row_steps_ == 0 && group_words_ == 0 && params_.groups == 1) {
    // Every tile reads every input block: the whole packing at once, not
    // grown tile by tile.
    packed_.reserve(static_cast<size_t>(ocb_ * icb_total_ * params_.kernel_h * params_.kernel_w *
                                            (in_block_ / 4) * (madd16_ ? 128 : 64) +
                                        tensor::Tensor::kPaddingBytes));
  }
  for (int64_t ocb0 = 0; ocb0 < ocb_; ocb0 += nco_) {
    OcTile t = NewTile(ocb0, static_cast<int64_t>(packed_.size()));
    if (row_steps_ > 0) {
      PackRowTaps(w, t);
    } else if (group_words_ > 0) {
      PackGrouped(w, t);
    } else {
      PackBlocks(w, t);
      if (isa_ == Isa::kI8mm && in_block_ == 16) ToMmlaPacking(t);
    }
    tiles_.push_back(t);
  }
}

// i8mm on NCHW16c input (usmmla): each (icb, ky, kx) of the tile's VNNI
// packing, [q][j][16 oc][4 ic], reordered in place into the mmla packing
// (microkernels.h: MmlaOffset).
void U8S8Dense::ToMmlaPacking(const OcTile& t) {
  const int64_t block = 256 * t.nco;
  std::vector<int8_t> vnni(block);
  for (int64_t at = t.w_offset; at < static_cast<int64_t>(packed_.size()); at += block) {
    std::memcpy(vnni.data(), packed_.data() + at, block);
    for (int q = 0; q < 4; ++q) {
      for (int j = 0; j < t.nco; ++j) {
        for (int l = 0; l < 16; ++l) {
          for (int i = 0; i < 4; ++i) {
            packed_[at + internal::MmlaOffset(j, l, 4 * q + i)] = vnni[(q * t.nco + j) * 64 + l * 4 + i];
          }
        }
      }
    }
  }
}

U8S8Dense::OcTile U8S8Dense::NewTile(int64_t ocb0, int64_t w_offset) const {
  const QuantizedConvParams& p = params_;
  const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
  const int64_t ib = in_block_;
  OcTile t;
  t.ocb0 = ocb0;
  t.nco = std::min<int64_t>(nco_, ocb_ - ocb0);
  const int64_t oc_lo = ocb0 * 16;
  const int64_t oc_hi = std::min<int64_t>(p.out_channels, (ocb0 + t.nco) * 16);
  const int64_t ic_lo = (oc_lo / og) * cg, ic_hi = ((oc_hi - 1) / og + 1) * cg;
  t.icb_lo = ic_lo / ib;
  t.order_group = order_.empty() ? 0 : oc_lo / oc_per_order_;
  t.icb_count = CeilDiv(ic_hi, ib) - t.icb_lo;
  t.q_last = static_cast<int>(CeilDiv(ic_hi - (t.icb_lo + t.icb_count - 1) * ib, 4));
  if (t.q_last == ib / 4) t.q_last = 0;
  t.w_offset = w_offset;
  return t;
}

int64_t U8S8Dense::TileWeightBytes(const OcTile& t) const {
  if (row_steps_ > 0) return IcbWeightBytes(t.nco);
  const int64_t j_bytes = madd16_ ? 128 : 64;
  const int64_t kk = params_.kernel_h * params_.kernel_w;
  if (group_words_ > 0) return kk * group_words_ * t.nco * j_bytes;
  return t.icb_count * IcbWeightBytes(t.nco);
}

// [ky][q < row_steps_][j][128 bytes]: value 4 q + m of a kernel row is tap
// kx = (4 q + m) / C of channel (4 q + m) % C (RunImpl's copy: the row's
// pixels of C channels side by side). The tile broadcasts a step's values
// (0, 1) as its even word and (2, 3) as its odd one: Madd16Offset's channels
// (0, 2) and (1, 3).
void U8S8Dense::PackRowTaps(const int16_t* w, const OcTile& t) {
  const QuantizedConvParams& p = params_;
  const int64_t cg = p.in_channels / p.groups, kk = p.kernel_h * p.kernel_w;
  const int64_t j_bytes = madd16_ ? 128 : 64;
  const int64_t oc_lo = t.ocb0 * 16;
  const int64_t channels = p.in_channels;
  packed_.resize(packed_.size() + TileWeightBytes(t), 0);
  int8_t* dst = packed_.data() + t.w_offset;
  for (int64_t ky = 0; ky < p.kernel_h; ++ky) {
    for (int64_t q = 0; q < row_steps_; ++q) {
      for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
        for (int64_t l = 0; l < 16; ++l) {
          const int64_t oc = oc_lo + j * 16 + l;
          for (int m = 0; m < 4 && oc < p.out_channels; ++m) {
            const int64_t kx = (4 * q + m) / channels, c = (4 * q + m) % channels;
            if (kx >= p.kernel_w) continue;
            const int16_t v = w[(oc * cg + c) * kk + ky * p.kernel_w + kx];
            std::memcpy(dst + 2 * internal::Madd16Offset(static_cast<int>(l), (m % 2) * 2 + m / 2), &v, 2);
          }
        }
      }
    }
  }
}

// [k][d][j][16 oc][4 ic]: lane l's 4 channels 4d..4d+3 of its group.
void U8S8Dense::PackGrouped(const int16_t* w, const OcTile& t) {
  const QuantizedConvParams& p = params_;
  const int64_t cg = p.in_channels / p.groups, kk = p.kernel_h * p.kernel_w;
  const int64_t j_bytes = madd16_ ? 128 : 64;
  const int64_t oc_lo = t.ocb0 * 16;
  packed_.resize(packed_.size() + TileWeightBytes(t), 0);
  int8_t* dst = packed_.data() + t.w_offset;
  for (int64_t k = 0; k < kk; ++k) {
    for (int64_t d = 0; d < group_words_; ++d) {
      for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
        for (int64_t l = 0; l < 16; ++l) {
          const int64_t oc = oc_lo + j * 16 + l;
          for (int64_t i = 0; i < 4 && oc < p.out_channels; ++i) {
            const int16_t v = w[(oc * cg + 4 * d + i) * kk + k];
            if (madd16_) {
              std::memcpy(dst + 2 * internal::Madd16Offset(static_cast<int>(l), static_cast<int>(i)), &v, 2);
            } else {
              dst[l * 4 + i] = static_cast<int8_t>(v);
            }
          }
        }
      }
    }
  }
}

// [icb][ky][kx][q][j][16 oc][4 ic] in the pairing order (order_, flips
// negated); on AVX2 vpmaddubsw each step's pairs that could saturate split
// off (SplitStep) and the tile's steps paired (PairTileSteps).
void U8S8Dense::PackBlocks(const int16_t* w, OcTile& t) {
  const QuantizedConvParams& p = params_;
  const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
  const int64_t kk = p.kernel_h * p.kernel_w;
  const int64_t ib = in_block_;
  const int64_t j_bytes = madd16_ ? 128 : 64;
  const int64_t oc_lo = t.ocb0 * 16;
  const int64_t q4 = ib / 4;
  packed_.resize(packed_.size() + TileWeightBytes(t), 0);
  int8_t* dst = packed_.data() + t.w_offset;
  std::vector<Correction> runs[3];  // the tile's corrections (SplitStep)
  // Dense s8 weights in the natural order: the same bytes as the general
  // loop below, without its per-channel group and order lookups.
  const bool plain = !madd16_ && order_.empty() && flip_mask_.empty() && p.groups == 1;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    for (int64_t k = 0; k < kk; ++k) {
      for (int64_t q = 0; q < q4; ++q) {
        int8_t* step = dst;
        if (plain) {
          const int64_t ic0 = (t.icb_lo + icb) * ib + q * 4;
          const int64_t n_ic = std::clamp<int64_t>(cg - ic0, 0, 4);
          for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
            for (int64_t l = 0; l < 16; ++l) {
              const int64_t oc = oc_lo + j * 16 + l;
              if (oc >= p.out_channels) break;
              const int16_t* src = w + (oc * cg + ic0) * kk + k;
              int8_t* d = dst + (lane_order_ ? internal::Madd16Lane(static_cast<int>(l)) : l) * 4;
              for (int64_t i = 0; i < n_ic; ++i) d[i] = static_cast<int8_t>(src[i * kk]);
            }
          }
          if (correct_) SplitStep(step, static_cast<int32_t>((icb * kk + k) * q4 + q), runs);
          continue;
        }
        for (int64_t j = 0; j < t.nco; ++j, dst += j_bytes) {
          for (int64_t l = 0; l < 16; ++l) {
            const int64_t oc = oc_lo + j * 16 + l;
            if (oc >= p.out_channels) continue;
            const int64_t g = oc / og;
            for (int64_t i = 0; i < 4; ++i) {
              const int64_t block = (t.icb_lo + icb) * ib;
              const int64_t slot = t.order_group * icb_total_ * 16 + block + q * 4 + i;
              const int64_t ic = block + (order_.empty() ? q * 4 + i : order_[slot]);
              if (ic < g * cg || ic >= (g + 1) * cg) continue;
              int16_t v = w[(oc * cg + (ic - g * cg)) * kk + k];
              if (!flip_mask_.empty() && flip_mask_[slot]) v = static_cast<int16_t>(-v);  // PlanPairing: never -128
              if (madd16_) {
                std::memcpy(dst + 2 * internal::Madd16Offset(static_cast<int>(l), static_cast<int>(i)),
                            &v, 2);
              } else {
                dst[(lane_order_ ? internal::Madd16Lane(static_cast<int>(l)) : l) * 4 + i] =
                    static_cast<int8_t>(v);
              }
            }
          }
        }
        if (correct_) SplitStep(step, static_cast<int32_t>((icb * kk + k) * q4 + q), runs);  // AVX2: nco = 1
      }
    }
  }
  if (correct_) PairTileSteps(&t, t.icb_count * kk * q4);
  t.correction0 = static_cast<int64_t>(correction_steps_.size());
  t.correction_w0 = static_cast<int64_t>(correction_w_.size());
  for (int r = 0; r < 3; ++r) {
    t.correction_count[r] = static_cast<int64_t>(runs[r].size());
    for (const Correction& c : runs[r]) {
      correction_steps_.push_back(c.step);
      correction_w_.insert(correction_w_.end(), c.w, c.w + (r == internal::kBothHalves ? 32 : 16));
    }
  }
}

}  // namespace qnnc::kernels::spatial_pack
