#include "kernels/reference/layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_join.h"
#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::Shape;
using tensor::Tensor;

// Copies element src of `from` to element dst of `to` (same dtype).
inline void CopyElement(const uint8_t* from, int64_t src, uint8_t* to, int64_t dst, size_t size) {
  std::memcpy(to + dst * size, from + src * size, size);
}

// Calls f(out_index, in_index) for every output element, where the input
// offset of output coordinate (i_0, ...) is sum_d map[d][i_d] (map entries
// < 0 mean "no source": f gets in_index -1).
template <typename F>
void ForEachMapped(const Shape& out, const std::vector<std::vector<int64_t>>& map, F&& f) {
  int64_t total = 1;
  for (int64_t d : out) total *= d;
  if (total == 0) return;
  const int64_t r = static_cast<int64_t>(out.size());
  std::vector<int64_t> idx(r, 0);
  for (int64_t o = 0; o < total; ++o) {
    int64_t src = 0;
    bool valid = true;
    for (int64_t d = 0; d < r; ++d) {
      const int64_t m = map[d][idx[d]];
      if (m < 0) {
        valid = false;
      } else {
        src += m;
      }
    }
    f(o, valid ? src : -1);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
}

// A new tensor of `shape` whose elements come from x through `map` (as
// ForEachMapped reads it).
absl::StatusOr<Tensor> Gathered(absl::string_view kernel, const Tensor& x, const Shape& shape,
                                const std::vector<std::vector<int64_t>>& map) {
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kernel, x.dtype(), shape));
  const size_t size = tensor::DTypeSize(x.dtype());
  const auto* from = static_cast<const uint8_t*>(x.raw_data());
  auto* to = static_cast<uint8_t*>(out.raw_data());
  ForEachMapped(shape, map, [&](int64_t o, int64_t i) { CopyElement(from, i, to, o, size); });
  return out;
}

// `value` as one element of `dtype`: floats round to nearest, integers
// truncate toward zero and saturate (NaN -> 0), bool is value != 0.
Tensor FillValue(double value, tensor::DType dtype) {
  Tensor t = Tensor::Zeros(dtype, {});
  switch (dtype) {
    case tensor::DType::kF32:
      *t.data<float>() = static_cast<float>(value);
      break;
    case tensor::DType::kF16:
      *t.data<uint16_t>() = tensor::FloatToHalf(static_cast<float>(value));
      break;
    case tensor::DType::kBool:
      *t.data<uint8_t>() = value != 0 ? 1 : 0;
      break;
    default:
      internal::VisitInteger(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *t.data<T>() = static_cast<T>(internal::SaturateToInt(
            std::trunc(value), tensor::DTypeMin(dtype), tensor::DTypeMax(dtype)));
      });
  }
  return t;
}

}  // namespace

absl::StatusOr<Tensor> Transpose(const Tensor& x, const std::vector<int64_t>& perm_in) {
  constexpr absl::string_view kKernel = "Transpose";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  const int64_t r = x.rank();
  std::vector<int64_t> perm = perm_in;
  if (perm.empty()) {
    for (int64_t i = r - 1; i >= 0; --i) perm.push_back(i);
  }
  std::vector<bool> seen(r, false);
  bool ok = static_cast<int64_t>(perm.size()) == r;
  for (int64_t p : perm) {
    if (!ok || p < 0 || p >= r || seen[p]) {
      ok = false;
      break;
    }
    seen[p] = true;
  }
  if (!ok) {
    return Error(kKernel, "perm [", absl::StrJoin(perm_in, ","), "] is not a permutation of rank ",
                 r);
  }
  const std::vector<int64_t> strides = tensor::Strides(x.shape());
  Shape out_shape(r);
  std::vector<std::vector<int64_t>> map(r);
  for (int64_t i = 0; i < r; ++i) {
    out_shape[i] = x.dim(perm[i]);
    for (int64_t j = 0; j < out_shape[i]; ++j) map[i].push_back(j * strides[perm[i]]);
  }
  return Gathered(kKernel, x, out_shape, map);
}

