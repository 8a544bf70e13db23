#include "tensor/buffer_cache.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace qnnc::tensor {
namespace {

struct Cache {
  std::mutex mu;  // pthread's: ThreadSanitizer sees it (not the system Abseil's)
  // Free buffers by their exact size (all of one alignment: Tensor's).
  absl::flat_hash_map<size_t, std::vector<void*>> free;  // guarded by mu
  size_t cached = 0;  // guarded by mu
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: buffers outlive statics
  return *cache;
}

// Under AddressSanitizer buffers are not recycled, so that a use after free
// is still caught.
// Nor mapped: AddressSanitizer checks heap blocks, not pages.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecycle = false;
constexpr bool kMap = false;
#else
constexpr bool kRecycle = true;
constexpr bool kMap = true;
#endif

std::atomic<int> runs_in_progress{0};

bool Mapped(size_t bytes) { return kMap && bytes >= kMappedBytes; }

}  // namespace

void* AllocateBuffer(size_t alignment, size_t bytes) {
  if (kRecycle && bytes >= kMinCachedBytes) {
    Cache& c = TheCache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free.find(bytes);
    if (it != c.free.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      c.cached -= bytes;
      return p;
    }
  }
  if (Mapped(bytes)) {  // page-aligned, which `alignment` divides
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  return std::aligned_alloc(alignment, bytes);
}

void ReleaseBuffer(void* buffer, size_t bytes) {
  if (buffer == nullptr) return;
  if (kRecycle && bytes >= kMinCachedBytes && runs_in_progress.load(std::memory_order_relaxed) > 0) {
    Cache& c = TheCache();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.cached + bytes <= kMaxCachedBytes) {
      c.free[bytes].push_back(buffer);
      c.cached += bytes;
      return;
    }
  }
  if (Mapped(bytes)) {
    munmap(buffer, bytes);
    return;
  }
  std::free(buffer);
}

RecyclingScope::RecyclingScope() { runs_in_progress.fetch_add(1, std::memory_order_relaxed); }
RecyclingScope::~RecyclingScope() { runs_in_progress.fetch_sub(1, std::memory_order_relaxed); }

size_t CachedBufferBytes() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.cached;
}

}  // namespace qnnc::tensor
