#include "kernels/elementwise/int16_ops.h"

#include <algorithm>
#include <cstdint>

#include "kernels/cpu_clones.h"
#include "kernels/elementwise/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

struct SubtractTask {
  const int16_t* x;
  uint16_t s;
  int16_t* out;
  int64_t n;
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const SubtractTask& t = *static_cast<const SubtractTask*>(ctx);
    const int16_t* __restrict x = t.x;
    int16_t* __restrict out = t.out;
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    // In uint16_t, where the difference wraps as the reference's does.
    for (int64_t i = static_cast<int64_t>(start); i < end; ++i) {
      out[i] = static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint16_t>(x[i]) - t.s));
    }
  }
};

}  // namespace

absl::Status WidenToI16(const Tensor& x, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || (x.dtype() != DType::kU8 && x.dtype() != DType::kI8)) {
    return absl::InvalidArgumentError("WidenToI16: needs u8 or i8");
  }
  RETURN_IF_ERROR(PrepareOutput(out, DType::kI16, x.shape(), "WidenToI16"));
  if (x.dtype() == DType::kU8) {
    CastTask<uint8_t, int16_t> t{x.data<uint8_t>(), out->data<int16_t>(), x.num_elements()};
    ParallelRows(pool, CpuClones<&CastTask<uint8_t, int16_t>::RunBody>::Pick(), &t, x.shape());
  } else {
    CastTask<int8_t, int16_t> t{x.data<int8_t>(), out->data<int16_t>(), x.num_elements()};
    ParallelRows(pool, CpuClones<&CastTask<int8_t, int16_t>::RunBody>::Pick(), &t, x.shape());
  }
  return absl::OkStatus();
}

absl::Status SubtractScalarI16(const Tensor& x, const Tensor& scalar, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || !scalar.defined() || x.dtype() != DType::kI16 || scalar.dtype() != DType::kI16 ||
      scalar.num_elements() != 1) {
    return absl::InvalidArgumentError("SubtractScalarI16: needs an i16 tensor and a one-element i16 tensor");
  }
  RETURN_IF_ERROR(PrepareOutput(out, DType::kI16, x.shape(), "SubtractScalarI16"));
  SubtractTask t{x.data<int16_t>(), static_cast<uint16_t>(scalar.data<int16_t>()[0]), out->data<int16_t>(),
                 x.num_elements()};
  ParallelRows(pool, CpuClones<&SubtractTask::RunBody>::Pick(), &t, x.shape());
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
