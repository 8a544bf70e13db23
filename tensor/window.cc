#include "tensor/window.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qnnc::tensor {

absl::StatusOr<int64_t> WindowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                         int64_t pad_begin, int64_t pad_end, int64_t dilation,
                                         bool ceil_mode) {
  if (kernel <= 0 || stride <= 0 || dilation <= 0 || pad_begin < 0 || pad_end < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad window: kernel ", kernel, ", stride ", stride, ", dilation ", dilation, ", pads ",
        pad_begin, ",", pad_end));
  }
  // Attributes of a text IR file can be any int64: no size may overflow.
  int64_t span, padded;
  if (__builtin_mul_overflow(dilation, kernel - 1, &span) || __builtin_add_overflow(span, 1, &span) ||
      __builtin_add_overflow(in, pad_begin, &padded) || __builtin_add_overflow(padded, pad_end, &padded)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad window: kernel ", kernel, ", dilation ", dilation, ", pads ", pad_begin, ",", pad_end,
        " overflow int64"));
  }
  if (padded < span) {
    return absl::InvalidArgumentError(absl::StrCat("window of ", span,
                                                   " is larger than the padded input of ", padded));
  }
  int64_t out = ceil_mode ? (padded - span + stride - 1) / stride + 1 : (padded - span) / stride + 1;
  // With ceil mode the last window must start inside the input or left padding.
  if (ceil_mode && (out - 1) * stride >= in + pad_begin) --out;
  return out;
}

}  // namespace qnnc::tensor
