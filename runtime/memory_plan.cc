#include "runtime/memory_plan.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {
namespace {

bool LiveTogether(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first <= b.last && b.first <= a.last;
}

}  // namespace

int64_t ArenaBytes(int64_t tensor_bytes) { return tensor::Tensor::StorageBytes(tensor_bytes); }

MemoryPlan PlanMemory(const std::vector<BufferLifetime>& buffers) {
  MemoryPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  // Largest first; ties by first use, then index, so the plan is deterministic.
  std::vector<int> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (buffers[a].bytes != buffers[b].bytes) return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].first < buffers[b].first;
  });
  std::vector<int> placed;
  std::vector<std::pair<int64_t, int64_t>> busy;  // [offset, end) of live placed buffers
  for (int i : order) {
    busy.clear();
    for (int j : placed) {
      if (LiveTogether(buffers[i], buffers[j])) {
        busy.push_back({plan.offsets[j], plan.offsets[j] + buffers[j].bytes});
      }
    }
    std::sort(busy.begin(), busy.end());
    // The lowest gap that holds it.
    int64_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (begin - offset >= buffers[i].bytes) break;
      offset = std::max(offset, end);
    }
    plan.offsets[i] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + buffers[i].bytes);
    placed.push_back(i);
  }
  int last_step = -1;
  for (const BufferLifetime& b : buffers) {
    plan.sum_bytes += b.bytes;
    last_step = std::max(last_step, b.last);
  }
  // Live bytes per step: add at first, remove after last.
  std::vector<int64_t> delta(static_cast<size_t>(last_step + 2), 0);
  for (const BufferLifetime& b : buffers) {
    delta[b.first] += b.bytes;
    delta[b.last + 1] -= b.bytes;
  }
  int64_t live = 0;
  for (int64_t d : delta) {
    live += d;
    plan.peak_bytes = std::max(plan.peak_bytes, live);
  }
  return plan;
}

absl::Status CheckMemoryPlan(const std::vector<BufferLifetime>& buffers, const MemoryPlan& plan) {
  if (plan.offsets.size() != buffers.size()) {
    return absl::InternalError(absl::StrCat("memory plan: ", plan.offsets.size(), " offsets for ",
                                            buffers.size(), " buffers"));
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (plan.offsets[i] < 0 || plan.offsets[i] % kArenaAlignment != 0 ||
        plan.offsets[i] + buffers[i].bytes > plan.arena_bytes) {
      return absl::InternalError(absl::StrCat("memory plan: buffer ", i, " at ", plan.offsets[i],
                                              " (", buffers[i].bytes, " bytes) is misaligned or "
                                              "outside the arena of ", plan.arena_bytes, " bytes"));
    }
    for (size_t j = 0; j < i; ++j) {
      const bool share = plan.offsets[i] < plan.offsets[j] + buffers[j].bytes &&
                         plan.offsets[j] < plan.offsets[i] + buffers[i].bytes;
      if (share && LiveTogether(buffers[i], buffers[j])) {
        return absl::InternalError(absl::StrCat(
            "memory plan: buffers ", j, " (steps ", buffers[j].first, "-", buffers[j].last, ") and ",
            i, " (steps ", buffers[i].first, "-", buffers[i].last, ") are live together and overlap"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace qnnc::runtime
