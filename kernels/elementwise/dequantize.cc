#include "kernels/elementwise/dequantize.h"

#include <algorithm>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "kernels/elementwise/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;


template <typename Q>
struct DequantizeTask {
  const Q* q;
  float* out;
  size_t n;
  float scale;
  int32_t zp;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const DequantizeTask& t = *static_cast<const DequantizeTask*>(ctx);
    const Q* __restrict q = t.q;
    float* __restrict out = t.out;
    const float scale = t.scale;
    const int64_t zp = t.zp;
    const size_t end = std::min(t.n, start + count);
    // The exact difference converted to float once, as the reference does;
    // in int32 (which vectorizes) when it cannot overflow.
    if (zp >= -(int64_t{1} << 30) && zp <= (int64_t{1} << 30)) {
      const int32_t zp32 = static_cast<int32_t>(zp);
      for (size_t i = start; i < end; ++i) {
        out[i] = static_cast<float>(static_cast<int32_t>(q[i]) - zp32) * scale;
      }
    } else {
      for (size_t i = start; i < end; ++i) {
        out[i] = static_cast<float>(static_cast<int64_t>(q[i]) - zp) * scale;
      }
    }
  }
};

}  // namespace

absl::Status DequantizePerTensor(const Tensor& q, float scale, int32_t zero_point, Tensor* out,
                                 pthreadpool_t pool) {
  if (!q.defined() || (q.dtype() != DType::kU8 && q.dtype() != DType::kI8)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DequantizePerTensor: needs u8 or i8 data, got ",
                     q.defined() ? tensor::DTypeName(q.dtype()) : "undefined"));
  }
  if (out == nullptr) return absl::InvalidArgumentError("DequantizePerTensor: out is null");
  if (!out->defined() || out->dtype() != DType::kF32 || out->shape() != q.shape()) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(DType::kF32, q.shape()));
  }
  const size_t n = static_cast<size_t>(q.num_elements());
  auto launch = [&](auto* tag) {
    using Q = std::remove_pointer_t<decltype(tag)>;
    DequantizeTask<Q> t{q.data<Q>(), out->data<float>(), n, scale, zero_point};
    ParallelRows(pool, CpuClones<&DequantizeTask<Q>::RunBody>::Pick(), &t, q.shape());
  };
  if (q.dtype() == DType::kU8) {
    launch(static_cast<uint8_t*>(nullptr));
  } else {
    launch(static_cast<int8_t*>(nullptr));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
