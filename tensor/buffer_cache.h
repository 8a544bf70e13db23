// Large tensor buffers freed during a model's run are recycled instead of
// handed back to the C library; buffers of at least kMappedBytes are pages
// mapped for them alone.
//
// Why recycle: glibc returns large freed blocks to the kernel (munmap, or
// trimming the top of the heap), and the next allocation of the same size
// faults every page in again. A model run frees and reallocates the same
// sizes every time: on the 2-vCPU VM MobileNetV2's 1.2 MB activation after
// its first 1x1 convolution was re-faulted on every run in some processes
// (285 minor faults, about 3.5 ms, ten times the convolution). Buffers of at
// least kMinCachedBytes (a page) released while a run is in progress (a
// RecyclingScope is alive) go to a free list of their exact size, up to
// kMaxCachedBytes in all. The executor's memory plan (one arena) holds the
// activations; this cache serves what is still allocated per run (reference
// kernels' results, kernel temporaries).
//
// Why only during runs, and why mapped: what compiling frees (the importer's
// weights once folded, constants once packed) does not recur and must leave
// memory, so that weights are held once. glibc serves a freed size from its
// heap afterwards (it raises its mmap threshold on each large free), and a
// heap with holes keeps its pages; a mapping of its own is unmapped on free.
#ifndef QNNC_TENSOR_BUFFER_CACHE_H_
#define QNNC_TENSOR_BUFFER_CACHE_H_

#include <cstddef>

namespace qnnc::tensor {

inline constexpr size_t kMinCachedBytes = size_t{4} << 10;
inline constexpr size_t kMaxCachedBytes = size_t{512} << 20;
inline constexpr size_t kMappedBytes = size_t{256} << 10;

// While one is alive in any thread, released buffers are kept for reuse.
// The executor holds one over each run.
class RecyclingScope {
 public:
  RecyclingScope();
  ~RecyclingScope();
  RecyclingScope(const RecyclingScope&) = delete;
  RecyclingScope& operator=(const RecyclingScope&) = delete;
};

// `bytes` (a multiple of `alignment`, a power of two up to a page) bytes aligned to
// `alignment`; a cached buffer of that exact size when there is one. nullptr
// when the C library has no memory.
void* AllocateBuffer(size_t alignment, size_t bytes);
// Gives back a buffer from AllocateBuffer(alignment, bytes).
void ReleaseBuffer(void* buffer, size_t bytes);
// The bytes held in free lists now (tests).
size_t CachedBufferBytes();

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_BUFFER_CACHE_H_
