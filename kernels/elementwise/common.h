// Rounding, work splitting, output preparation and conversion shared by the
// elementwise kernels.
#ifndef QNNC_KERNELS_ELEMENTWISE_COMMON_H_
#define QNNC_KERNELS_ELEMENTWISE_COMMON_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// Leaves `out` as it is when it already has `dtype` and `shape` (planned
// memory: written in place), else gives it a new buffer of them.
inline absl::Status PrepareOutput(tensor::Tensor* out, tensor::DType dtype, const tensor::Shape& shape,
                                  const char* kernel) {
  if (out == nullptr) return absl::InvalidArgumentError(absl::StrCat(kernel, ": out is null"));
  return tensor::Tensor::PrepareForOverwrite(out, dtype, shape);
}

// The elements [start, start + count) of x converted to To: a pthreadpool
// task for ParallelRows, cloned per level (CpuClones).
template <typename From, typename To>
struct CastTask {
  const From* x;
  To* out;
  int64_t n;
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const CastTask& t = *static_cast<const CastTask*>(ctx);
    const From* __restrict x = t.x;
    To* __restrict out = t.out;
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    for (int64_t i = static_cast<int64_t>(start); i < end; ++i) out[i] = static_cast<To>(x[i]);
  }
};

// Runs task(ctx, start, count) over the elements of a tensor of `shape` on
// `pool`, split the way the convolutions split their activations: rows
// outermost. Rank 4 and 5 tensors ([N, C, H, W] and [N, C/k, H, W, k]) are
// planes of H * W (* k) elements; each plane is cut into at most 8 bands of
// rows, and the items run band-major, so with two threads each takes the
// top or bottom half of every plane, the half its core already holds from
// the layer before. Other ranks are one plane.
inline void ParallelRows(pthreadpool_t pool, pthreadpool_task_1d_tile_1d_t task, void* ctx,
                         const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n == 0) return;
  const int64_t threads = pool ? static_cast<int64_t>(pthreadpool_get_threads_count(pool)) : 1;
  // Up to 64K elements (a few microseconds at one thread) the calling
  // thread does it all: waking the pool and moving rows between cores costs
  // more (MobileNetV2's 7x7 adds: 1 us alone, 5 us split in two; the model
  // at two threads ran about 3% faster with this than split from 16K).
  constexpr int64_t kSerialElements = 65536;
  if (threads == 1 || n <= kSerialElements) {
    task(ctx, 0, static_cast<size_t>(n));
    return;
  }
  const int64_t planes = shape.size() >= 4 ? shape[0] * shape[1] : 1;
  const int64_t plane = n / planes;
  // Planes too small to split by rows: contiguous ranges of planes.
  if (plane < 64 * threads) {
    pthreadpool_parallelize_1d_tile_1d(pool, task, ctx, static_cast<size_t>(n),
                                       static_cast<size_t>((n + 4 * threads - 1) / (4 * threads)), 0);
    return;
  }
  struct Bands {
    pthreadpool_task_1d_tile_1d_t task;
    void* ctx;
    int64_t plane, band;
    static void Run(void* b, size_t band, size_t p) {
      const Bands& w = *static_cast<const Bands*>(b);
      const int64_t start = static_cast<int64_t>(band) * w.band;
      const int64_t count = w.plane - start < w.band ? w.plane - start : w.band;
      w.task(w.ctx, static_cast<size_t>(static_cast<int64_t>(p) * w.plane + start),
             static_cast<size_t>(count));
    }
  };
  // Bands of at least 1024 elements (a few vectors' worth per row); with
  // threads, at least one band per thread where a plane has 64 elements per
  // thread, so that small planes (7x7, 14x14) still split by rows like the
  // convolutions around them, not by channel blocks, which would move every
  // row to the other core.
  int64_t bands = std::min<int64_t>(8, std::max<int64_t>(1, plane / 1024));
  if (bands < threads) bands = std::max<int64_t>(1, std::min(threads, plane / 64));
  Bands b{task, ctx, plane, (plane + bands - 1) / bands};
  pthreadpool_parallelize_2d(pool, &Bands::Run, &b, static_cast<size_t>((plane + b.band - 1) / b.band),
                             static_cast<size_t>(planes), 0);
}

// nearbyint(v) for |v| < 2^22 in the default rounding mode (ties to even):
// adding and subtracting 1.5 * 2^23 leaves no fraction bits. Unlike
// nearbyint it vectorizes on any x86-64 or Arm. Needs -ffp-contract=off and
// no -ffast-math (which would fold the two additions).
inline float RoundSmallHalfEven(float v) {
  constexpr float kRound = 12582912.0f;
  return (v + kRound) - kRound;
}

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_COMMON_H_
