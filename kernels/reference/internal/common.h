// Helpers shared by the reference kernels: dtype dispatch, error messages,
// rounding and saturation, quantization parameter reading and broadcasting.
#ifndef QNNC_KERNELS_REFERENCE_INTERNAL_COMMON_H_
#define QNNC_KERNELS_REFERENCE_INTERNAL_COMMON_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference::internal {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

template <typename T>
struct Tag {
  using type = T;
};

[[noreturn]] void DispatchFailure(const char* what, DType dtype);

// Calls f(Tag<T>{}) with the C++ type T of an integer dtype (u8..i64). The
// caller has already checked tensor::IsInteger(dtype).
template <typename F>
decltype(auto) VisitInteger(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kU8:
      return f(Tag<uint8_t>{});
    case DType::kI8:
      return f(Tag<int8_t>{});
    case DType::kU16:
      return f(Tag<uint16_t>{});
    case DType::kI16:
      return f(Tag<int16_t>{});
    case DType::kI32:
      return f(Tag<int32_t>{});
    case DType::kI64:
      return f(Tag<int64_t>{});
    default:
      break;
  }
  DispatchFailure("VisitInteger", dtype);
}

// Like VisitInteger, also accepting f32 (T = float).
template <typename F>
decltype(auto) VisitNumeric(DType dtype, F&& f) {
  if (dtype == DType::kF32) return f(Tag<float>{});
  return VisitInteger(dtype, std::forward<F>(f));
}

inline bool IsIntOrF32(DType d) { return d == DType::kF32 || tensor::IsInteger(d); }

// InvalidArgumentError("<kernel>: <args...>").
template <typename... Args>
absl::Status Error(absl::string_view kernel, const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(kernel, ": ", args...));
}

// Tensor::Create with errors (bad or too large shape) naming `kernel`.
absl::StatusOr<Tensor> NewTensor(absl::string_view kernel, DType dtype, Shape shape);

// An error naming `kernel` if any tensor is undefined (default-constructed).
absl::Status CheckDefined(absl::string_view kernel, std::initializer_list<const Tensor*> tensors);

std::string ShapeStr(const Shape& shape);  // "[1,3,224,224]"
inline const char* Name(DType d) { return tensor::DTypeName(d); }

// Round half to even (std::nearbyint under the default rounding mode).
inline float RoundHalfEven(float v) { return std::nearbyint(v); }

// Truncates v toward zero and clamps it to [lo, hi]; never overflows. NaN
// gives 0 clamped to [lo, hi] (callers with other NaN rules check first).
inline int64_t SaturateToInt(double v, int64_t lo, int64_t hi) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (std::isnan(v)) return 0 < lo ? lo : (0 > hi ? hi : 0);
  if (v >= kTwo63) return hi;
  if (v < -kTwo63) return lo;
  int64_t r = static_cast<int64_t>(v);
  return r < lo ? lo : (r > hi ? hi : r);
}

// float(a - b), exact before the final rounding even when a - b overflows int64.
inline float DiffToFloat(int64_t a, int64_t b) {
  int64_t d;
  if (!__builtin_sub_overflow(a, b, &d)) return static_cast<float>(d);
  return static_cast<float>(static_cast<__int128>(a) - static_cast<__int128>(b));
}

// Normalizes a possibly negative axis into [0, rank).
absl::StatusOr<int64_t> NormalizeAxis(absl::string_view kernel, int64_t axis, int64_t rank);

// All elements of an integer tensor as int64 / of an f32 or f16 tensor as float.
std::vector<int64_t> IntValues(const Tensor& t);
std::vector<float> FloatValues(const Tensor& t);
// Tensor of integer dtype `dtype` from values already inside its range.
Tensor IntTensor(DType dtype, Shape shape, const std::vector<int64_t>& values);

// Reads a quantization scale (f32/f16) or zero point (integer) tensor holding
// either one element or `channels` elements; `what` names it in errors.
absl::StatusOr<std::vector<float>> ReadScales(absl::string_view kernel, absl::string_view what,
                                              const Tensor& t, int64_t channels);
absl::StatusOr<std::vector<int64_t>> ReadZeroPoints(absl::string_view kernel,
                                                    absl::string_view what, const Tensor& t,
                                                    int64_t channels);
// Value for channel c of a per-tensor (size 1) or per-channel parameter.
template <typename T>
T PerChannel(const std::vector<T>& v, int64_t c) {
  return v.size() == 1 ? v[0] : v[c];
}

// Numpy broadcasting of two shapes.
absl::StatusOr<Shape> BroadcastShapes(absl::string_view kernel, const Shape& a, const Shape& b);
// Element strides of `in` viewed with the shape `out` it broadcasts to (right
// aligned, 0 on broadcast dimensions).
std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out);

// Calls f(out_index, a_index, b_index) for every element of `out` in row-major
// order, where a and b have broadcast strides sa and sb.
template <typename F>
void ForEachBroadcast(const Shape& out, const std::vector<int64_t>& sa,
                      const std::vector<int64_t>& sb, F&& f) {
  int64_t total = 1;
  for (int64_t d : out) total *= d;
  if (total == 0) return;
  const int64_t r = static_cast<int64_t>(out.size());
  if (r == 0) {
    f(int64_t{0}, int64_t{0}, int64_t{0});
    return;
  }
  // Adjacent dimensions both operands step through as one (each contiguous
  // across them, or broadcast along both) merge, so that the inner loop runs
  // as long as it can: w - zw over OIHW weights is one loop per output
  // channel, not one per kernel row.
  std::vector<int64_t> dims = {out[0]}, da = {sa[0]}, db = {sb[0]};
  for (int64_t d = 1; d < r; ++d) {
    if (da.back() == sa[d] * out[d] && db.back() == sb[d] * out[d]) {
      dims.back() *= out[d];
      da.back() = sa[d];
      db.back() = sb[d];
    } else {
      dims.push_back(out[d]);
      da.push_back(sa[d]);
      db.push_back(sb[d]);
    }
  }
  const int64_t m = static_cast<int64_t>(dims.size());
  const int64_t inner = dims[m - 1], step_a = da[m - 1], step_b = db[m - 1];
  std::vector<int64_t> idx(m, 0);
  int64_t a = 0, b = 0;
  for (int64_t o = 0; o < total; o += inner) {
    for (int64_t j = 0; j < inner; ++j) f(o + j, a + j * step_a, b + j * step_b);
    for (int64_t d = m - 2; d >= 0; --d) {
      ++idx[d];
      a += da[d];
      b += db[d];
      if (idx[d] < dims[d]) break;
      a -= da[d] * dims[d];
      b -= db[d] * dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace qnnc::kernels::reference::internal

#endif  // QNNC_KERNELS_REFERENCE_INTERNAL_COMMON_H_
