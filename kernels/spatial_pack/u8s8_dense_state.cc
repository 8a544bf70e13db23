// A u8 x s8 dense kernel's packed state for a plan (u8s8_dense.h): the AVX2
// vpmaddubsw kernel's pairing, which followed the weights' values (its
// channel orders, flips, paired steps and corrections), saved beside its
// packed weights, and adopted back checked: a damaged plan is an error,
// never a read outside the kernel's tables.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/step_pairs.h"
#include "kernels/spatial_pack/u8s8_dense.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using tensor::DType;

// Per tile: step0, paired, half_paired[2], single, correction0,
// correction_w0, correction_count[3].
constexpr int64_t kTileFields = 10;

template <typename T>
std::vector<T> ValuesOf(const Tensor& t) {
  const T* p = t.data<T>();
  return std::vector<T>(p, p + t.num_elements());
}

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("the packed AVX2 pairing is damaged: ", what));
}

}  // namespace

std::vector<Tensor> U8S8Dense::PairingBlobs() const {
  std::vector<int64_t> layout = {order_groups_, oc_per_order_};
  for (const OcTile& t : tiles_) {
    layout.insert(layout.end(), {t.step0, t.paired, t.half_paired[0], t.half_paired[1], t.single, t.correction0,
                                 t.correction_w0, t.correction_count[0], t.correction_count[1],
                                 t.correction_count[2]});
  }
  auto vector = [](const auto& v) { return Tensor::FromVector({static_cast<int64_t>(v.size())}, v); };
  return {vector(layout), vector(order_), vector(flip_mask_), vector(step_ids_), vector(correction_steps_),
          vector(std::vector<int16_t>(correction_w_.begin(), correction_w_.end()))};
}

absl::Status U8S8Dense::AdoptOrders(const std::vector<int64_t>& layout, const Tensor& order, const Tensor& flips,
                                    bool describe_only) {
  order_ = ValuesOf<uint8_t>(order);
  flip_mask_ = ValuesOf<uint8_t>(flips);
  if (order_.empty()) {
    if (!flip_mask_.empty()) return Bad("flips without a channel order");
    return absl::OkStatus();
  }
  order_groups_ = layout[0];
  oc_per_order_ = layout[1];
  if (order_groups_ < 1 || oc_per_order_ < 1 || order_groups_ > ocb_ * 16 ||
      static_cast<int64_t>(order_.size()) != order_groups_ * icb_total_ * 16) {
    return Bad(absl::StrCat(order_groups_, " channel orders of ", order_.size(), " slots"));
  }
  if (std::any_of(order_.begin(), order_.end(), [](uint8_t c) { return c >= 16; })) {
    return Bad("a channel order names a channel outside its block");
  }
  if (!flip_mask_.empty() && flip_mask_.size() != order_.size()) return Bad("flips and orders differ in size");
  shuffle_ = internal::GetShufflePixelsAvx2();
  if ((shuffle_ == nullptr && !describe_only) || in_block_ != 16) return absl::InternalError("cannot reorder channels");
  return absl::OkStatus();
}