absl::StatusOr<Tensor> Concat(const std::vector<Tensor>& inputs, int64_t axis) {
  constexpr absl::string_view kKernel = "Concat";
  if (inputs.empty()) return Error(kKernel, "needs at least one input");
  for (const Tensor& t : inputs) RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&t}));
  const Tensor& first = inputs[0];
  ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kKernel, axis, first.rank()));
  Shape out_shape = first.shape();
  out_shape[a] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    bool match = t.dtype() == first.dtype() && t.rank() == first.rank();
    for (int64_t d = 0; match && d < t.rank(); ++d) match = d == a || t.dim(d) == first.dim(d);
    if (!match) {
      return Error(kKernel, "input ", i, " (", Name(t.dtype()), " ", ShapeStr(t.shape()),
                   ") does not match input 0 (", Name(first.dtype()), " ", ShapeStr(first.shape()),
                   ") outside axis ", a);
    }
    out_shape[a] += t.dim(a);
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, first.dtype(), out_shape));
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d) outer *= out_shape[d];
  auto* to = static_cast<uint8_t*>(out.raw_data());
  const size_t out_row = out.num_elements() == 0 ? 0 : out.byte_size() / outer;
  size_t offset = 0;
  for (const Tensor& t : inputs) {
    if (t.num_elements() == 0) continue;
    const size_t row = t.byte_size() / outer;
    const auto* from = static_cast<const uint8_t*>(t.raw_data());
    for (int64_t o = 0; o < outer; ++o) std::memcpy(to + o * out_row + offset, from + o * row, row);
    offset += row;
  }
  return out;
}

absl::StatusOr<Tensor> Pad(const Tensor& x, const std::vector<int64_t>& pads,
                           absl::string_view mode, double value) {
  constexpr absl::string_view kKernel = "Pad";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  const int64_t r = x.rank();
  if (static_cast<int64_t>(pads.size()) != 2 * r) {
    return Error(kKernel, "expected ", 2 * r, " pads for rank ", r, ", got ", pads.size());
  }
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    return Error(kKernel, "unknown mode \"", mode, "\" (expected constant, edge or reflect)");
  }
  constexpr int64_t kMaxPad = int64_t{1} << 40;
  const std::vector<int64_t> strides = tensor::Strides(x.shape());
  Shape out_shape(r);
  std::vector<std::vector<int64_t>> map(r);
  for (int64_t d = 0; d < r; ++d) {
    const int64_t begin = pads[d], end = pads[d + r], n = x.dim(d);
    if (begin < 0 || end < 0 || begin > kMaxPad || end > kMaxPad) {
      return Error(kKernel, "pads [", absl::StrJoin(pads, ","), "] must be in [0, 2^40]");
    }
    if (mode == "edge" && n == 0 && begin + end > 0) {
      return Error(kKernel, "edge mode cannot pad empty dimension ", d);
    }
    if (mode == "reflect" && (begin + end > 0) && (begin >= n || end >= n)) {
      return Error(kKernel, "reflect pads ", begin, ",", end, " must be smaller than dimension ", d,
                   " of size ", n);
    }
    out_shape[d] = n + begin + end;
    for (int64_t o = 0; o < out_shape[d]; ++o) {
      int64_t i = o - begin;
      if (i < 0 || i >= n) {
        if (mode == "constant") {
          map[d].push_back(-1);  // no source
          continue;
        }
        if (mode == "edge") i = i < 0 ? 0 : n - 1;
        if (mode == "reflect") i = i < 0 ? -i : 2 * (n - 1) - i;
      }
      map[d].push_back(i * strides[d]);
    }
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, x.dtype(), out_shape));
  const Tensor fill = FillValue(value, x.dtype());
  const size_t size = tensor::DTypeSize(x.dtype());
  const auto* from = static_cast<const uint8_t*>(x.raw_data());
  const auto* fill_bytes = static_cast<const uint8_t*>(fill.raw_data());
  auto* to = static_cast<uint8_t*>(out.raw_data());
  ForEachMapped(out_shape, map, [&](int64_t o, int64_t i) {
    if (i < 0) {
      CopyElement(fill_bytes, 0, to, o, size);
    } else {
      CopyElement(from, i, to, o, size);
    }
  });
  return out;
}

absl::StatusOr<Tensor> Reshape(const Tensor& x, const Shape& new_shape) {
  constexpr absl::string_view kKernel = "Reshape";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  Shape shape = new_shape;
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && infer < 0) {
      infer = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      return Error(kKernel, "invalid target shape ", ShapeStr(new_shape));
    } else {
      if (shape[i] != 0 && known > (int64_t{1} << 62) / shape[i]) {
        return Error(kKernel, "target shape ", ShapeStr(new_shape), " is too large");
      }
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || x.num_elements() % known != 0) {
      return Error(kKernel, "cannot infer -1 in ", ShapeStr(new_shape), " for ",
                   ShapeStr(x.shape()));
    }
    shape[infer] = x.num_elements() / known;
  }
  ASSIGN_OR_RETURN(Tensor view, x.Reshaped(shape));
  return view.Clone();
}

