#include "kernels/layout/strided_copy.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::Shape;
using tensor::Tensor;

// A copy of `shape` elements from src (byte strides src_strides) to dst
// (byte strides dst_strides), `elem` bytes each. Dimensions of size 1 are
// dropped and neighbours that are contiguous on both sides merged, so that
// the innermost run is as long as the layouts allow.
struct Copy {
  const uint8_t* src;
  uint8_t* dst;
  std::vector<int64_t> shape, src_strides, dst_strides;
  size_t elem;
  int64_t outer;  // items of the parallel loop: all but the last dimension

  void Simplify() {
    std::vector<int64_t> sh, ss, ds;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      if (!sh.empty() && ss.back() == src_strides[d] * shape[d] &&
          ds.back() == dst_strides[d] * shape[d]) {
        sh.back() *= shape[d];
        ss.back() = src_strides[d];
        ds.back() = dst_strides[d];
        continue;
      }
      sh.push_back(shape[d]);
      ss.push_back(src_strides[d]);
      ds.push_back(dst_strides[d]);
    }
    if (sh.empty()) {
      sh = {1};
      ss = {static_cast<int64_t>(elem)};
      ds = {static_cast<int64_t>(elem)};
    }
    shape = sh;
    src_strides = ss;
    dst_strides = ds;
    outer = 1;
    for (size_t d = 0; d + 1 < shape.size(); ++d) outer *= shape[d];
  }

  static void Row(void* ctx, size_t item) {
    const Copy& c = *static_cast<const Copy*>(ctx);
    const size_t r = c.shape.size();
    const uint8_t* s = c.src;
    uint8_t* d = c.dst;
    int64_t rest = static_cast<int64_t>(item);
    for (size_t k = r - 1; k-- > 0;) {
      const int64_t i = rest % c.shape[k];
      rest /= c.shape[k];
      s += i * c.src_strides[k];
      d += i * c.dst_strides[k];
    }
    const int64_t n = c.shape[r - 1], ss = c.src_strides[r - 1], ds = c.dst_strides[r - 1];
    const int64_t e = static_cast<int64_t>(c.elem);
    if (ss == e && ds == e) {
      std::memcpy(d, s, n * c.elem);
    } else if (c.elem == 1) {
      for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];
    } else if (c.elem == 4) {
      for (int64_t i = 0; i < n; ++i) std::memcpy(d + i * ds, s + i * ss, 4);
    } else {
      for (int64_t i = 0; i < n; ++i) std::memcpy(d + i * ds, s + i * ss, c.elem);
    }
  }

  void Run(pthreadpool_t pool) {
    Simplify();
    pthreadpool_parallelize_1d(pool, &Copy::Row, this, static_cast<size_t>(outer), 0);
  }
};

std::vector<int64_t> ByteStrides(const Shape& shape, size_t elem) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = static_cast<int64_t>(elem);
  for (size_t d = shape.size(); d-- > 0;) {
    s[d] = acc;
    acc *= shape[d];
  }
  return s;
}

absl::Status Prepare(const Tensor& x, const Shape& shape, Tensor* out, const char* kernel) {
  if (out == nullptr) return absl::InvalidArgumentError(absl::StrCat(kernel, ": no output"));
  if (!out->defined() || out->dtype() != x.dtype() || out->shape() != shape) {
    auto t = Tensor::CreateForOverwrite(x.dtype(), shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  return absl::OkStatus();
}

// Writes out (x's dtype, `shape`, densely) from x's bytes at `offset` read
// with `src_strides` (bytes, one per dimension of `shape`).
absl::Status ReadInto(const Tensor& x, int64_t offset, std::vector<int64_t> src_strides, const Shape& shape,
                      Tensor* out, const char* kernel, pthreadpool_t pool) {
  if (absl::Status s = Prepare(x, shape, out, kernel); !s.ok()) return s;
  if (out->num_elements() == 0) return absl::OkStatus();
  const size_t elem = tensor::DTypeSize(x.dtype());
  Copy c;
  c.src = static_cast<const uint8_t*>(x.raw_data()) + offset;
  c.dst = static_cast<uint8_t*>(out->raw_data());
  c.shape = shape;
  c.src_strides = std::move(src_strides);
  c.dst_strides = ByteStrides(shape, elem);
  c.elem = elem;
  c.Run(pool);
  return absl::OkStatus();
}

}  // namespace

absl::Status Transpose(const Tensor& x, const std::vector<int64_t>& perm, Tensor* out,
                       pthreadpool_t pool) {
  const int64_t r = x.rank();
  std::vector<bool> seen(r, false);
  bool ok = x.defined() && static_cast<int64_t>(perm.size()) == r;
  for (size_t i = 0; ok && i < perm.size(); ++i) {
    ok = perm[i] >= 0 && perm[i] < r && !seen[perm[i]];
    if (ok) seen[perm[i]] = true;
  }
  if (!ok) return absl::InvalidArgumentError(absl::StrCat("Transpose: [", absl::StrJoin(perm, ","), "] is not a permutation of the rank"));
  const size_t elem = tensor::DTypeSize(x.dtype());
  const std::vector<int64_t> in = ByteStrides(x.shape(), elem);
  Shape shape(r);
  std::vector<int64_t> src;  // byte strides, one per output dimension
  for (int64_t i = 0; i < r; ++i) {
    shape[i] = x.dim(perm[i]);
    src.push_back(in[perm[i]]);
  }
  return ReadInto(x, 0, std::move(src), shape, out, "Transpose", pool);
}

absl::Status StridedSlice(const Tensor& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                          const std::vector<int64_t>& strides, Tensor* out, pthreadpool_t pool) {
  const int64_t r = x.rank();
  if (!x.defined() || static_cast<int64_t>(begin.size()) != r || end.size() != begin.size() ||
      strides.size() != begin.size()) {
    return absl::InvalidArgumentError("StridedSlice: needs a begin, end and stride per dimension");
  }
  const size_t elem = tensor::DTypeSize(x.dtype());
  const std::vector<int64_t> in = ByteStrides(x.shape(), elem);
  Shape shape(r);
  std::vector<int64_t> src;  // byte strides, one per output dimension
  int64_t offset = 0;
  for (int64_t d = 0; d < r; ++d) {
    const int64_t dim = x.dim(d), b = begin[d], e = end[d], s = strides[d];
    const bool ok = s > 0 ? (b >= 0 && b <= dim && e >= 0 && e <= dim)
                          : (s < 0 && (dim == 0 || (b >= 0 && b < dim)) && e >= -1 && e < dim);
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat("StridedSlice: dimension ", d, " of ", dim, ": begin ", b,
                                                     ", end ", e, ", stride ", s, " out of range"));
    }
    const int64_t n = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s;
    shape[d] = dim == 0 ? 0 : std::max<int64_t>(0, n);
    if (shape[d] > 0) offset += b * in[d];
    src.push_back(in[d] * s);
  }
  return ReadInto(x, offset, std::move(src), shape, out, "StridedSlice", pool);
}

