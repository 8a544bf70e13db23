// take (ONNX Gather) with constant indices, the fast kernels; bit-exact with
// reference::Take (the same elements land in the same places).
//
// TakeConstant copies whole slices: for each index, the slice of x it names
// along `axis`, one memcpy per (outer position, index).
//
// BlockedChannelGather picks channels of an NCHW{k}c tensor into another
// NCHW{k}c tensor, the form AlterOpLayout gives ShuffleNet's channel
// shuffles and slices. Plan made once (at load): for each output block, the
// input blocks its lanes come from. For 8-bit data in 16-lane blocks each
// pixel's 16 lanes are one vpshufb per source block (4 pixels per AVX-512
// vector, 2 per AVX2 vector), OR-ed together; padding lanes are 0.
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
  // Output channel j is input channel indices[j] (NCHW numbering, negative
  // counts from the end) of an input holding `channels` real channels in
  // blocks of `block` lanes.
  static absl::StatusOr<BlockedChannelGather> Make(const std::vector<int64_t>& indices, int64_t channels,
                                                   int64_t block);

  // x: [N, ceil(channels / k), H, W, k], any dtype; out: [N,
  // ceil(indices / k), H, W, k] (written in place when it has that type).
  absl::Status Run(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool) const;

  struct Source {
    int64_t block;                  // input block
    std::array<uint8_t, 16> lanes;  // per output lane: the input lane, or 0x80 (not from here)
  };

 private:
  int64_t channels_ = 0, block_ = 0;
  std::vector<int64_t> indices_;             // normalized
  std::vector<std::vector<Source>> sources_;  // per output block (16-lane blocks)
};

}  // namespace qnnc::kernels::layout

#endif  // QNNC_KERNELS_LAYOUT_TAKE_H_