absl::StatusOr<Tensor> StridedSlice(const Tensor& x, const std::vector<int64_t>& begin,
                                    const std::vector<int64_t>& end,
                                    const std::vector<int64_t>& strides) {
  constexpr absl::string_view kKernel = "StridedSlice";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  const int64_t r = x.rank();
  if (static_cast<int64_t>(begin.size()) != r || static_cast<int64_t>(end.size()) != r ||
      static_cast<int64_t>(strides.size()) != r) {
    return Error(kKernel, "needs ", r, " begins, ends and strides for ", ShapeStr(x.shape()));
  }
  const std::vector<int64_t> in_strides = tensor::Strides(x.shape());
  Shape out_shape(r);
  std::vector<std::vector<int64_t>> map(r);
  for (int64_t d = 0; d < r; ++d) {
    const int64_t dim = x.dim(d), b = begin[d], e = end[d], s = strides[d];
    const bool ok = s > 0 ? (b >= 0 && b <= dim && e >= 0 && e <= dim)
                          : (s < 0 && (dim == 0 || (b >= 0 && b < dim)) && e >= -1 && e < dim);
    if (!ok) {
      return Error(kKernel, "dimension ", d, " of ", dim, ": begin ", b, ", end ", e, ", stride ", s,
                   " out of range");
    }
    const int64_t n = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s;
    out_shape[d] = dim == 0 ? 0 : std::max<int64_t>(0, n);
    for (int64_t i = 0; i < out_shape[d]; ++i) map[d].push_back((b + i * s) * in_strides[d]);
  }
  return Gathered(kKernel, x, out_shape, map);
}

absl::StatusOr<Tensor> Take(const Tensor& x, const Tensor& indices, int64_t axis) {
  constexpr absl::string_view kKernel = "Take";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x, &indices}));
  if (indices.dtype() != tensor::DType::kI32 && indices.dtype() != tensor::DType::kI64) {
    return Error(kKernel, "indices must be i32 or i64, got ", Name(indices.dtype()));
  }
  ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kKernel, axis, x.rank()));
  const int64_t dim = x.dim(a);
  // The indices as one dimension of the gathered tensor, reshaped after.
  const int64_t count = indices.num_elements();
  std::vector<int64_t> rows(count);
  for (int64_t j = 0; j < count; ++j) {
    int64_t v = indices.dtype() == tensor::DType::kI32 ? indices.data<int32_t>()[j]
                                                       : indices.data<int64_t>()[j];
    if (v < -dim || v >= dim) {
      return Error(kKernel, "index ", v, " (element ", j, ") is out of range for dimension ", a,
                   " of ", ShapeStr(x.shape()));
    }
    rows[j] = v < 0 ? v + dim : v;
  }
  const std::vector<int64_t> in_strides = tensor::Strides(x.shape());
  Shape flat = x.shape();
  flat[a] = count;
  std::vector<std::vector<int64_t>> map(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) {
    for (int64_t i = 0; i < flat[d]; ++i) map[d].push_back((d == a ? rows[i] : i) * in_strides[d]);
  }
  Shape out_shape(x.shape().begin(), x.shape().begin() + a);
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), x.shape().begin() + a + 1, x.shape().end());
  ASSIGN_OR_RETURN(Tensor out, Gathered(kKernel, x, flat, map));
  return out.Reshaped(out_shape);
}

absl::StatusOr<Tensor> BroadcastTo(const Tensor& x, const Shape& shape) {
  constexpr absl::string_view kKernel = "BroadcastTo";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  const int64_t r = static_cast<int64_t>(shape.size()), lead = r - x.rank();
  bool ok = lead >= 0;
  for (int64_t d = 0; ok && d < x.rank(); ++d) ok = x.dim(d) == 1 || x.dim(d) == shape[lead + d];
  if (!ok) return Error(kKernel, "cannot broadcast ", ShapeStr(x.shape()), " to ", ShapeStr(shape));
  const std::vector<int64_t> in_strides = tensor::Strides(x.shape());
  std::vector<std::vector<int64_t>> map(r);
  for (int64_t d = 0; d < r; ++d) {
    const bool repeat = d < lead || x.dim(d - lead) == 1;
    for (int64_t i = 0; i < shape[d]; ++i) map[d].push_back(repeat ? 0 : i * in_strides[d - lead]);
  }
  return Gathered(kKernel, x, shape, map);
}

}  // namespace qnnc::kernels::reference
