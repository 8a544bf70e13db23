#include "kernels/reference/internal/common.h"

#include <algorithm>

#include "absl/strings/str_join.h"

namespace qnnc::kernels::reference::internal {

void DispatchFailure(const char* what, DType dtype) {
  std::fprintf(stderr, "qnnc internal error: %s on dtype %s\n", what, tensor::DTypeName(dtype));
  std::abort();
}

absl::StatusOr<Tensor> NewTensor(absl::string_view kernel, DType dtype, Shape shape) {
  absl::StatusOr<Tensor> t = Tensor::Create(dtype, shape);
  if (!t.ok()) {
    return absl::Status(t.status().code(), absl::StrCat(kernel, ": output ", ShapeStr(shape), " ",
                                                        Name(dtype), ": ", t.status().message()));
  }
  return t;
}

absl::Status CheckDefined(absl::string_view kernel, std::initializer_list<const Tensor*> tensors) {
  int index = 0;
  for (const Tensor* t : tensors) {
    if (!t->defined()) return Error(kernel, "tensor argument ", index, " is undefined");
    ++index;
  }
  return absl::OkStatus();
}

std::string ShapeStr(const Shape& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

absl::StatusOr<int64_t> NormalizeAxis(absl::string_view kernel, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return Error(kernel, "axis ", axis, " is out of range for rank ", rank);
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> IntValues(const Tensor& t) {
  return VisitInteger(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    return std::vector<int64_t>(p, p + t.num_elements());
  });
}

std::vector<float> FloatValues(const Tensor& t) {
  if (t.dtype() == DType::kF32) {
    const float* p = t.data<float>();
    return std::vector<float>(p, p + t.num_elements());
  }
  std::vector<float> v(t.num_elements());
  for (int64_t i = 0; i < t.num_elements(); ++i) v[i] = static_cast<float>(t.GetAsDouble(i));
  return v;
}

Tensor IntTensor(DType dtype, Shape shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::Zeros(dtype, std::move(shape));
  VisitInteger(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) p[i] = static_cast<T>(values[i]);
  });
  return t;
}

absl::StatusOr<std::vector<float>> ReadScales(absl::string_view kernel, absl::string_view what,
                                              const Tensor& t, int64_t channels) {
  if (!t.defined()) return Error(kernel, what, " is undefined");
  if (!tensor::IsFloat(t.dtype())) {
    return Error(kernel, what, " must be f32 or f16, got ", Name(t.dtype()));
  }
  if (t.num_elements() != 1 && t.num_elements() != channels) {
    return Error(kernel, what, " has ", t.num_elements(), " elements (shape ", ShapeStr(t.shape()),
                 "); expected 1 or ", channels);
  }
  std::vector<float> v = FloatValues(t);
  for (float s : v) {
    if (!std::isfinite(s)) return Error(kernel, what, " must be finite, got ", s);
  }
  return v;
}

absl::StatusOr<std::vector<int64_t>> ReadZeroPoints(absl::string_view kernel,
                                                    absl::string_view what, const Tensor& t,
                                                    int64_t channels) {
  if (!t.defined()) return Error(kernel, what, " is undefined");
  if (!tensor::IsInteger(t.dtype())) {
    return Error(kernel, what, " must be an integer tensor, got ", Name(t.dtype()));
  }
  if (t.num_elements() != 1 && t.num_elements() != channels) {
    return Error(kernel, what, " has ", t.num_elements(), " elements (shape ", ShapeStr(t.shape()),
                 "); expected 1 or ", channels);
  }
  return IntValues(t);
}

absl::StatusOr<Shape> BroadcastShapes(absl::string_view kernel, const Shape& a, const Shape& b) {
  const size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) {
      return Error(kernel, "shapes ", ShapeStr(a), " and ", ShapeStr(b),
                   " are not broadcastable (dimension ", i, ": ", da, " vs ", db, ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> in_strides = tensor::Strides(in);
  std::vector<int64_t> s(out.size(), 0);
  const size_t offset = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) s[offset + i] = in[i] == 1 ? 0 : in_strides[i];
  return s;
}

}  // namespace qnnc::kernels::reference::internal
