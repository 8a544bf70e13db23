#include "kernels/reference/reduce.h"

#include <limits>
#include <type_traits>

#include "absl/strings/str_join.h"
#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

enum class Kind { kSum, kMean, kMin, kMax };

// Accumulator: float for f32, wrapping uint64 for integer sums, int64
// otherwise (min/max; the mean sums exactly into __int128).
template <typename T>
struct Acc {
  using type = std::conditional_t<std::is_floating_point_v<T>, float, __int128>;
};

template <typename T>
void Reduce(Kind kind, const Tensor& x, const std::vector<bool>& reduced, int64_t count,
            Tensor& out) {
  using A = typename Acc<T>::type;
  const int64_t n_out = out.num_elements();
  std::vector<A> acc(n_out, A{0});
  std::vector<bool> started(n_out, false);
  // Output stride of each input axis (0 when reduced).
  const int64_t r = x.rank();
  std::vector<int64_t> ostride(r, 0);
  for (int64_t d = r - 1, s = 1; d >= 0; --d) {
    if (!reduced[d]) {
      ostride[d] = s;
      s *= x.dim(d);
    }
  }
  std::vector<int64_t> idx(r, 0);
  const T* in = x.data<T>();
  int64_t o = 0;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const A v = static_cast<A>(in[i]);
    if (kind == Kind::kSum || kind == Kind::kMean) {
      acc[o] += v;
    } else if (!started[o] || (kind == Kind::kMin ? v < acc[o] : v > acc[o]) || v != v) {
      if (acc[o] == acc[o]) acc[o] = v;  // keeps a NaN once seen
      started[o] = true;
    }
    for (int64_t d = r - 1; d >= 0; --d) {
      o += ostride[d];
      if (++idx[d] < x.dim(d)) break;
      o -= ostride[d] * x.dim(d);
      idx[d] = 0;
    }
  }
  T* y = out.data<T>();
  for (int64_t j = 0; j < n_out; ++j) {
    if constexpr (std::is_floating_point_v<T>) {
      y[j] = kind == Kind::kMean ? acc[j] / static_cast<float>(count) : acc[j];
    } else if (kind == Kind::kMean) {
      __int128 q = acc[j] / count, rem = acc[j] % count;
      if (rem < 0) {
        rem += count;
        --q;
      }
      if (2 * rem > count || (2 * rem == count && (q & 1) != 0)) ++q;
      y[j] = static_cast<T>(q);  // the mean lies within T's range
    } else {
      y[j] = static_cast<T>(static_cast<uint64_t>(acc[j]));  // sums wrap
    }
  }
}

absl::StatusOr<Tensor> RunReduce(absl::string_view kernel, Kind kind, const Tensor& x,
                                 const std::vector<int64_t>& axes, bool keepdims) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&x}));
  if (!internal::IsIntOrF32(x.dtype())) {
    return Error(kernel, "unsupported dtype ", Name(x.dtype()), " (expected f32 or integer)");
  }
  std::vector<bool> reduced(x.rank(), axes.empty());
  for (int64_t axis : axes) {
    ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kernel, axis, x.rank()));
    if (reduced[a]) return Error(kernel, "duplicate axis in [", absl::StrJoin(axes, ","), "]");
    reduced[a] = true;
  }
  Shape shape;
  int64_t count = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (reduced[d]) {
      count *= x.dim(d);
      if (keepdims) shape.push_back(1);
    } else {
      shape.push_back(x.dim(d));
    }
  }
  if (count == 0 && kind != Kind::kSum && x.num_elements() == 0) {
    bool empty_output = false;
    for (int64_t d = 0; d < x.rank(); ++d) empty_output |= !reduced[d] && x.dim(d) == 0;
    if (!empty_output) return Error(kernel, "reduction over zero elements");
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kernel, x.dtype(), shape));
  internal::VisitNumeric(x.dtype(), [&](auto tag) {
    Reduce<typename decltype(tag)::type>(kind, x, reduced, count, out);
  });
  return out;
}

}  // namespace

absl::StatusOr<Tensor> ReduceSum(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims) {
  return RunReduce("ReduceSum", Kind::kSum, x, axes, keepdims);
}
absl::StatusOr<Tensor> ReduceMean(const Tensor& x, const std::vector<int64_t>& axes,
                                  bool keepdims) {
  return RunReduce("ReduceMean", Kind::kMean, x, axes, keepdims);
}
absl::StatusOr<Tensor> ReduceMin(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims) {
  return RunReduce("ReduceMin", Kind::kMin, x, axes, keepdims);
}
absl::StatusOr<Tensor> ReduceMax(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims) {
  return RunReduce("ReduceMax", Kind::kMax, x, axes, keepdims);
}

}  // namespace qnnc::kernels::reference
