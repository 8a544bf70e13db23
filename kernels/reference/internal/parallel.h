// Runs tasks 0..n-1 serially or on a pthreadpool.
#ifndef QNNC_KERNELS_REFERENCE_INTERNAL_PARALLEL_H_
#define QNNC_KERNELS_REFERENCE_INTERNAL_PARALLEL_H_

#include <cstddef>
#include <cstdint>

#include "pthreadpool.h"

namespace qnnc::kernels::reference::internal {

// Calls task(i) for i in [0, n); on `pool` when it is not null.
template <typename Task>
void ParallelFor(pthreadpool_t pool, int64_t n, Task& task) {
  if (pool == nullptr || n <= 1) {
    for (int64_t i = 0; i < n; ++i) task(i);
    return;
  }
  pthreadpool_parallelize_1d(
      pool,
      [](void* context, size_t i) { (*static_cast<Task*>(context))(static_cast<int64_t>(i)); },
      &task, static_cast<size_t>(n), /*flags=*/0);
}

}  // namespace qnnc::kernels::reference::internal

#endif  // QNNC_KERNELS_REFERENCE_INTERNAL_PARALLEL_H_
