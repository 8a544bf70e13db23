// The u8 x s8 dense (and grouped) convolution: packed weights, tiles of
// output channels x pixels on the AVX-512 VNNI, AVX-VNNI, AVX2 and scalar
// microkernels.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "kernels/spatial_pack/driver.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "kernels/spatial_pack/step_pairs.h"
#include "util/aligned_allocator.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using internal::DenseGeom;
using internal::DenseTile;
using internal::DenseTileFn;

// u8i16.avx2 tiles whose packed weights exceed kChunkTileWeightBytes run in
// input-channel chunks of at most kChunkWeightBytes of weights (Make): a
// chunk stays in a 48 KB L1 beside a 7x7 plane's input rows (in pixel-major
// layers of about 128 pixels its partial sums alone take 8-16 KB).
constexpr int64_t kChunkTileWeightBytes = 32 << 10;
constexpr int64_t kChunkWeightBytes = 20 << 10;

// Pointwise layers whose input is copied (widened or reordered) run their
// planes as one row up to this many pixels (RunImpl): 14x14.
constexpr int64_t kFlatCopiedPixels = 196;

class U8S8Dense final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& p,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith, bool describe_only) {
    if (isa != Isa::kScalar && isa != Isa::kAvx2 && isa != Isa::kAvxvnni && isa != Isa::kAvx512vnni) {
      return absl::InternalError(absl::StrCat("no u8s8 dense kernel for ", IsaName(isa)));
    }
    std::unique_ptr<U8S8Dense> k(new U8S8Dense());
    k->params_ = p;
    k->isa_ = isa;
    k->madd16_ = arith == Arithmetic::kMadd16;
    k->in_block_ = U8S8InputBlock(p);
    k->out_block_ = kU8S8OutputBlock;
    const IoLayouts layouts = LayoutsU8S8(p);
    k->input_layout_ = layouts.input;
    k->output_layout_ = layouts.output;
    k->nco_ = tile_co / 16;
    k->tile_ow_ = tile_ow;
    k->ocb_ = CeilDiv(p.out_channels, 16);
    k->icb_total_ = CeilDiv(p.in_channels, k->in_block_);
    k->ep_ = MakeEpilogue(p);
    k->bias_ = PaddedBias(p, k->ocb_ * 16);
    k->mult_ = PaddedMultipliers(p, k->ocb_ * 16);
    // The madd16 and AVX-VNNI tiles hold a group's channels in Madd16Lane
    // order (their epilogue's), so do their weights, bias and multipliers.
    k->lane_order_ = k->madd16_ || isa == Isa::kAvxvnni;
    if (k->lane_order_) {
      std::vector<int32_t> bias(k->bias_.size());
      std::vector<float> mult(k->mult_.size());
      for (size_t oc = 0; oc < bias.size(); ++oc) {
        const size_t to = oc / 16 * 16 + static_cast<size_t>(internal::Madd16Lane(static_cast<int>(oc % 16)));
        bias[to] = k->bias_[oc];
        mult[to] = k->mult_[oc];
      }
      k->bias_ = std::move(bias);
      k->mult_ = std::move(mult);
    }
    // Grouped convolutions with 4 or 8 channels per group in and out, on
    // whole blocks, get the tiles that read only each lane's own group
    // (microkernels.h: GetGroupedTile*): VNNI u8 x s8 and AVX2 madd16.
    const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
    const bool grouped_tiles = p.groups > 1 && cg == og && (cg == 4 || cg == 8) && k->in_block_ == 16 &&
                               p.in_channels % 16 == 0 && p.out_channels % 16 == 0 &&
                               ((isa == Isa::kAvx512vnni && !k->madd16_) || (isa == Isa::kAvx2 && k->madd16_));
    k->group_words_ = grouped_tiles ? cg / 4 : 0;
    k->row_steps_ = RowTapSteps(p, isa, arith);
    if (k->row_steps_ > 0 && internal::GetPackRowAvx2() == nullptr && !describe_only) {
      return absl::InternalError("missing the AVX2 row packing");
    }
    PairingPlan plan;
    if (isa == Isa::kAvx2 && !k->madd16_) {
      // vpmaddubsw pairs slots (2m, 2m + 1) of each 16-channel block: the
      // weights' pairing order. Any other than the natural one is read
      // through a reordered copy; the pairs that still do not fit are
      // corrected (Pack).
      const tensor::Shape shape = {p.out_channels, cg, p.kernel_h, p.kernel_w};
      plan = PlanPairing(weight.data(), shape, p.groups, PairingOrderGroups(shape, p.groups, p.in_height, p.in_width));
      k->correct_ = true;
      if (plan.Copies()) {
        k->order_ = plan.order;
        k->order_groups_ = plan.order_groups;
        k->oc_per_order_ = plan.oc_per_order;
        k->shuffle_ = internal::GetShufflePixelsAvx2();
        if ((k->shuffle_ == nullptr && !describe_only) || k->in_block_ != 16) {
          return absl::InternalError("cannot reorder channels");
        }
        if (plan.HasFlips()) {
          // Flipped channels are read as 255 - x (their copy's bytes XORed
          // with 0xff) with their weights negated (Pack): w x = 255 w +
          // (-w)(255 - x), so each output channel's bias takes 255 times its
          // flipped weights.
          k->flip_mask_.resize(plan.flip.size());
          for (size_t i = 0; i < plan.flip.size(); ++i) k->flip_mask_[i] = plan.flip[i] ? 0xff : 0;
          const int64_t kk = p.kernel_h * p.kernel_w;
          plan.ForEachFlipped(p.out_channels, cg, [&](int64_t oc, int64_t ic) {
            for (int64_t t = 0; t < kk; ++t) k->bias_[oc] += 255 * weight[(oc * cg + ic) * kk + t];
            return true;
          });
        }
      }
    }
    k->Pack(weight.data());
    // u8i16.avx2: a tile whose int16 weights outgrow L1 runs in chunks of
    // its input-channel blocks, each chunk over all the tile's pixels of a
    // work item before the next (Work): its weights are read from L2 once
    // per chunk and item, not once per register tile.
    if (isa == Isa::kAvx2 && k->madd16_ && k->group_words_ == 0 && !k->tiles_.empty()) {
      const int64_t icb_bytes = k->IcbWeightBytes(k->nco_);
      const int64_t icbs = k->tiles_[0].icb_count;
      if (icb_bytes * icbs > kChunkTileWeightBytes) {
        const int64_t chunks = CeilDiv(icbs, std::max<int64_t>(1, kChunkWeightBytes / icb_bytes));
        k->k_chunk_icbs_ = CeilDiv(icbs, chunks);  // equal chunks
      }
    }
    k->strips_ = isa == Isa::kAvx2 && k->group_words_ == 0;
    k->description_ = Description(tile_co, tile_ow, isa, arith, k->correct_ ? &plan : nullptr, k->row_steps_);
    if (k->correct_) {
      absl::StrAppend(&k->description_, " paired=", k->paired_steps_, "/", k->all_steps_);
      if (k->half_paired_steps_ > 0) absl::StrAppend(&k->description_, " half_paired=", k->half_paired_steps_);
    }
    if (describe_only) return std::unique_ptr<Conv2DKernel>(std::move(k));
    // Register-tile functions for every (nco, npix) the run can need.
    const int max_pix = static_cast<int>(tile_ow);
    k->fns_.assign((k->nco_ + 1) * (max_pix + 1), nullptr);
    for (int nco = 1; nco <= k->nco_; ++nco) {
      for (int np = 1; np <= max_pix; ++np) {
        DenseTileFn fn = &internal::DenseTileScalar;
        if (isa == Isa::kAvx512vnni) {
          fn = k->madd16_ ? internal::GetDenseTileMadd16Avx512Vnni(nco, np, k->in_block_)
                          : internal::GetDenseTileAvx512Vnni(nco, np, k->in_block_, p.strides[1]);
        }
        if (isa == Isa::kAvx2) {
          fn = k->madd16_ ? internal::GetDenseTileMadd16Avx2(nco, np, k->in_block_)
                          : internal::GetDenseTileAvx2(nco, np, k->in_block_);
        }
        if (isa == Isa::kAvxvnni) fn = internal::GetDenseTileAvxVnni(nco, np, k->in_block_);
        if (k->group_words_ > 0) {
          const int words = static_cast<int>(k->group_words_);
          fn = isa == Isa::kAvx2 ? internal::GetGroupedTileMadd16Avx2(nco, np, words)
                                 : internal::GetGroupedTileAvx512Vnni(nco, np, words);
        }
        if (fn == nullptr) return absl::InternalError("missing microkernel");
        k->fns_[nco * (max_pix + 1) + np] = fn;
      }
    }
    return std::unique_ptr<Conv2DKernel>(std::move(k));
  }

  static std::string Description(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith,
                                 const PairingPlan* plan, int64_t row_steps) {
    if (arith == Arithmetic::kMadd16) {
      return absl::StrCat("u8i16.", IsaName(isa), ".dense tile_co=", tile_co, " tile_ow=", tile_ow,
                          row_steps > 0 ? " taps=row" : "");
    }
    std::string d = absl::StrCat("u8s8.", IsaName(isa), ".dense tile_co=", tile_co, " tile_ow=", tile_ow);
    if (plan && !IsNaturalOrder(plan->order)) {
      absl::StrAppend(&d, " pairs=reordered");
      if (plan->order_groups > 1) absl::StrAppend(&d, " orders=", plan->order_groups);
    }
    if (plan && plan->HasFlips()) {
      // Channel slots read complemented, over all orders.
      absl::StrAppend(&d, " flipped=", std::count(plan->flip.begin(), plan->flip.end(), 1));
    }
    if (plan && plan->corrected_halves > 0) {
      // Half steps (8 output channels) corrected, of all.
      absl::StrAppend(&d, " corrected=", plan->corrected_halves, "/", 2 * plan->units);
    }
    return d;
  }

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override;

 private:
  // A step's corrections while packing: its place and both halves' weights.
  struct Correction {
    int32_t step;  // its number (step_ids_)
    int16_t w[32];  // [2 halves][8 oc][2 pairs]
  };

  struct OcTile {
    int64_t ocb0, nco, icb_lo, icb_count, w_offset;
    int q_last;  // DenseTile::q_last
    int64_t order_group = 0;  // the channel order its input is read in (order_)
    // Its corrections: correction_steps_ from correction0 and correction_w_
    // from correction_w0, per internal::CorrectionRun.
    int64_t correction0 = 0, correction_w0 = 0, correction_count[3] = {0, 0, 0};
    // AVX2 vpmaddubsw: its steps, step_ids_ from step0 (PairTileSteps).
    int64_t step0 = 0, paired = 0, half_paired[2] = {0, 0}, single = 0;
  };

  // AVX2 vpmaddubsw: splits the pairs of step `number` (packed at `step`,
  // nco = 1: [16 oc][4 ic]) that could saturate into the part that fits, left
  // in `step`, and the rest, a correction of each half (8 oc) that has any,
  // added to the run (internal::CorrectionRun) of `runs` that fits.
  void SplitStep(int8_t* step, int32_t number, std::vector<Correction> (&runs)[3]) const {
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
  void PairTileSteps(OcTile* t, int64_t count) {
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

  // Packed weight bytes of one input-channel block of a tile of `nco`
  // groups (the dense packing: [icb][ky][kx][q][j]; the stem's taps along
  // the row: [ky][q < row_steps_][j], one block).
  int64_t IcbWeightBytes(int64_t nco) const {
    const int64_t steps = row_steps_ > 0 ? params_.kernel_h * row_steps_
                                         : params_.kernel_h * params_.kernel_w * (in_block_ / 4);
    return steps * nco * (madd16_ ? 128 : 64);
  }

  // w: OIHW values, within s8 unless madd16 (CreateU8S8 checks).
  void Pack(const int16_t* w) {
    const QuantizedConvParams& p = params_;
    const int64_t cg = p.in_channels / p.groups, og = p.out_channels / p.groups;
    const int64_t kk = p.kernel_h * p.kernel_w;
    const int64_t ib = in_block_;
    const int64_t j_bytes = madd16_ ? 128 : 64;
    for (int64_t ocb0 = 0; ocb0 < ocb_; ocb0 += nco_) {
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
      t.w_offset = static_cast<int64_t>(packed_.size());
      if (row_steps_ > 0) {
        // [ky][q < row_steps_][j][128 bytes]: value 4 q + m of a kernel row
        // is tap kx = (4 q + m) / C of channel (4 q + m) % C (RunImpl's
        // copy: the row's pixels of C channels side by side). The tile
        // broadcasts a step's values (0, 1) as its even word and (2, 3) as
        // its odd one: Madd16Offset's channels (0, 2) and (1, 3).
        const int64_t channels = p.in_channels;
        packed_.resize(packed_.size() + IcbWeightBytes(t.nco), 0);
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
        tiles_.push_back(t);
        continue;
      }
      if (group_words_ > 0) {
        // [k][d][j][16 oc][4 ic]: lane l's 4 channels 4d..4d+3 of its group.
        packed_.resize(packed_.size() + kk * group_words_ * t.nco * j_bytes, 0);
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
        tiles_.push_back(t);
        continue;
      }
      const int64_t q4 = ib / 4;
      packed_.resize(packed_.size() + t.icb_count * kk * q4 * t.nco * j_bytes, 0);
      int8_t* dst = packed_.data() + t.w_offset;
      std::vector<Correction> runs[3];  // the tile's corrections (SplitStep)
      for (int64_t icb = 0; icb < t.icb_count; ++icb) {
        for (int64_t k = 0; k < kk; ++k) {
          for (int64_t q = 0; q < q4; ++q) {
            int8_t* step = dst;
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
      tiles_.push_back(t);
    }
  }

  struct RunCtx {
    const U8S8Dense* k;
    DenseGeom geom;
    const uint8_t* in;   // image 0 at (icb 0, row 0, col 0) of the (padded) input
    int64_t in_image;    // bytes per image
    int64_t in_row;      // bytes per input row
    uint8_t* out;
    int64_t out_image, out_row, out_pix;  // bytes
    int64_t oh, ow, sh;
    int64_t chunk_pix, chunks_per_row, tiles_per_chunk;
    int64_t rows_per_item = 1;  // output rows of a work item (of whole rows when > 1)
    int64_t n;
    bool banded;  // padded input: per-thread bands (`band`), else `in`
    BandPad band;
    const TileEpilogue* tile_epilogue = nullptr;  // tiles go there, not to `out`
    const int64_t* step_offsets = nullptr;  // per step number (step_ids_, RunImpl)
  };

  static void WorkSpatialMajor(void* vctx, size_t item, size_t oc_chunk) {
    Work(vctx, oc_chunk, item);
  }
  static void Work(void* vctx, size_t oc_chunk, size_t item) {
    const RunCtx& c = *static_cast<const RunCtx*>(vctx);
    const U8S8Dense& k = *c.k;
    const int64_t row_groups = CeilDiv(c.oh, c.rows_per_item);
    const int64_t n = item / (row_groups * c.chunks_per_row);
    const int64_t rem = item % (row_groups * c.chunks_per_row);
    const int64_t oy0 = rem / c.chunks_per_row * c.rows_per_item;
    const int64_t oy1 = std::min(c.oh, oy0 + c.rows_per_item);
    const int64_t ox0 = (rem % c.chunks_per_row) * c.chunk_pix;
    const int64_t ox1 = std::min(c.ow, ox0 + c.chunk_pix);
    const int64_t t0 = oc_chunk * c.tiles_per_chunk;
    const int64_t t1 = std::min<int64_t>(t0 + c.tiles_per_chunk, k.tiles_.size());
    const int stride = static_cast<int>(k.tile_ow_) + 1;
    // The input of a tile (in its order group's channel order when banded).
    auto input_of = [&](const OcTile& t, int64_t* row0) {
      *row0 = 0;
      if (!c.banded) return c.in + n * c.in_image;
      // Every row of the item is in this band (rows_per_item > 1 only with
      // one band holding every image: RunImpl).
      const uint8_t* band = c.band.Get(n, oy0, row0, t.order_group);
      return c.band.all_images ? band + n * c.in_image : band;
    };
    // With a tile epilogue the microkernel writes this thread's chunk buffer
    // ([nco][chunk_pix][16] int32), handed over block by block once the
    // chunk's row is done: one call per block and chunk (about 128 pixels),
    // not per microtile, so the epilogue's set-up is paid rarely.
    DenseGeom tile_geom;
    int32_t* tile_buf = nullptr;
    if (c.tile_epilogue) {
      tile_geom = c.geom;
      tile_geom.out_cstride = c.chunk_pix * internal::kRawPixelBytes;
      tile_buf = reinterpret_cast<int32_t*>(Scratch(2, k.nco_ * tile_geom.out_cstride));
    }
    const DenseGeom& geom = c.tile_epilogue ? tile_geom : c.geom;
    const int64_t item_pix = (oy1 - oy0) * (ox1 - ox0);
    // As few tiles as tile_ow allows, of sizes that differ by at most one
    // pixel (a 7x7 plane at tile_ow 6: 4 x 6 + 5 x 5, not 8 x 6 + 1: a
    // one-pixel tile reads a whole tile's weights); where the kernel takes
    // strips, each size in one call. The same for every row of the item.
    const int64_t tiles = CeilDiv(ox1 - ox0, k.tile_ow_);
    const int64_t big = CeilDiv(ox1 - ox0, tiles);
    const int64_t bigs = (ox1 - ox0) - tiles * (big - 1);  // tiles of `big` pixels, the rest one less
    // Set field by field below, for every tile (zeroing it per tile showed
    // in MobileNetV2's profile at two threads).
    DenseTile call;
    for (int64_t ti = t0; ti < t1; ++ti) {
      const OcTile& t = k.tiles_[ti];
      int64_t row0 = 0;
      const uint8_t* in_image = input_of(t, &row0);
      call.bias = k.bias_.data() + t.ocb0 * 16;
      call.mult = k.mult_.data() + t.ocb0 * 16;
      call.nco = static_cast<int>(t.nco);
      // Input-channel chunks (k_chunk_icbs_): every pixel of the item
      // takes a chunk before the next, partial sums in between.
      const int64_t chunk = k.k_chunk_icbs_ > 0 && !c.tile_epilogue ? k.k_chunk_icbs_ : t.icb_count;
      int32_t* partial = nullptr;
      if (chunk < t.icb_count) {
        partial = reinterpret_cast<int32_t*>(Scratch(4, item_pix * t.nco * internal::kRawPixelBytes));
      }
      for (int64_t i0 = 0; i0 < t.icb_count; i0 += chunk) {
        const int64_t count = std::min(chunk, t.icb_count - i0);
        const bool first = i0 == 0, last = i0 + count == t.icb_count;
        call.w = k.packed_.data() + t.w_offset + i0 * k.IcbWeightBytes(t.nco);
        call.icb_count = count;
        call.q_last = last ? t.q_last : 0;
        // u8s8.avx2 (the only kernel with corrections) runs no chunks, so
        // `in` is at the tile's first block, where the offsets start.
        call.correction_steps = k.correction_steps_.data() + t.correction0;
        call.correction_w = k.correction_w_.data() + t.correction_w0;
        call.step_offsets = c.step_offsets;
        call.steps = k.step_ids_.data() + t.step0;
        call.paired = t.paired;
        call.half_paired[0] = t.half_paired[0];
        call.half_paired[1] = t.half_paired[1];
        call.single = t.single;
        for (int r = 0; r < 3; ++r) call.correction_count[r] = last ? t.correction_count[r] : 0;
        for (int64_t oy = oy0; oy < oy1; ++oy) {
          const uint8_t* in_row =
              in_image + (t.icb_lo + i0) * c.geom.in_cstride + (oy * c.sh - row0) * c.in_row;
          uint8_t* out_row =
              c.out ? c.out + n * c.out_image + t.ocb0 * c.geom.out_cstride + oy * c.out_row : nullptr;
          for (int64_t ox = ox0, pt = 0; ox < ox1; ox += call.npix * call.strips, pt += call.strips) {
            call.npix = static_cast<int>(pt < bigs ? big : big - 1);
            call.strips = !k.strips_ ? 1 : static_cast<int>(pt < bigs ? bigs - pt : tiles - pt);
            call.in = in_row + ox * c.geom.pix_bytes;
            call.out = tile_buf ? reinterpret_cast<uint8_t*>(tile_buf + (ox - ox0) * 16)
                                : out_row + ox * c.out_pix;
            int32_t* acc = partial ? partial + ((oy - oy0) * (ox1 - ox0) + (ox - ox0)) * t.nco * 16 : nullptr;
            call.acc_in = first ? nullptr : acc;
            call.acc_out = last ? nullptr : acc;
            k.fns_[call.nco * stride + call.npix](geom, call);
          }
          if (tile_buf) {
            for (int j = 0; j < call.nco; ++j) {
              c.tile_epilogue->fn(c.tile_epilogue->ctx, n, t.ocb0 + j, oy * c.ow + ox0, ox1 - ox0,
                                  tile_buf + j * c.chunk_pix * 16);
            }
          }
        }
      }
    }
  }

  Isa isa_ = Isa::kScalar;
  bool lane_order_ = false;  // output channels in Madd16Lane order (madd16, AVX-VNNI)
  int64_t nco_ = 1, tile_ow_ = 1, ocb_ = 0, icb_total_ = 0;
  bool madd16_ = false;  // int16 weights for GetDenseTileMadd16Avx2
  // A PairingOrder other than the natural one (AVX2 vpmaddubsw): the weights
  // are packed in it and the input is read through a reordered copy.
  // One order per oc_per_order_ output channels (PairingPlan), in turn.
  PairingOrder order_;
  int64_t order_groups_ = 1, oc_per_order_ = 0;
  // Per slot of order_: 0xff where the channel is read complemented (its
  // weights negated), else empty.
  std::vector<uint8_t> flip_mask_;
  internal::ShuffleFn shuffle_ = nullptr;
  // AVX2 vpmaddubsw: the pairs that could saturate are split (SplitStep).
  bool correct_ = false;
  // Each correction's step (its number, as step_ids_) and weights
  // (DenseTile::correction_w), all tiles' in turn.
  std::vector<int32_t> correction_steps_;
  AlignedVector<int16_t> correction_w_;
  // AVX2 vpmaddubsw: every tile's steps (PairTileSteps), each numbered
  // (icb * kh * kw + ky * kw + kx) * Q + q from the tile's first block, the
  // size of the per-run table of their input offsets, and the steps paired
  // and half paired of all the tiles run (the description's `paired=`,
  // `half_paired=`).
  std::vector<int32_t> step_ids_;
  int64_t step_table_size_ = 0, paired_steps_ = 0, half_paired_steps_ = 0, all_steps_ = 0;
  int64_t group_words_ = 0;  // > 0: the grouped tiles (4-channel words per group), see Make
  int64_t row_steps_ = 0;  // > 0: the stem's taps along the row, this many steps per kernel row (RowTapSteps)
  int64_t k_chunk_icbs_ = 0;  // > 0: input-channel blocks per chunk of a tile (Make, Work)
  bool strips_ = false;  // the tile functions take DenseTile::strips (AVX2 dense, not grouped)
  Epilogue ep_;
  std::vector<int32_t> bias_;
  std::vector<float> mult_;
  AlignedVector<int8_t> packed_;  // 64-byte aligned: the AVX2 tiles read weights as memory operands
  std::vector<OcTile> tiles_;
  std::vector<DenseTileFn> fns_;
};

absl::Status U8S8Dense::RunImpl(const Tensor& input, int32_t zx, Tensor* output,
                               pthreadpool_t pool, const TileEpilogue* tile_epilogue) const {
  const QuantizedConvParams& p = params_;
  ASSIGN_OR_RETURN(OutGeom g, Geometry(p, input.shape(), in_block_, DType::kU8, input.dtype()));
  if (tile_epilogue == nullptr) RETURN_IF_ERROR(PrepareOutput(output, p.out_dtype, {g.n, ocb_, g.oh, g.ow, 16}));
  const int64_t ib = in_block_;
  const bool padded = p.pads[0] || p.pads[1] || p.pads[2] || p.pads[3];
  // The u8i16 kernel reads a widened copy, made by the same banded padding
  // (with no border when the layer has no padding), twice the bytes (the
  // stem's taps along the row: a packed one, below).
  const bool widen = madd16_;
  const bool shuffled = !order_.empty();
  const int64_t e = widen ? 2 : 1;
  // A 1x1 stride-1 convolution without padding sees its planes as one row
  // (from here on, g is that row): a 14x14 plane is 33 tiles of 5-6 pixels,
  // where 14-pixel rows made 3 tiles of 4-5. A copied input (widened or
  // reordered) then is one band, which each thread copies whole, so only
  // small planes go flat there (MobileNetV2's 14x14 and 7x7 expansions).
  const bool flat = !padded && p.kernel_h == 1 && p.kernel_w == 1 && p.strides[0] == 1 && p.strides[1] == 1 &&
                    (!(widen || shuffled) || g.oh * g.ow <= kFlatCopiedPixels);
  if (flat) g = OutGeom{g.n, 1, g.h * g.w, 1, g.oh * g.ow};
  // Taps along the row (row_steps_): the copy holds the real channels of
  // each pixel as int16 (2 C bytes), and the tile sees a kernel row as
  // row_steps_ adjacent taps of 8 bytes each (Q = 1). Its last step reads up
  // to 3 values past the row's last tap: the rows get enough more pixels of
  // border on the right to hold them (1 for RGB).
  const int64_t row_slack =
      row_steps_ > 0 ? CeilDiv(4 * row_steps_ - p.kernel_w * p.in_channels, p.in_channels) : 0;
  const int64_t hp = g.h + p.pads[0] + p.pads[2], wp = g.w + p.pads[1] + p.pads[3] + row_slack;
  const int64_t pixel_bytes = row_steps_ > 0 ? 2 * p.in_channels : ib * e;  // in the (copied) input
  RunCtx c;
  c.k = this;
  c.geom.icblk = ib;
  c.geom.kh = p.kernel_h;
  c.geom.kw = row_steps_ > 0 ? row_steps_ : p.kernel_w;
  c.geom.in_cstride = hp * wp * ib;  // banded: the band's plane (below)
  c.geom.dil_h_bytes = p.dilation[0] * wp * pixel_bytes;
  c.geom.dil_w_bytes = row_steps_ > 0 ? 8 : p.dilation[1] * pixel_bytes;
  c.geom.pix_bytes = p.strides[1] * pixel_bytes;
  c.out_pix = internal::OutPixelBytes(ep_);
  c.geom.out_cstride = g.oh * g.ow * c.out_pix;
  c.geom.ep = ep_;
  c.in = input.data<uint8_t>();
  c.in_image = icb_total_ * hp * wp * ib;
  c.in_row = wp * pixel_bytes;
  c.out = tile_epilogue ? nullptr : output->data<uint8_t>();
  c.tile_epilogue = tile_epilogue;
  c.out_image = ocb_ * g.oh * g.ow * c.out_pix;
  c.out_row = g.ow * c.out_pix;
  c.oh = g.oh;
  c.ow = g.ow;
  c.sh = p.strides[0];
  c.n = g.n;
  // Spatial chunks of about 128 pixels (whole tiles); output-channel chunks
  // whose packed weights stay within about 128 KB (L2).
  const int64_t tiles_in_row = CeilDiv(c.ow, tile_ow_);
  int64_t chunk_tiles = std::min(tiles_in_row, std::max<int64_t>(1, 128 / tile_ow_));
  const int64_t ntiles = static_cast<int64_t>(tiles_.size());
  const int64_t tile_bytes =
      std::max<int64_t>(1, static_cast<int64_t>(packed_.size()) / ntiles);
  int64_t oc_chunks = CeilDiv(ntiles, std::clamp<int64_t>((128 << 10) / tile_bytes, 1, ntiles));
  // With threads, at least 4 work items per thread where the layer allows
  // it (late, small layers have only one or two chunks): split pixels
  // first, then output channels.
  const int64_t threads = pool ? static_cast<int64_t>(pthreadpool_get_threads_count(pool)) : 1;
  auto items = [&] { return oc_chunks * g.n * c.oh * CeilDiv(tiles_in_row, chunk_tiles); };
  while (threads > 1 && items() < 4 * threads && (chunk_tiles > 1 || oc_chunks < ntiles)) {
    if (chunk_tiles > 1) {
      chunk_tiles = CeilDiv(chunk_tiles, 2);
    } else {
      oc_chunks = std::min(ntiles, oc_chunks * 2);
    }
  }
  // Equal chunks: spread the tiles evenly over the chunk count.
  c.tiles_per_chunk = CeilDiv(ntiles, oc_chunks);
  oc_chunks = CeilDiv(ntiles, c.tiles_per_chunk);
  chunk_tiles = CeilDiv(tiles_in_row, CeilDiv(tiles_in_row, chunk_tiles));
  c.chunk_pix = chunk_tiles * tile_ow_;
  c.chunks_per_row = CeilDiv(c.ow, c.chunk_pix);
  const bool spatial_major = static_cast<int64_t>(packed_.size()) <= kSpatialMajorWeightBytes;
  // Input-channel chunks with one band holding every image (weight-major layers, the
  // late small planes): a work item takes whole rows, up to about 64
  // pixels, so a chunk's weights serve them all (ResNet's 7x7 planes: the
  // whole plane).
  if (k_chunk_icbs_ > 0 && !spatial_major && tile_epilogue == nullptr && c.chunks_per_row == 1) {
    c.rows_per_item = std::clamp<int64_t>(64 / c.ow, 1, c.oh);
    c.rows_per_item = CeilDiv(c.oh, CeilDiv(c.oh, c.rows_per_item));  // no more groups than needed
    // With threads, at least 4 items per thread where there are rows.
    while (threads > 1 && c.rows_per_item > 1 &&
           oc_chunks * g.n * CeilDiv(c.oh, c.rows_per_item) < 4 * threads) {
      c.rows_per_item = CeilDiv(c.rows_per_item, 2);
    }
  }
  const size_t spatial_items =
      static_cast<size_t>(g.n * CeilDiv(c.oh, c.rows_per_item) * c.chunks_per_row);
  c.banded = padded || widen || shuffled;
  if (c.banded) {
    BandPad& b = c.band;
    b.src = input.data<uint8_t>();
    b.rows = {g.h, g.w, wp, p.pads[0], p.pads[1], ib, static_cast<uint8_t>(zx)};
    if (row_steps_ > 0) {
      b.rows.pack_row = internal::GetPackRowAvx2();
      b.rows.keep = static_cast<int>(p.in_channels);
    } else if (widen) {
      b.rows.widen = internal::GetWidenPairsAvx2();
      if (b.rows.widen == nullptr) return absl::InternalError("missing the AVX2 widening");
    }
    if (shuffled) {
      b.rows.shuffle = shuffle_;
      b.orders = order_.data();
      b.flips = flip_mask_.empty() ? nullptr : flip_mask_.data();
      b.order_groups = order_groups_;
    }
    b.hp = hp;
    b.planes = icb_total_;
    b.row_step = p.strides[0];
    b.n = g.n;
    // Threads splitting pixels take bands of rows (two per thread, so a
    // thread that steals an item pads a small band), one thread too;
    // otherwise each thread pads the whole input once. (One thread padding
    // the whole widened input of MobileNetV2's 16 -> 96 1x1 at 112x112 ran
    // it 10x slower, 3.99 ms against 0.40 ms in two bands, cap avx2; the
    // lone layer was fast either way.)
    b.all_images = !spatial_major;
    b.oh = g.oh;
    b.bands_per_image = b.all_images ? 1 : std::min(g.oh, 2 * threads);
    b.band_rows = CeilDiv(g.oh, b.bands_per_image);
    b.band_in_rows = std::min(hp, (b.band_rows - 1) * p.strides[0] +
                                      (p.kernel_h - 1) * p.dilation[0] + 1);
    b.run = NextRunId();
    RETURN_IF_ERROR(CheckPaddedBytes((b.order_groups + b.SharedCopy()) * (b.all_images ? g.n : 1) * b.ImageBytes()));
    c.geom.in_cstride = b.PlaneBytes();
    c.in_image = b.ImageBytes();
  }
  // The steps' (and corrections') input offsets for this run's geometry,
  // by step number (at most a tile's steps: 1152 for a 512-channel 3x3).
  std::vector<int64_t> step_offsets(step_table_size_);
  const int64_t taps = p.kernel_h * p.kernel_w, q4 = in_block_ / 4;
  for (int64_t i = 0; i < step_table_size_; ++i) {
    const int64_t icb = i / (taps * q4), tap = i / q4 % taps;
    step_offsets[i] = icb * c.geom.in_cstride + tap / p.kernel_w * c.geom.dil_h_bytes +
                      tap % p.kernel_w * c.geom.dil_w_bytes + 4 * (i % q4);
  }
  c.step_offsets = step_offsets.data();
  if (spatial_major) {
    // Pixels outermost: each thread takes a band of rows, the band it had in
    // the layer before, so activations stay in its cache (moving them to the
    // other core costs more than re-reading these weights from L2).
    Parallel2D(pool, &U8S8Dense::WorkSpatialMajor, &c, spatial_items, oc_chunks);
  } else {
    // Large weights: each thread keeps to its own output channels.
    Parallel2D(pool, &U8S8Dense::Work, &c, oc_chunks, spatial_items);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8Dense(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& params,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith, bool describe_only) {
  return U8S8Dense::Make(weight, params, tile_co, tile_ow, isa, arith, describe_only);
}

std::string DescribeU8S8Dense(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith, int64_t row_steps) {
  return U8S8Dense::Description(tile_co, tile_ow, isa, arith, nullptr, row_steps);
}

int64_t RowTapSteps(const QuantizedConvParams& p, Isa isa, Arithmetic arith) {
  if (isa != Isa::kAvx2 || arith != Arithmetic::kMadd16 || p.groups != 1 || p.in_channels >= 4 ||
      p.dilation[1] != 1) {
    return 0;
  }
  const int64_t steps = CeilDiv(p.kernel_w * p.in_channels, 4);
  return steps < p.kernel_w ? steps : 0;
}

}  // namespace qnnc::kernels::spatial_pack
