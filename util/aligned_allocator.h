// A std::vector allocator whose storage starts at a multiple of `kAlign`
// bytes (C++17's aligned operator new): for packed kernel weights that
// vector loads read from memory, where a 32-byte load that straddles two
// cache lines costs twice.
#ifndef QNNC_UTIL_ALIGNED_ALLOCATOR_H_
#define QNNC_UTIL_ALIGNED_ALLOCATOR_H_

#include <cstddef>
#include <new>
#include <vector>

namespace qnnc {

template <typename T, std::size_t kAlign = 64>
struct AlignedAllocator {
  static_assert(kAlign >= alignof(T) && (kAlign & (kAlign - 1)) == 0, "a power of two, at least T's");
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = AlignedAllocator<U, kAlign>;
  };
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U, kAlign>&) {}  // NOLINT: rebinding converts implicitly
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(kAlign))); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(kAlign)); }
  template <typename U>
  bool operator==(const AlignedAllocator<U, kAlign>&) const { return true; }
  template <typename U>
  bool operator!=(const AlignedAllocator<U, kAlign>&) const { return false; }
};

// A vector of T whose data() is 64-byte aligned.
template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace qnnc

#endif  // QNNC_UTIL_ALIGNED_ALLOCATOR_H_
