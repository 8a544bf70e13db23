// The u8 x s8 dense (and grouped) convolution kernel: packed weights, tiles
// of output channels x pixels on the AVX-512 VNNI, AVX-VNNI, AVX2 and scalar
// microkernels. Its parts live in three files: u8s8_dense.cc (making one:
// channel order, chunks, tile functions; descriptions), u8s8_dense_pack.cc
// (weight packing, the AVX2 corrections and step pairs) and
// u8s8_dense_run.cc (a run: geometry, work split, the tile loop).
// Private to //kernels/spatial_pack; use MakeU8S8Dense (driver.h).
#ifndef QNNC_KERNELS_SPATIAL_PACK_U8S8_DENSE_H_
#define QNNC_KERNELS_SPATIAL_PACK_U8S8_DENSE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/spatial_pack/driver.h"
#include "kernels/spatial_pack/internal/microkernels.h"
#include "kernels/spatial_pack/weight_pairs.h"
#include "util/aligned_allocator.h"

namespace qnnc::kernels::spatial_pack {

class U8S8Dense final : public Conv2DKernel {
 public:
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Make(const std::vector<int16_t>& weight,
                                                            const QuantizedConvParams& p,
                                                            int64_t tile_co, int64_t tile_ow,
                                                            Isa isa, Arithmetic arith, bool describe_only);

  // Over the weights Make packed (packed()); RestoreU8S8Dense.
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Restore(const PackedConvWeights& packed,
                                                               const QuantizedConvParams& p,
                                                               int64_t tile_co, int64_t tile_ow,
                                                               Isa isa, Arithmetic arith, bool describe_only);

  static std::string Description(int64_t tile_co, int64_t tile_ow, Isa isa, Arithmetic arith,
                                 const PairingPlan* plan, int64_t row_steps);

  absl::Status RunImpl(const Tensor& input, int32_t zx, Tensor* output, pthreadpool_t pool,
                       const TileEpilogue* tile_epilogue) const override;
  std::optional<PackedConvWeights> packed() const override;

  // The version of the packing (Pack and its helpers): a plan's packed
  // weights are used only by a kernel of the same version, so a change to
  // the packed bytes' order must change it.
  static constexpr int kPackingVersion = 1;

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

  struct RunCtx;  // u8s8_dense_run.cc

  // Making one (u8s8_dense.cc): Begin sets up what the parameters give,
  // then Make packs (or Restore adopts packed weights), then Finish binds.
  static absl::StatusOr<std::unique_ptr<U8S8Dense>> Begin(const QuantizedConvParams& p, int64_t tile_co,
                                                          int64_t tile_ow, Isa isa, Arithmetic arith,
                                                          bool describe_only);
  static absl::StatusOr<std::unique_ptr<Conv2DKernel>> Finish(std::unique_ptr<U8S8Dense> k, bool describe_only);
  // Whether the packed bytes and the bias are all the weights decide: every
  // kernel but AVX2 vpmaddubsw's, whose pairs and corrections (PlanPairs)
  // are saved too (PackedConvWeights::pairing).
  bool PackedByShape() const { return !(isa_ == Isa::kAvx2 && !madd16_); }
  std::string Packing() const;  // PackedConvWeights::packing
  absl::Status KeepPackedInTensor();

  // The AVX2 vpmaddubsw kernel's pairing for a plan, and adopting it back
  // checked (u8s8_dense_state.cc): the layout (orders and the tiles' counts),
  // the orders, the flips, the step numbers, the corrections' steps and
  // weights. `bytes`: the packed weights the tiles take.
  struct Adopted {
    int64_t corrections = 0, words = 0, bytes = 0;
  };
  std::vector<Tensor> PairingBlobs() const;
  absl::Status AdoptPairing(const std::vector<Tensor>& blobs, bool describe_only, int64_t* bytes);
  absl::Status AdoptOrders(const std::vector<int64_t>& layout, const Tensor& order, const Tensor& flips,
                           bool describe_only);
  absl::Status AdoptTile(const int64_t* fields, int64_t ocb0, Adopted* so_far);
  void SetLaneOrder();
  void AddSdotInputTerm(const std::vector<int16_t>& weight);
  absl::Status PlanPairs(const std::vector<int16_t>& weight, bool describe_only, PairingPlan* plan);
  void ChunkInputChannels();
  absl::Status BindTileFunctions(int64_t tile_ow);

  // Packing (u8s8_dense_pack.cc).
  void SplitStep(int8_t* step, int32_t number, std::vector<Correction> (&runs)[3]) const;
  void PairTileSteps(OcTile* t, int64_t count);
  // Packed weight bytes of one input-channel block of a tile of `nco`
  // groups (the dense packing: [icb][ky][kx][q][j]; the stem's taps along
  // the row: [ky][q < row_steps_][j], one block).
  int64_t IcbWeightBytes(int64_t nco) const {
    const int64_t steps = row_steps_ > 0 ? params_.kernel_h * row_steps_
                                         : params_.kernel_h * params_.kernel_w * (in_block_ / 4);
    return steps * nco * (madd16_ ? 128 : 64);
  }
  void Pack(const int16_t* w);
  // The tile of output-channel blocks from `ocb0`, its weights at
  // `w_offset` of the packing.
  OcTile NewTile(int64_t ocb0, int64_t w_offset) const;
  // The packed bytes of tile `t` (before AVX2 vpmaddubsw's pairing).
  int64_t TileWeightBytes(const OcTile& t) const;
  // The packed weights, made here or adopted from a plan.
  const int8_t* weights() const { return packed_view_.data<int8_t>(); }
  int64_t weight_bytes() const { return packed_view_.num_elements(); }
  void PackRowTaps(const int16_t* w, const OcTile& t);
  void PackGrouped(const int16_t* w, const OcTile& t);
  void PackBlocks(const int16_t* w, OcTile& t);
  void ToMmlaPacking(const OcTile& t);

  // Running (u8s8_dense_run.cc).
  struct WorkItem;
  void SetUpWork(RunCtx& c, int64_t n, int64_t threads, bool spatial_major, int64_t* oc_chunks,
                 size_t* spatial_items) const;
  absl::Status SetUpBand(RunCtx& c, const Tensor& input, int32_t zx, const OutGeom& g, int64_t hp,
                         int64_t wp, int64_t threads, bool spatial_major) const;
  std::vector<int64_t> StepOffsets(const internal::DenseGeom& geom) const;
  void RunTile(const RunCtx& c, const WorkItem& item, const OcTile& t, internal::DenseTile& call) const;
  static void WorkSpatialMajor(void* vctx, size_t item, size_t oc_chunk);
  static void Work(void* vctx, size_t oc_chunk, size_t item);

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
  // The packing while it is made (Pack); then, 64-byte aligned (the AVX2
  // tiles read weights as memory operands), the packed weights: moved from
  // packed_ (Make) or a plan's, used in place (Restore).
  AlignedVector<int8_t> packed_;
  tensor::Tensor packed_view_;
  std::vector<OcTile> tiles_;
  std::vector<internal::DenseTileFn> fns_;
};
}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_U8S8_DENSE_H_
