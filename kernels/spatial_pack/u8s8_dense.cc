// Making a u8 x s8 dense kernel (u8s8_dense.h): the channel order of the
// AVX2 vpmaddubsw pairs, input-channel chunks, the register-tile functions;
// its description.
#include "kernels/spatial_pack/u8s8_dense.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using internal::DenseTileFn;

// u8i16.avx2 tiles whose packed weights exceed kChunkTileWeightBytes run in
// input-channel chunks of at most kChunkWeightBytes of weights (Make): a
// chunk stays in a 48 KB L1 beside a 7x7 plane's input rows (in pixel-major
// layers of about 128 pixels its partial sums alone take 8-16 KB).
constexpr int64_t kChunkTileWeightBytes = 32 << 10;
constexpr int64_t kChunkWeightBytes = 20 << 10;

}  // namespace

absl::StatusOr<std::unique_ptr<U8S8Dense>> U8S8Dense::Begin(const QuantizedConvParams& p, int64_t tile_co,
                                                             int64_t tile_ow, Isa isa, Arithmetic arith,
                                                             bool describe_only) {
  if (isa != Isa::kScalar && isa != Isa::kAvx2 && isa != Isa::kAvxvnni && isa != Isa::kAvx512vnni &&
      isa != Isa::kDotprod && isa != Isa::kI8mm) {
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
  k->SetLaneOrder();
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
  return k;
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> U8S8Dense::Finish(std::unique_ptr<U8S8Dense> k,
                                                                bool describe_only) {
  k->ChunkInputChannels();
  k->strips_ = k->isa_ == Isa::kAvx2 && k->group_words_ == 0;
  if (describe_only) return std::unique_ptr<Conv2DKernel>(std::move(k));
  RETURN_IF_ERROR(k->BindTileFunctions(k->tile_ow_));
  return std::unique_ptr<Conv2DKernel>(std::move(k));
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> U8S8Dense::Make(const std::vector<int16_t>& weight,
                                                              const QuantizedConvParams& p, int64_t tile_co,
                                                              int64_t tile_ow, Isa isa, Arithmetic arith,
                                                              bool describe_only) {
  ASSIGN_OR_RETURN(std::unique_ptr<U8S8Dense> k, Begin(p, tile_co, tile_ow, isa, arith, describe_only));
  if (isa == Isa::kDotprod) k->AddSdotInputTerm(weight);
  PairingPlan plan;
  RETURN_IF_ERROR(k->PlanPairs(weight, describe_only, &plan));
  k->Pack(weight.data());
  RETURN_IF_ERROR(k->KeepPackedInTensor());
  k->description_ = Description(tile_co, tile_ow, isa, arith, k->correct_ ? &plan : nullptr, k->row_steps_);
  if (k->correct_) {
    absl::StrAppend(&k->description_, " paired=", k->paired_steps_, "/", k->all_steps_);
    if (k->half_paired_steps_ > 0) absl::StrAppend(&k->description_, " half_paired=", k->half_paired_steps_);
  }
  return Finish(std::move(k), describe_only);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> U8S8Dense::Restore(const PackedConvWeights& packed,
                                                                 const QuantizedConvParams& p, int64_t tile_co,
                                                                 int64_t tile_ow, Isa isa, Arithmetic arith,
                                                                 bool describe_only) {
  ASSIGN_OR_RETURN(std::unique_ptr<U8S8Dense> k, Begin(p, tile_co, tile_ow, isa, arith, describe_only));
  const std::string base = Description(tile_co, tile_ow, isa, arith, nullptr, k->row_steps_);
  const std::string suffix = absl::StrCat(" packing=", kPackingVersion);
  const absl::string_view packing = packed.packing;
  // The AVX2 vpmaddubsw kernel's description goes on with its pairing's.
  const bool described = k->PackedByShape() ? packing == base + suffix
                                            : absl::StartsWith(packing, base + " ") && absl::EndsWith(packing, suffix);
  if (!described) {
    return absl::InvalidArgumentError(absl::StrCat("the weights were packed as '", packing,
                                                   "', but this kernel packs as '", base, suffix, "'"));
  }
  k->description_ = std::string(packing.substr(0, packing.size() - suffix.size()));
  int64_t bytes = 0;
  if (k->PackedByShape()) {
    if (!packed.pairing.empty()) return absl::InvalidArgumentError("this kernel packs no pairing");
    for (int64_t ocb0 = 0; ocb0 < k->ocb_; ocb0 += k->nco_) {
      k->tiles_.push_back(k->NewTile(ocb0, bytes));
      bytes += k->TileWeightBytes(k->tiles_.back());
    }
  } else {
    RETURN_IF_ERROR(k->AdoptPairing(packed.pairing, describe_only, &bytes));
  }
  const tensor::Tensor& w = packed.weights;
  const tensor::Tensor& b = packed.bias;
  if (!w.defined() || w.dtype() != tensor::DType::kI8 || w.shape() != tensor::Shape{bytes}) {
    return absl::InvalidArgumentError(absl::StrCat("packed weights should be i8[", bytes, "], got ",
                                                   w.defined() ? tensor::ShapeToString(w.shape()) : "none"));
  }
  const int64_t channels = k->ocb_ * 16;
  if (!b.defined() || b.dtype() != tensor::DType::kI32 || b.shape() != tensor::Shape{channels}) {
    return absl::InvalidArgumentError(absl::StrCat("packed bias should be i32[", channels, "], got ",
                                                   b.defined() ? tensor::ShapeToString(b.shape()) : "none"));
  }
  if ((reinterpret_cast<uintptr_t>(w.raw_data()) % tensor::Tensor::kAlignment) != 0) {
    return absl::InvalidArgumentError("packed weights are not 64-byte aligned");
  }
  k->bias_.assign(b.data<int32_t>(), b.data<int32_t>() + channels);
  k->packed_view_ = w;
  return Finish(std::move(k), describe_only);
}

std::optional<PackedConvWeights> U8S8Dense::packed() const {
  PackedConvWeights out;
  out.packing = Packing();
  if (!PackedByShape()) out.pairing = PairingBlobs();
  out.weights = packed_view_;
  out.bias = Tensor::FromVector({static_cast<int64_t>(bias_.size())}, bias_);
  return out;
}

// The packing done, a tensor takes over its buffer (no copy), which
// packed() then shares with a plan.
absl::Status U8S8Dense::KeepPackedInTensor() {
  const int64_t bytes = static_cast<int64_t>(packed_.size());
  packed_.resize(packed_.size() + tensor::Tensor::kPaddingBytes, 0);  // within the capacity Pack reserved
  auto* owner = new AlignedVector<int8_t>(std::move(packed_));
  std::shared_ptr<uint8_t> storage(reinterpret_cast<uint8_t*>(owner->data()), [owner](uint8_t*) { delete owner; });
  ASSIGN_OR_RETURN(tensor::Tensor all, tensor::Tensor::Wrap(std::move(storage), bytes, /*file_mapped=*/false));
  ASSIGN_OR_RETURN(packed_view_, tensor::Tensor::View(all, 0, tensor::DType::kI8, {bytes}, /*zero_padding=*/false));
  return absl::OkStatus();
}

std::string U8S8Dense::Packing() const { return absl::StrCat(description_, " packing=", kPackingVersion); }

// The madd16 and AVX-VNNI tiles hold a group's channels in Madd16Lane
// order (their epilogue's), so do their weights, bias and multipliers.
void U8S8Dense::SetLaneOrder() {
  lane_order_ = madd16_ || isa_ == Isa::kAvxvnni;
  if (!lane_order_) return;
  std::vector<int32_t> bias(bias_.size());
  std::vector<float> mult(mult_.size());
  for (size_t oc = 0; oc < bias.size(); ++oc) {
    const size_t to = oc / 16 * 16 + static_cast<size_t>(internal::Madd16Lane(static_cast<int>(oc % 16)));
    bias[to] = bias_[oc];
    mult[to] = mult_[oc];
  }
  bias_ = std::move(bias);
  mult_ = std::move(mult);
}

// sdot reads each input byte x as x - 128 (microkernels.h:
// GetDenseTileDotprod): x w = (x - 128) w + 128 w, so each output channel's
// bias takes 128 times the sum of its weights. In uint32_t: the sums wrap
// modulo 2^32 as the accumulators do, never overflowing a signed type.
void U8S8Dense::AddSdotInputTerm(const std::vector<int16_t>& weight) {
  const QuantizedConvParams& p = params_;
  const int64_t per_oc = p.in_channels / p.groups * p.kernel_h * p.kernel_w;
  for (int64_t oc = 0; oc < p.out_channels; ++oc) {
    uint32_t sum = 0;
    for (int64_t i = 0; i < per_oc; ++i) sum += static_cast<uint32_t>(weight[oc * per_oc + i]);
    bias_[oc] = static_cast<int32_t>(static_cast<uint32_t>(bias_[oc]) + 128u * sum);
  }
}

// AVX2 vpmaddubsw pairs slots (2m, 2m + 1) of each 16-channel block: the
// weights' pairing order. Any other than the natural one is read through a
// reordered copy; the pairs that still do not fit are corrected (Pack).
absl::Status U8S8Dense::PlanPairs(const std::vector<int16_t>& weight, bool describe_only, PairingPlan* plan) {
  if (isa_ != Isa::kAvx2 || madd16_) return absl::OkStatus();
  const QuantizedConvParams& p = params_;
  const int64_t cg = p.in_channels / p.groups;
  const tensor::Shape shape = {p.out_channels, cg, p.kernel_h, p.kernel_w};
  *plan = PlanPairing(weight.data(), shape, p.groups, PairingOrderGroups(shape, p.groups, p.in_height, p.in_width));
  correct_ = true;
  if (!plan->Copies()) return absl::OkStatus();
  order_ = plan->order;
  order_groups_ = plan->order_groups;
  oc_per_order_ = plan->oc_per_order;
  shuffle_ = internal::GetShufflePixelsAvx2();
  if ((shuffle_ == nullptr && !describe_only) || in_block_ != 16) {
    return absl::InternalError("cannot reorder channels");
  }
  if (!plan->HasFlips()) return absl::OkStatus();
  // Flipped channels are read as 255 - x (their copy's bytes XORed with
  // 0xff) with their weights negated (Pack): w x = 255 w + (-w)(255 - x), so
  // each output channel's bias takes 255 times its flipped weights.
  flip_mask_.resize(plan->flip.size());
  for (size_t i = 0; i < plan->flip.size(); ++i) flip_mask_[i] = plan->flip[i] ? 0xff : 0;
  const int64_t kk = p.kernel_h * p.kernel_w;
  plan->ForEachFlipped(p.out_channels, cg, [&](int64_t oc, int64_t ic) {
    for (int64_t t = 0; t < kk; ++t) bias_[oc] += 255 * weight[(oc * cg + ic) * kk + t];
    return true;
  });
  return absl::OkStatus();
}

// u8i16.avx2: a tile whose int16 weights outgrow L1 runs in chunks of its
// input-channel blocks, each chunk over all the tile's pixels of a work
// item before the next (Work): its weights are read from L2 once per chunk
// and item, not once per register tile.
void U8S8Dense::ChunkInputChannels() {
  if (isa_ != Isa::kAvx2 || !madd16_ || group_words_ != 0 || tiles_.empty()) return;
  const int64_t icb_bytes = IcbWeightBytes(nco_);
  const int64_t icbs = tiles_[0].icb_count;
  if (icb_bytes * icbs > kChunkTileWeightBytes) {
    const int64_t chunks = CeilDiv(icbs, std::max<int64_t>(1, kChunkWeightBytes / icb_bytes));
    k_chunk_icbs_ = CeilDiv(icbs, chunks);  // equal chunks
  }
}

// Register-tile functions for every (nco, npix) the run can need.
absl::Status U8S8Dense::BindTileFunctions(int64_t tile_ow) {
  const int max_pix = static_cast<int>(tile_ow);
  fns_.assign((nco_ + 1) * (max_pix + 1), nullptr);
  for (int nco = 1; nco <= nco_; ++nco) {
    for (int np = 1; np <= max_pix; ++np) {
      DenseTileFn fn = &internal::DenseTileScalar;
      if (isa_ == Isa::kAvx512vnni) {
        fn = madd16_ ? internal::GetDenseTileMadd16Avx512Vnni(nco, np, in_block_)
                     : internal::GetDenseTileAvx512Vnni(nco, np, in_block_, params_.strides[1]);
      }
      if (isa_ == Isa::kAvx2) {
        fn = madd16_ ? internal::GetDenseTileMadd16Avx2(nco, np, in_block_)
                     : internal::GetDenseTileAvx2(nco, np, in_block_);
      }
      if (isa_ == Isa::kAvxvnni) fn = internal::GetDenseTileAvxVnni(nco, np, in_block_);
      if (isa_ == Isa::kDotprod) fn = internal::GetDenseTileDotprod(nco, np, in_block_);
      if (isa_ == Isa::kI8mm) fn = internal::GetDenseTileI8mm(nco, np, in_block_);
      if (group_words_ > 0) {
        const int words = static_cast<int>(group_words_);
        fn = isa_ == Isa::kAvx2 ? internal::GetGroupedTileMadd16Avx2(nco, np, words)
                                : internal::GetGroupedTileAvx512Vnni(nco, np, words);
      }
      if (fn == nullptr) return absl::InternalError("missing microkernel");
      fns_[nco * (max_pix + 1) + np] = fn;
    }
  }
  return absl::OkStatus();
}

std::string U8S8Dense::Description(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith,
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

absl::StatusOr<std::unique_ptr<Conv2DKernel>> MakeU8S8Dense(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& params,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith, bool describe_only) {
  return U8S8Dense::Make(weight, params, tile_co, tile_ow, isa, arith, describe_only);
}

absl::StatusOr<std::unique_ptr<Conv2DKernel>> RestoreU8S8Dense(const PackedConvWeights& packed,
                                                               const QuantizedConvParams& params,
                                                               int64_t tile_co, int64_t tile_ow,
                                                               Isa isa, Arithmetic arith, bool describe_only) {
  return U8S8Dense::Restore(packed, params, tile_co, tile_ow, isa, arith, describe_only);
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
