#include "kernels/reference/layout_transform.h"

#include <array>
#include <cstring>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::ShapeStr;
using tensor::Shape;
using tensor::Tensor;

constexpr absl::string_view kKernel = "LayoutTransform";

struct Dim {
  int axis;        // 0..25 for 'A'..'Z'
  int64_t factor;  // 0 for a whole/outer axis, k for an inner part
};

struct Layout {
  std::vector<Dim> dims;
  std::array<int64_t, 26> split{};  // inner factor of each axis, 0 if unsplit
  std::array<bool, 26> present{};
};

absl::StatusOr<Layout> Parse(absl::string_view text) {
  Layout layout;
  std::array<bool, 26> inner_seen{};
  size_t i = 0;
  while (i < text.size()) {
    int64_t factor = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      factor = factor * 10 + (text[i++] - '0');
      if (factor > (int64_t{1} << 31)) return Error(kKernel, "factor too large in \"", text, "\"");
    }
    if (i == text.size()) return Error(kKernel, "layout \"", text, "\" ends with a number");
    const char c = text[i++];
    if (c >= 'A' && c <= 'Z' && factor == 0 && !layout.present[c - 'A']) {
      layout.present[c - 'A'] = true;
      layout.dims.push_back({c - 'A', 0});
    } else if (c >= 'a' && c <= 'z' && factor > 0 && !inner_seen[c - 'a']) {
      inner_seen[c - 'a'] = true;
      layout.split[c - 'a'] = factor;
      layout.dims.push_back({c - 'a', factor});
    } else {
      return Error(kKernel, "malformed layout \"", text, "\" at '", std::string(1, c), "'");
    }
  }
  for (int a = 0; a < 26; ++a) {
    if (inner_seen[a] && !layout.present[a]) {
      return Error(kKernel, "layout \"", text, "\" splits an axis it does not have");
    }
  }
  return layout;
}

}  // namespace

absl::StatusOr<Tensor> LayoutTransform(const Tensor& x, absl::string_view src_layout,
                                       absl::string_view dst_layout) {
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  ASSIGN_OR_RETURN(Layout src, Parse(src_layout));
  ASSIGN_OR_RETURN(Layout dst, Parse(dst_layout));
  if (src.present != dst.present) {
    return Error(kKernel, "unsupported conversion \"", src_layout, "\" -> \"", dst_layout,
                 "\" (different axes)");
  }
  if (static_cast<int64_t>(src.dims.size()) != x.rank()) {
    return Error(kKernel, "layout \"", src_layout, "\" does not match shape ", ShapeStr(x.shape()));
  }
  // Logical extent of every axis and the source stride of its parts.
  std::array<int64_t, 26> extent{}, outer_stride{}, inner_stride{};
  const std::vector<int64_t> strides = tensor::Strides(x.shape());
  for (size_t d = 0; d < src.dims.size(); ++d) {
    const Dim& dim = src.dims[d];
    if (dim.factor > 0) {
      if (x.dim(d) != dim.factor) {
        return Error(kKernel, "dimension ", d, " of ", ShapeStr(x.shape()), " must be ", dim.factor,
                     " for layout \"", src_layout, "\"");
      }
      inner_stride[dim.axis] = strides[d];
    } else {
      outer_stride[dim.axis] = strides[d];
    }
  }
  for (size_t d = 0; d < src.dims.size(); ++d) {
    const Dim& dim = src.dims[d];
    if (dim.factor == 0)
      extent[dim.axis] = x.dim(d) * (src.split[dim.axis] > 0 ? src.split[dim.axis] : 1);
  }
  Shape out_shape;
  for (const Dim& dim : dst.dims) {
    const int64_t k = dst.split[dim.axis];
    out_shape.push_back(
        dim.factor > 0 ? dim.factor : (k > 0 ? (extent[dim.axis] + k - 1) / k : extent[dim.axis]));
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, x.dtype(), out_shape));
  if (out.num_elements() == 0) return out;
  const size_t size = tensor::DTypeSize(x.dtype());
  const auto* from = static_cast<const uint8_t*>(x.raw_data());
  auto* to = static_cast<uint8_t*>(out.raw_data());
  const int64_t r = static_cast<int64_t>(out_shape.size());
  std::vector<int64_t> idx(r, 0);
  std::array<int64_t, 26> coord{};
  for (int64_t o = 0; o < out.num_elements(); ++o) {
    // Logical coordinate of every axis, then its source offset.
    for (int64_t d = 0; d < r; ++d) {
      const Dim& dim = dst.dims[d];
      if (dim.factor == 0)
        coord[dim.axis] = idx[d] * (dst.split[dim.axis] > 0 ? dst.split[dim.axis] : 1);
    }
    for (int64_t d = 0; d < r; ++d) {
      if (dst.dims[d].factor > 0) coord[dst.dims[d].axis] += idx[d];
    }
    int64_t offset = 0;
    bool inside = true;
    for (int a = 0; a < 26 && inside; ++a) {
      if (!src.present[a]) continue;
      if (coord[a] >= extent[a]) {
        inside = false;
      } else if (src.split[a] > 0) {
        offset +=
            coord[a] / src.split[a] * outer_stride[a] + coord[a] % src.split[a] * inner_stride[a];
      } else {
        offset += coord[a] * outer_stride[a];
      }
    }
    if (inside) std::memcpy(to + o * size, from + offset * size, size);  // else stays zero
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace qnnc::kernels::reference
