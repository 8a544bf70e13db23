// For the aarch64 build of portable_cases_main.cc only (aarch64_qemu_test.sh):
// there is no aarch64 pthreadpool to link, and the cases run with a null
// pool, which pthreadpool runs on the calling thread. This gives the one
// entry point the kernels call that meaning, serially.
#include <cstddef>

#include "pthreadpool.h"

extern "C" void pthreadpool_parallelize_2d(pthreadpool_t, pthreadpool_task_2d_t task, void* ctx,
                                           size_t range_i, size_t range_j, uint32_t) {
  for (size_t i = 0; i < range_i; ++i) {
    for (size_t j = 0; j < range_j; ++j) task(ctx, i, j);
  }
}
