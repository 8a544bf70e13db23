#include "kernels/reference/dense.h"

#include <cstdint>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "kernels/reference/internal/parallel.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

// Integer values minus zero points as wrapping uint32: element i uses
// zero_points[(i / inner) % period] (inner 0: the single zero point).
std::vector<uint32_t> Shifted(const Tensor& t, const std::vector<int64_t>& zero_points,
                              int64_t inner, int64_t period) {
  std::vector<uint32_t> out(t.num_elements());
  internal::VisitInteger(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      const int64_t c = zero_points.size() == 1 ? 0 : (i / inner) % period;
      out[i] = static_cast<uint32_t>(static_cast<int64_t>(p[i]) - zero_points[c]);
    }
  });
  return out;
}

// out[m, n] = sum_k x[m, k] * w[n, k], one (m, n) per task.
template <typename T>
struct DenseTask {
  const T* x;
  const T* w;
  T* y;
  int64_t n, k;
  void operator()(int64_t task) const {
    const T* xr = x + (task / n) * k;
    const T* wr = w + (task % n) * k;
    T acc = 0;
    for (int64_t i = 0; i < k; ++i) acc += xr[i] * wr[i];
    y[task] = acc;
  }
};

struct DenseShape {
  int64_t m, k, n;
  Shape out;
};

absl::StatusOr<DenseShape> CheckDense(absl::string_view kernel, const Tensor& data,
                                      const Tensor& weight) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&data, &weight}));
  if (data.rank() < 1 || weight.rank() != 2 || data.dim(data.rank() - 1) != weight.dim(1)) {
    return Error(kernel, "expected data [..., K] and weight [N, K], got ", ShapeStr(data.shape()),
                 " and ", ShapeStr(weight.shape()));
  }
  DenseShape s;
  s.k = weight.dim(1);
  s.n = weight.dim(0);
  s.m = 1;
  for (int64_t i = 0; i + 1 < data.rank(); ++i) s.m *= data.dim(i);
  s.out = data.shape();
  s.out.back() = s.n;
  return s;
}

// Matrix product geometry with broadcast batch dimensions.
struct MatMulShape {
  int64_t m, k, n;
  Shape out;
  std::vector<int64_t> a_batch, b_batch;  // matrix index of a and b per output matrix
};

absl::StatusOr<MatMulShape> CheckMatMul(absl::string_view kernel, const Tensor& a,
                                        const Tensor& b) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&a, &b}));
  if (a.rank() < 1 || b.rank() < 1) {
    return Error(kernel, "operands must have rank >= 1, got ", ShapeStr(a.shape()), " and ",
                 ShapeStr(b.shape()));
  }
  Shape as = a.shape(), bs = b.shape();
  if (a.rank() == 1) as.insert(as.begin(), 1);
  if (b.rank() == 1) bs.push_back(1);
  MatMulShape s;
  s.m = as[as.size() - 2], s.k = as.back(), s.n = bs.back();
  if (bs[bs.size() - 2] != s.k) {
    return Error(kernel, "inner dimensions differ: ", ShapeStr(a.shape()), " x ",
                 ShapeStr(b.shape()));
  }
  const Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  ASSIGN_OR_RETURN(Shape batch, internal::BroadcastShapes(kernel, a_batch, b_batch));
  internal::ForEachBroadcast(batch, internal::BroadcastStrides(a_batch, batch),
                             internal::BroadcastStrides(b_batch, batch),
                             [&](int64_t, int64_t ia, int64_t ib) {
                               s.a_batch.push_back(ia);
                               s.b_batch.push_back(ib);
                             });
  s.out = batch;
  if (a.rank() > 1) s.out.push_back(s.m);
  if (b.rank() > 1) s.out.push_back(s.n);
  return s;
}

// One row of one output matrix per task: y[m, :] = sum_k a[m, k] * b[k, :].
template <typename T>
struct MatMulTask {
  const T* a;
  const T* b;
  T* y;
  const MatMulShape* s;
  void operator()(int64_t task) const {
    const int64_t batch = task / s->m, m = task % s->m, k_count = s->k, n_count = s->n;
    const T* ar = a + (s->a_batch[batch] * s->m + m) * k_count;
    const T* bm = b + s->b_batch[batch] * k_count * n_count;
    T* __restrict yr = y + task * n_count;
    for (int64_t n = 0; n < n_count; ++n) yr[n] = 0;
    for (int64_t k = 0; k < k_count; ++k) {
      const T av = ar[k];
      const T* __restrict br = bm + k * n_count;
      for (int64_t n = 0; n < n_count; ++n) yr[n] += av * br[n];
    }
  }
};

