// The one thread pool of a run, shared by every kernel (and XNNPACK later).
#ifndef QNNC_RUNTIME_THREAD_POOL_H_
#define QNNC_RUNTIME_THREAD_POOL_H_

#include <memory>

#include "pthreadpool.h"

namespace qnnc::runtime {

class ThreadPool {
 public:
  // threads <= 1 runs everything on the calling thread (pool() is nullptr).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  pthreadpool_t pool() const { return pool_; }
  int threads() const { return threads_; }

 private:
  pthreadpool_t pool_ = nullptr;
  int threads_ = 1;
};

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_THREAD_POOL_H_
