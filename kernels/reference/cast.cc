#include "kernels/reference/cast.h"

#include <cmath>
#include <cstring>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;

// A source element read exactly: either an integer or a float value.
struct Value {
  bool is_float;
  int64_t i;
  float f;
};

Value Read(const Tensor& x, int64_t idx) {
  switch (x.dtype()) {
    case DType::kF32:
      return {true, 0, x.data<float>()[idx]};
    case DType::kF16:
      return {true, 0, tensor::HalfToFloat(x.data<uint16_t>()[idx])};
    case DType::kBool:
      return {false, x.data<uint8_t>()[idx] != 0 ? 1 : 0, 0};
    default:
      return {false, x.GetAsInt(idx), 0};
  }
}

void Write(Tensor& out, int64_t idx, const Value& v) {
  const DType to = out.dtype();
  switch (to) {
    case DType::kF32:
      out.data<float>()[idx] = v.is_float ? v.f : static_cast<float>(v.i);
      return;
    case DType::kF16:
      out.data<uint16_t>()[idx] = tensor::FloatToHalf(v.is_float ? v.f : static_cast<float>(v.i));
      return;
    case DType::kBool:
      out.data<uint8_t>()[idx] = (v.is_float ? v.f != 0 : v.i != 0) ? 1 : 0;
      return;
    default:
      break;
  }
  // Integer target: floats truncate and saturate, integers wrap.
  const int64_t i = v.is_float ? internal::SaturateToInt(std::trunc(v.f), tensor::DTypeMin(to),
                                                         tensor::DTypeMax(to))
                               : v.i;
  internal::VisitInteger(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out.data<T>()[idx] = static_cast<T>(static_cast<uint64_t>(i));
  });
}

}  // namespace

absl::StatusOr<Tensor> Cast(const Tensor& x, DType to) {
  RETURN_IF_ERROR(internal::CheckDefined("Cast", {&x}));
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor("Cast", to, x.shape()));
  if (x.dtype() == to) {
    if (x.byte_size() > 0) std::memcpy(out.raw_data(), x.raw_data(), x.byte_size());
    return out;
  }
  if (tensor::IsInteger(x.dtype()) && tensor::IsInteger(to)) {
    // The common case (weights widened for a legalization), typed: the
    // same wrapping as Write's, without a dispatch per element.
    internal::VisitInteger(x.dtype(), [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      internal::VisitInteger(to, [&](auto to_tag) {
        using To = typename decltype(to_tag)::type;
        const From* in = x.data<From>();
        To* o = out.data<To>();
        for (int64_t i = 0; i < x.num_elements(); ++i) {
          o[i] = static_cast<To>(static_cast<uint64_t>(static_cast<int64_t>(in[i])));
        }
      });
    });
    return out;
  }
  for (int64_t i = 0; i < x.num_elements(); ++i) Write(out, i, Read(x, i));
  return out;
}

}  // namespace qnnc::kernels::reference