template <typename T>
void RunMatMul(const MatMulShape& s, const T* a, const T* b, T* y, pthreadpool_t pool) {
  MatMulTask<T> task{a, b, y, &s};
  internal::ParallelFor(pool, static_cast<int64_t>(s.a_batch.size()) * s.m, task);
}

}  // namespace

absl::StatusOr<Tensor> DenseF32(const Tensor& data, const Tensor& weight, pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "DenseF32";
  ASSIGN_OR_RETURN(DenseShape s, CheckDense(kKernel, data, weight));
  if (data.dtype() != DType::kF32 || weight.dtype() != DType::kF32) {
    return Error(kKernel, "expected f32 x f32, got ", Name(data.dtype()), " x ",
                 Name(weight.dtype()));
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kF32, s.out));
  DenseTask<float> task{data.data<float>(), weight.data<float>(), out.data<float>(), s.n, s.k};
  internal::ParallelFor(pool, s.m * s.n, task);
  return out;
}

absl::StatusOr<Tensor> QnnDense(const Tensor& data, const Tensor& weight,
                                const Tensor& input_zero_point, const Tensor& kernel_zero_point,
                                pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "QnnDense";
  ASSIGN_OR_RETURN(DenseShape s, CheckDense(kKernel, data, weight));
  if (!tensor::IsInteger(data.dtype()) || !tensor::IsInteger(weight.dtype())) {
    return Error(kKernel, "expected integer data and weight, got ", Name(data.dtype()), " and ",
                 Name(weight.dtype()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> zx,
                   internal::ReadZeroPoints(kKernel, "input_zero_point", input_zero_point, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> zw,
                   internal::ReadZeroPoints(kKernel, "kernel_zero_point", kernel_zero_point, s.n));
  std::vector<uint32_t> x = Shifted(data, zx, 1, 1), w = Shifted(weight, zw, s.k, s.n);
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kI32, s.out));
  DenseTask<uint32_t> task{x.data(), w.data(), static_cast<uint32_t*>(out.raw_data()), s.n, s.k};
  internal::ParallelFor(pool, s.m * s.n, task);
  return out;
}

absl::StatusOr<Tensor> MatMul(const Tensor& a, const Tensor& b, pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "MatMul";
  ASSIGN_OR_RETURN(MatMulShape s, CheckMatMul(kKernel, a, b));
  if (a.dtype() == DType::kF32 && b.dtype() == DType::kF32) {
    ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kF32, s.out));
    RunMatMul<float>(s, a.data<float>(), b.data<float>(), out.data<float>(), pool);
    return out;
  }
  if (tensor::IsInteger(a.dtype()) && tensor::IsInteger(b.dtype())) {
    std::vector<uint32_t> av = Shifted(a, {0}, 1, 1), bv = Shifted(b, {0}, 1, 1);
    ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kI32, s.out));
    RunMatMul<uint32_t>(s, av.data(), bv.data(), static_cast<uint32_t*>(out.raw_data()), pool);
    return out;
  }
  return Error(kKernel, "expected f32 x f32 or integer x integer, got ", Name(a.dtype()), " x ",
               Name(b.dtype()));
}

absl::StatusOr<Tensor> QnnMatMul(const Tensor& a, const Tensor& b, const Tensor& a_zero_point,
                                 const Tensor& b_zero_point, pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "QnnMatMul";
  ASSIGN_OR_RETURN(MatMulShape s, CheckMatMul(kKernel, a, b));
  if (!tensor::IsInteger(a.dtype()) || !tensor::IsInteger(b.dtype())) {
    return Error(kKernel, "expected integer operands, got ", Name(a.dtype()), " and ",
                 Name(b.dtype()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> za,
                   internal::ReadZeroPoints(kKernel, "a_zero_point", a_zero_point, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> zb,
                   internal::ReadZeroPoints(kKernel, "b_zero_point", b_zero_point, s.n));
  std::vector<uint32_t> av = Shifted(a, za, 1, 1), bv = Shifted(b, zb, 1, s.n);
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kI32, s.out));
  RunMatMul<uint32_t>(s, av.data(), bv.data(), static_cast<uint32_t*>(out.raw_data()), pool);
  return out;
}

}  // namespace qnnc::kernels::reference
