#include "runtime/thread_pool.h"

namespace qnnc::runtime {

ThreadPool::ThreadPool(int threads) : threads_(threads < 1 ? 1 : threads) {
  if (threads_ > 1) pool_ = pthreadpool_create(static_cast<size_t>(threads_));
  if (pool_ == nullptr) threads_ = 1;
}

ThreadPool::~ThreadPool() {
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
}

}  // namespace qnnc::runtime
