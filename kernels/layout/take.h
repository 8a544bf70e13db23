// take (ONNX Gather) with constant indices, the fast kernels; bit-exact with
// reference::Take (the same elements land in the same places).
//
// TakeConstant copies whole slices: for each index, the slice of x it names
// along `axis`, one memcpy per (outer position, index).
//
// BlockedChannelGather picks channels of NCHW{k}c tensors into another
// NCHW{k}c tensor: the form AlterOpLayout gives ShuffleNet's channel
// shuffles and slices (one input), and blocked quantized concats (several
// inputs, each through its requantization table). Plan made once (at
// load): for each output block, the input blocks its lanes come from. For
// 8-bit data in 16-lane blocks each pixel's 16 lanes are one vpshufb per
// source block (4 pixels per AVX-512 vector, 2 per AVX2 vector), OR-ed
// together, a source with a table looked up first (kernels/elementwise
// lookup); padding lanes are 0. An output block that is one input block in
// order (channel counts that are multiples of 16) is a copy of that block.
#ifndef QNNC_KERNELS_LAYOUT_TAKE_H_
#define QNNC_KERNELS_LAYOUT_TAKE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {

// `indices` (shape `indices_shape`, already in [0, x.dim(axis))) along
// `axis` (in [0, rank)). Writes `out` in place when it already has the
// result's dtype and shape, else replaces it.
absl::Status TakeConstant(const tensor::Tensor& x, const std::vector<int64_t>& indices,
                          const tensor::Shape& indices_shape, int64_t axis, tensor::Tensor* out,
                          pthreadpool_t pool);

class BlockedChannelGather {
 public:
  // One input: `channels` real channels in blocks of the gather's lanes,
  // its bytes mapped through `table` (256 entries, 8-bit data; empty:
  // copied as they are).
  struct Input {
    int64_t channels;
    std::vector<uint8_t> table;
  };

  // Output channel j is channel indices[j] (negative counts from the end)
  // of the inputs' channels laid end to end, in blocks of `block` lanes.
  static absl::StatusOr<BlockedChannelGather> Make(std::vector<Input> inputs, const std::vector<int64_t>& indices,
                                                   int64_t block);
  // One input, copied.
  static absl::StatusOr<BlockedChannelGather> Make(const std::vector<int64_t>& indices, int64_t channels,
                                                   int64_t block);
  // Every channel of every input in order: a channel concat.
  static absl::StatusOr<BlockedChannelGather> Concat(std::vector<Input> inputs, int64_t block);

  // inputs[i]: [N, ceil(channels_i / k), H, W, k], one dtype (1 byte when
  // any table is given); out: [N, ceil(indices / k), H, W, k] (written in
  // place when it has that type).
  absl::Status Run(const std::vector<tensor::Tensor>& inputs, tensor::Tensor* out, pthreadpool_t pool) const;
  absl::Status Run(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool) const;

  // The input blocks one 16-lane output block reads.
  struct Source {
    int64_t input, block;
    std::array<uint8_t, 16> lanes;  // per output lane: the input lane, or 0x80 (not from here)
  };

 private:
  int64_t block_ = 0;
  std::vector<Input> inputs_;
  std::vector<std::pair<int64_t, int64_t>> picks_;  // per output channel: (input, channel)
  std::vector<std::vector<Source>> sources_;        // per output block (16-lane blocks)
};

}  // namespace qnnc::kernels::layout

#endif  // QNNC_KERNELS_LAYOUT_TAKE_H_
