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

absl::StatusOr<std::array<int64_t, 2>> ConvGeometry::OutputSize(int64_t h, int64_t w, int64_t kh, int64_t kw,
                                                                bool ceil_mode) const {
  absl::StatusOr<int64_t> oh = WindowOutputSize(h, kh, strides[0], pads[0], pads[2], dilation[0], ceil_mode);
  if (!oh.ok()) return oh.status();
  absl::StatusOr<int64_t> ow = WindowOutputSize(w, kw, strides[1], pads[1], pads[3], dilation[1], ceil_mode);
  if (!ow.ok()) return ow.status();
  return std::array<int64_t, 2>{*oh, *ow};
}

}  // namespace qnnc::tensor
