// A two-thread pthreadpool for kernel tests (most kernels are checked both
// on the calling thread and split over two threads).
#ifndef QNNC_KERNELS_TESTING_TWO_THREADS_H_
#define QNNC_KERNELS_TESTING_TWO_THREADS_H_

#include "pthreadpool.h"

namespace qnnc::kernels::testing {

class TwoThreads {
 public:
  TwoThreads() : pool_(pthreadpool_create(2)) {}
  ~TwoThreads() { pthreadpool_destroy(pool_); }
  TwoThreads(const TwoThreads&) = delete;
  TwoThreads& operator=(const TwoThreads&) = delete;

  pthreadpool_t get() const { return pool_; }

 private:
  pthreadpool_t pool_;
};

}  // namespace qnnc::kernels::testing

#endif  // QNNC_KERNELS_TESTING_TWO_THREADS_H_
