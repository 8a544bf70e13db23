#include "kernels/elementwise/lookup.h"

#include <algorithm>

namespace qnnc::kernels::elementwise {
namespace {

constexpr int64_t kChunk = 16 << 10;

struct LookupTask {
  const uint8_t* in;
  uint8_t* out;
  const uint8_t* table;
  int64_t n;
  static void Run(void* ctx, size_t chunk) {
    const LookupTask& t = *static_cast<const LookupTask*>(ctx);
    const int64_t begin = static_cast<int64_t>(chunk) * kChunk;
    const int64_t end = std::min(t.n, begin + kChunk);
    for (int64_t i = begin; i < end; ++i) t.out[i] = t.table[t.in[i]];
  }
};

}  // namespace

absl::Status Lookup(const tensor::Tensor& x, const uint8_t* table, tensor::DType out_dtype, tensor::Tensor* out,
                    pthreadpool_t pool) {
  auto byte = [](tensor::DType d) { return d == tensor::DType::kU8 || d == tensor::DType::kI8; };
  if (!x.defined() || !byte(x.dtype()) || !byte(out_dtype) || table == nullptr || out == nullptr) {
    return absl::InvalidArgumentError("Lookup: needs 8-bit data, a 256-entry table and an 8-bit output");
  }
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != x.shape()) {
    auto t = tensor::Tensor::CreateForOverwrite(out_dtype, x.shape());
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  LookupTask task{static_cast<const uint8_t*>(x.raw_data()), static_cast<uint8_t*>(out->raw_data()), table,
                  x.num_elements()};
  const size_t chunks = static_cast<size_t>((task.n + kChunk - 1) / kChunk);
  pthreadpool_parallelize_1d(pool, &LookupTask::Run, &task, chunks, 0);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