absl::Status BroadcastTo(const Tensor& x, const Shape& shape, Tensor* out, pthreadpool_t pool) {
  const int64_t r = static_cast<int64_t>(shape.size()), lead = x.defined() ? r - x.rank() : -1;
  bool ok = lead >= 0;
  for (int64_t d = 0; ok && d < x.rank(); ++d) ok = x.dim(d) == 1 || x.dim(d) == shape[lead + d];
  if (!ok) return absl::InvalidArgumentError("BroadcastTo: the input does not broadcast to the shape");
  const size_t elem = tensor::DTypeSize(x.dtype());
  const std::vector<int64_t> in = ByteStrides(x.shape(), elem);
  std::vector<int64_t> src;  // byte strides, one per output dimension
  for (int64_t d = 0; d < r; ++d) {
    src.push_back(d < lead || x.dim(d - lead) == 1 ? 0 : in[d - lead]);
  }
  return ReadInto(x, 0, std::move(src), shape, out, "BroadcastTo", pool);
}

absl::Status PadConstant(const Tensor& x, const std::vector<int64_t>& pads, const Tensor& fill, Tensor* out,
                         pthreadpool_t pool) {
  const int64_t r = x.defined() ? x.rank() : 0;
  bool ok = x.defined() && static_cast<int64_t>(pads.size()) == 2 * r && fill.defined() &&
            fill.dtype() == x.dtype() && fill.num_elements() == 1;
  for (int64_t p : pads) ok = ok && p >= 0;
  if (!ok) return absl::InvalidArgumentError("PadConstant: needs 2 * rank pads >= 0 and one fill element of the dtype");
  Shape shape = x.shape();
  for (int64_t d = 0; d < r; ++d) shape[d] += pads[d] + pads[d + r];
  if (absl::Status s = Prepare(x, shape, out, "PadConstant"); !s.ok()) return s;
  if (out->num_elements() == 0) return absl::OkStatus();
  const size_t elem = tensor::DTypeSize(x.dtype());
  auto* dst = static_cast<uint8_t*>(out->raw_data());
  const auto* value = static_cast<const uint8_t*>(fill.raw_data());
  bool bytes_equal = true;
  for (size_t b = 1; b < elem; ++b) bytes_equal = bytes_equal && value[b] == value[0];
  if (bytes_equal) {
    std::memset(dst, value[0], out->byte_size());
  } else {
    for (int64_t i = 0; i < out->num_elements(); ++i) std::memcpy(dst + i * elem, value, elem);
  }
  if (x.num_elements() == 0) return absl::OkStatus();
  const std::vector<int64_t> outs = ByteStrides(shape, elem);
  Copy c;
  int64_t offset = 0;
  for (int64_t d = 0; d < r; ++d) offset += pads[d] * outs[d];
  c.src = static_cast<const uint8_t*>(x.raw_data());
  c.dst = dst + offset;
  c.shape = x.shape();
  c.src_strides = ByteStrides(x.shape(), elem);
  c.dst_strides = outs;
  c.elem = elem;
  c.Run(pool);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::layout
