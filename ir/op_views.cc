#include "ir/op_views.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

template <size_t N>
absl::StatusOr<std::array<int64_t, N>> Ints(const Attrs& a, const char* name,
                                            const std::array<int64_t, N>& dflt, int64_t min) {
  ASSIGN_OR_RETURN(std::vector<int64_t> v, a.GetInts(name, {dflt.begin(), dflt.end()}));
  if (v.size() != N) {
    return absl::InvalidArgumentError(absl::StrCat(name, " needs ", N, " values, got ", v.size()));
  }
  std::array<int64_t, N> out{};
  for (size_t i = 0; i < N; ++i) {
    if (v[i] < min) {
      return absl::InvalidArgumentError(absl::StrCat(name, " must be at least ", min, ", got ", v[i]));
    }
    out[i] = v[i];
  }
  return out;
}

}  // namespace

absl::StatusOr<Conv2DView> Conv2DView::Of(const Attrs& a) {
  Conv2DView v;
  ASSIGN_OR_RETURN(v.strides, Ints<2>(a, "strides", v.strides, 1));
  ASSIGN_OR_RETURN(v.pads, Ints<4>(a, "padding", v.pads, 0));
  ASSIGN_OR_RETURN(v.dilation, Ints<2>(a, "dilation", v.dilation, 1));
  ASSIGN_OR_RETURN(v.groups, a.GetInt("groups", 1));
  if (v.groups < 1) return absl::InvalidArgumentError(absl::StrCat("groups must be at least 1, got ", v.groups));
  ASSIGN_OR_RETURN(v.data_layout, LayoutAttr(a, "data_layout", v.data_layout));
  ASSIGN_OR_RETURN(v.kernel_layout, LayoutAttr(a, "kernel_layout", v.kernel_layout));
  ASSIGN_OR_RETURN(v.out_layout, LayoutAttr(a, "out_layout", v.data_layout));
  return v;
}

absl::StatusOr<Pool2DView> Pool2DView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  Pool2DView v;
  v.has_pool_size = a.Has("pool_size");
  ASSIGN_OR_RETURN(v.pool_size, Ints<2>(a, "pool_size", v.pool_size, 1));
  ASSIGN_OR_RETURN(v.strides, Ints<2>(a, "strides", v.strides, 1));
  ASSIGN_OR_RETURN(v.pads, Ints<4>(a, "padding", v.pads, 0));
  ASSIGN_OR_RETURN(v.dilation, Ints<2>(a, "dilation", v.dilation, 1));
  ASSIGN_OR_RETURN(int64_t ceil_mode, a.GetInt("ceil_mode", 0));
  ASSIGN_OR_RETURN(int64_t include_pad, a.GetInt("count_include_pad", 0));
  v.ceil_mode = ceil_mode != 0;
  v.count_include_pad = include_pad != 0;
  ASSIGN_OR_RETURN(v.layout, LayoutAttr(a, "layout", v.layout));
  return v;
}

absl::StatusOr<RequantizeView> RequantizeView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  RequantizeView v;
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(node));
  v.axis = axis.axis;
  ASSIGN_OR_RETURN(const std::string rounding, a.GetString("rounding", "TONEAREST_EVEN"));
  ASSIGN_OR_RETURN(v.rounding, tensor::ParseRounding(rounding));
  ASSIGN_OR_RETURN(v.out_dtype, internal::DTypeAttr(node, "out_dtype", tensor::DType::kI8));
  if (!tensor::IsInteger(v.out_dtype)) {
    return absl::InvalidArgumentError("out_dtype must be an integer type");
  }
  ASSIGN_OR_RETURN(int64_t lo, a.GetInt("clamp_min", tensor::DTypeMin(v.out_dtype)));
  ASSIGN_OR_RETURN(int64_t hi, a.GetInt("clamp_max", tensor::DTypeMax(v.out_dtype)));
  v.clamp_min = std::max(lo, tensor::DTypeMin(v.out_dtype));
  v.clamp_max = std::min(hi, tensor::DTypeMax(v.out_dtype));
  return v;
}

absl::StatusOr<int64_t> RequantizeView::AxisFor(int64_t rank) const {
  return internal::NormalizeAxis(axis, rank);
}

absl::StatusOr<FusedConvView> FusedConvView::Of(const Node& node) {
  const std::string& op = node.op();
  if (op != "qnn.conv2d" && op != "qnn.conv2d_requantize" && op != "qnn.conv2d_dynamic") {
    return absl::InvalidArgumentError(absl::StrCat("op '", op, "' is not a quantized convolution"));
  }
  const Attrs& a = node.attrs();
  FusedConvView v;
  const tensor::DType dflt = op == "qnn.conv2d_requantize" ? tensor::DType::kU8 : tensor::DType::kI32;
  ASSIGN_OR_RETURN(v.out_dtype, internal::DTypeAttr(node, "out_dtype", dflt));
  if (a.Has("pad_value")) {
    ASSIGN_OR_RETURN(v.pad_value, a.GetFloat("pad_value"));
  }
  if (a.Has("clamp_min")) {
    ASSIGN_OR_RETURN(v.clamp_min, a.GetInt("clamp_min"));
  }
  if (a.Has("clamp_max")) {
    ASSIGN_OR_RETURN(v.clamp_max, a.GetInt("clamp_max"));
  }
  v.clip = a.Has("clip_min") || a.Has("clip_max");
  ASSIGN_OR_RETURN(v.clip_min, a.GetFloat("clip_min", -INFINITY));
  ASSIGN_OR_RETURN(v.clip_max, a.GetFloat("clip_max", INFINITY));
  return v;
}

absl::StatusOr<AxisView> AxisView::Of(const Node& node) {
  struct Default {
    const char* op;
    int64_t axis;
  };
  static constexpr Default kDefaults[] = {
      {"softmax", -1},        {"concat", 0},         {"take", 0},
      {"flatten", 1},         {"nn.bias_add", 1},    {"qnn.quantize", 1},
      {"qnn.dequantize", 1},  {"qnn.requantize", 1}, {"qnn.concat", 1},
      {"fixed_point_multiply", 1},
  };
  for (const Default& d : kDefaults) {
    if (node.op() != d.op) continue;
    AxisView v;
    ASSIGN_OR_RETURN(v.axis, node.attrs().GetInt("axis", d.axis));
    return v;
  }
  return absl::InvalidArgumentError(absl::StrCat("op '", node.op(), "' has no axis attribute"));
}

absl::StatusOr<int64_t> AxisView::AxisFor(int64_t rank) const {
  return internal::NormalizeAxis(axis, rank);
}

}  // namespace qnnc::ir
