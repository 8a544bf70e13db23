// Memory planning: every intermediate tensor of a run gets a fixed offset in
// one arena, by liveness, so that tensors whose lifetimes do not overlap share
// memory and nothing is allocated per run (the executor creates the arena at
// its first run). Greedy by size, as TFLite's arena planner: the largest
// buffers are placed first, each at the lowest offset where it overlaps no
// placed buffer that is live at the same time.
#ifndef QNNC_RUNTIME_MEMORY_PLAN_H_
#define QNNC_RUNTIME_MEMORY_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

// One buffer of the arena: its size and the steps that use it, from the one
// that writes it to the last that reads it (inclusive; a buffer written and
// never read lives at its step only). Two buffers live at the same step must
// not share bytes: a step's outputs never overlap its inputs.
struct BufferLifetime {
  int64_t bytes = 0;
  int first = 0, last = 0;
};

struct MemoryPlan {
  std::vector<int64_t> offsets;  // per buffer, multiples of kArenaAlignment
  int64_t arena_bytes = 0;       // the arena's size: the end of the highest buffer
  int64_t peak_bytes = 0;        // the most bytes live at one step (a lower bound)
  int64_t sum_bytes = 0;         // every buffer's bytes: the size without reuse
};

inline constexpr int64_t kArenaAlignment = tensor::Tensor::kAlignment;

// The bytes a tensor of `tensor_bytes` takes in the arena: its data and the
// padding every tensor may be read past its end (tensor::Tensor::
// kPaddingBytes), rounded up to the alignment.
int64_t ArenaBytes(int64_t tensor_bytes);

// Offsets for `buffers` (each bytes > 0, a multiple of kArenaAlignment as
// ArenaBytes gives, first <= last).
MemoryPlan PlanMemory(const std::vector<BufferLifetime>& buffers);

// OK when no two buffers live at a common step share a byte and every buffer
// lies inside the arena; else an error naming the two buffers.
absl::Status CheckMemoryPlan(const std::vector<BufferLifetime>& buffers, const MemoryPlan& plan);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_MEMORY_PLAN_H_