absl::Status U8S8Dense::AdoptTile(const int64_t* f, int64_t ocb0, Adopted* so_far) {
  OcTile t = NewTile(ocb0, so_far->bytes);
  if (t.order_group >= order_groups_) return Bad("a tile's channel order is not there");
  const int64_t count = t.icb_count * params_.kernel_h * params_.kernel_w * (in_block_ / 4);
  // Counts of at most `count` each; the three starts must equal the sums
  // before them (below), so any value is safe to compare.
  for (int i : {1, 2, 3, 4, 7, 8, 9}) {
    if (f[i] < 0 || f[i] > count) return Bad("a tile's counts are out of range");
  }
  t.step0 = f[0], t.paired = f[1], t.half_paired[0] = f[2], t.half_paired[1] = f[3], t.single = f[4];
  t.correction0 = f[5], t.correction_w0 = f[6];
  std::copy(f + 7, f + 10, t.correction_count);
  const int64_t steps = 2 * (t.paired + t.half_paired[0] + t.half_paired[1]) + t.single;
  const int64_t corrections = t.correction_count[0] + t.correction_count[1] + t.correction_count[2];
  const int64_t words = 32 * t.correction_count[internal::kBothHalves] +
                        16 * (t.correction_count[internal::kFirstHalf] + t.correction_count[internal::kSecondHalf]);
  if (steps > count || t.step0 != static_cast<int64_t>(all_steps_) ||
      t.step0 + steps > static_cast<int64_t>(step_ids_.size())) {
    return Bad("a tile's steps do not follow the tile before");
  }
  if (t.correction0 != so_far->corrections || t.correction_w0 != so_far->words ||
      t.correction0 + corrections > static_cast<int64_t>(correction_steps_.size()) ||
      t.correction_w0 + words > static_cast<int64_t>(correction_w_.size())) {
    return Bad("a tile's corrections do not follow the tile before");
  }
  auto within = [&](int32_t s) { return s >= 0 && s < count; };
  if (!std::all_of(step_ids_.begin() + t.step0, step_ids_.begin() + t.step0 + steps, within) ||
      !std::all_of(correction_steps_.begin() + t.correction0,
                   correction_steps_.begin() + t.correction0 + corrections, within)) {
    return Bad("a step names no step of its tile");
  }
  step_table_size_ = std::max(step_table_size_, count);
  paired_steps_ += 2 * t.paired;
  half_paired_steps_ += 2 * (t.half_paired[0] + t.half_paired[1]);
  all_steps_ += steps;
  so_far->corrections += corrections;
  so_far->words += words;
  so_far->bytes += steps * kStepBytes;
  tiles_.push_back(t);
  return absl::OkStatus();
}

absl::Status U8S8Dense::AdoptPairing(const std::vector<Tensor>& blobs, bool describe_only, int64_t* bytes) {
  const DType want[] = {DType::kI64, DType::kU8, DType::kU8, DType::kI32, DType::kI32, DType::kI16};
  if (blobs.size() != 6) return Bad(absl::StrCat(blobs.size(), " blobs, not 6"));
  for (size_t i = 0; i < 6; ++i) {
    if (!blobs[i].defined() || blobs[i].dtype() != want[i] || blobs[i].shape().size() != 1) {
      return Bad(absl::StrCat("blob ", i, " is not a vector of ", tensor::DTypeName(want[i])));
    }
  }
  const std::vector<int64_t> layout = ValuesOf<int64_t>(blobs[0]);
  const int64_t tiles = CeilDiv(ocb_, nco_);
  if (static_cast<int64_t>(layout.size()) != 2 + tiles * kTileFields) {
    return Bad(absl::StrCat(layout.size(), " layout values for ", tiles, " tiles"));
  }
  RETURN_IF_ERROR(AdoptOrders(layout, blobs[1], blobs[2], describe_only));
  step_ids_ = ValuesOf<int32_t>(blobs[3]);
  correction_steps_ = ValuesOf<int32_t>(blobs[4]);
  correction_w_.assign(blobs[5].data<int16_t>(), blobs[5].data<int16_t>() + blobs[5].num_elements());
  correct_ = true;
  Adopted so_far;
  for (int64_t i = 0; i < tiles; ++i) RETURN_IF_ERROR(AdoptTile(&layout[2 + i * kTileFields], i * nco_, &so_far));
  if (all_steps_ != static_cast<int64_t>(step_ids_.size()) ||
      so_far.corrections != static_cast<int64_t>(correction_steps_.size()) ||
      so_far.words != static_cast<int64_t>(correction_w_.size())) {
    return Bad("steps or corrections left over after the last tile");
  }
  *bytes = so_far.bytes;
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::spatial_pack
