#include "kernels/reference/softmax.h"

#include <cmath>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {

using tensor::DType;
using tensor::Tensor;

absl::StatusOr<Tensor> Softmax(const Tensor& x, int64_t axis) {
  constexpr absl::string_view kKernel = "Softmax";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  if (x.dtype() != DType::kF32) {
    return internal::Error(kKernel, "unsupported dtype ", internal::Name(x.dtype()), " (expected f32)");
  }
  ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kKernel, axis, x.rank()));
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kF32, x.shape()));
  // x as [outer, n, inner]: each (outer, inner) pair is one slice of n.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < a; ++d) outer *= x.dim(d);
  for (int64_t d = a + 1; d < x.rank(); ++d) inner *= x.dim(d);
  const int64_t n = x.dim(a);
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < outer; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      const int64_t base = i * n * inner + j;
      float max = -INFINITY;
      for (int64_t k = 0; k < n; ++k) max = std::fmax(max, in[base + k * inner]);
      float sum = 0.0f;
      for (int64_t k = 0; k < n; ++k) {
        const float e = std::exp(in[base + k * inner] - max);
        o[base + k * inner] = e;
        sum += e;
      }
      for (int64_t k = 0; k < n; ++k) o[base + k * inner] /= sum;
    }
  }
  return out;
}

}  // namespace qnnc::kernels::reference
