// Type relations and registration of the ops that move values without
// computing on them: layout_transform, transpose, reshape, flatten,
// strided_slice, take, broadcast_to, concat, qnn.concat, nn.pad and resize.
#include <algorithm>
#include <array>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::ExpectQuantParam;
using internal::One;
using internal::RegisterOrDie;

absl::StatusOr<std::vector<TensorType>> ConcatRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  ASSIGN_OR_RETURN(int64_t a, axis.AxisFor(t[0].rank()));
  Shape out = t[0].shape;
  for (size_t i = 1; i < t.size(); ++i) {
    bool ok = t[i].dtype == t[0].dtype && t[i].rank() == t[0].rank();
    for (int64_t d = 0; ok && d < t[0].rank(); ++d) ok = d == a || t[i].shape[d] == out[d];
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", t[i].ToString(),
                                                     " cannot be concatenated with ",
                                                     t[0].ToString(), " on axis ", a));
    }
    out[a] += t[i].shape[a];
  }
  return One({t[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> ReshapeRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(const ReshapeView view, ReshapeView::Of(in.node));
  const std::vector<int64_t>& newshape = view.newshape;
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(int64_t n, tensor::NumElements(x.shape));
  for (int64_t d : newshape) {
    if (d < 0) return absl::InvalidArgumentError("newshape must be fully resolved (no -1 or 0)");
  }
  ASSIGN_OR_RETURN(int64_t m, tensor::NumElements(newshape));
  if (n != m) {
    return absl::InvalidArgumentError(absl::StrCat("cannot reshape ", x.ToString(), " to [",
                                                   absl::StrJoin(newshape, ","), "]"));
  }
  return One({x.dtype, newshape});
}

absl::StatusOr<std::vector<TensorType>> FlattenRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const AxisView view, AxisView::Of(in.node));
  const int64_t axis = view.axis;
  int64_t a = axis < 0 ? axis + x.rank() : axis;
  if (a < 0 || a > x.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("axis ", axis, " out of range for ", x.ToString()));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < x.rank(); ++i) (i < a ? outer : inner) *= x.shape[i];
  return One({x.dtype, {outer, inner}});
}

absl::StatusOr<std::vector<TensorType>> TransposeRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const TransposeView view, TransposeView::Of(in.node));
  const std::vector<int64_t> axes = view.AxesFor(x.rank());
  std::vector<int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> iota(x.rank());
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) {
    return absl::InvalidArgumentError(absl::StrCat("axes [", absl::StrJoin(axes, ","),
                                                   "] are not a permutation of rank ", x.rank()));
  }
  Shape out;
  for (int64_t a : axes) out.push_back(x.shape[a]);
  return One({x.dtype, out});
}

absl::StatusOr<std::vector<TensorType>> LayoutTransformRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(const LayoutTransformView view, LayoutTransformView::Of(in.node));
  ASSIGN_OR_RETURN(Shape out, TransformLayoutShape(in.inputs[0].shape, view.src_layout, view.dst_layout));
  // Leaving a blocked layout, `channels` drops the padding of the last block.
  if (view.channels) {
    const int64_t channels = *view.channels;
    if (!view.dst_layout.is_nchw() || out.size() != 4 || channels <= 0 || channels > out[1] ||
        out[1] - channels >= 64) {
      return absl::InvalidArgumentError(absl::StrCat(
          "channels ", channels, " only trims the block padding of an NCHW result"));
    }
    out[1] = channels;
  }
  return One({in.inputs[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> ResizeRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const ResizeView view, ResizeView::Of(in.node));
  // NCHW, or NCHW{k}c (AlterOpLayout: each lane resized as its channel).
  const Layout& layout = view.layout;
  const int64_t block = layout.channel_block();
  if (!layout.is_nchw() && block == 0) {
    return absl::InvalidArgumentError(absl::StrCat("unsupported layout '", layout.str(), "'"));
  }
  RETURN_IF_ERROR(internal::ExpectRank(x, block ? 5 : 4, "data"));
  if (block && x.shape[4] != block) {
    return absl::InvalidArgumentError(absl::StrCat("data ", x.ToString(), " is not ", layout.str()));
  }
  const std::array<int64_t, 2>& size = view.size;
  const std::string& method = view.method;
  const std::string& ctm = view.coordinate_transformation_mode;
  const std::string& nearest = view.nearest_mode;
  if (size[0] <= 0 || size[1] <= 0) {
    return absl::InvalidArgumentError("size needs 2 positive values (output height, width)");
  }
  if (method != "nearest" && method != "linear") {
    return absl::InvalidArgumentError(absl::StrCat("unsupported method '", method, "'"));
  }
  if (ctm != "half_pixel" && ctm != "pytorch_half_pixel" && ctm != "align_corners" &&
      ctm != "asymmetric") {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported coordinate_transformation_mode '", ctm, "'"));
  }
  if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" && nearest != "floor" &&
      nearest != "ceil") {
    return absl::InvalidArgumentError(absl::StrCat("unsupported nearest_mode '", nearest, "'"));
  }
  Shape out = {x.shape[0], x.shape[1], size[0], size[1]};
  if (block) out.push_back(block);
  return One({x.dtype, out});
}

// begin/end/strides: one per dimension, clamped as ONNX Slice clamps them
// (the converter does), so the IR states exactly which elements it takes.
absl::StatusOr<std::vector<TensorType>> StridedSliceRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const StridedSliceView view, StridedSliceView::Of(in.node));
  const std::vector<int64_t>& begin = view.begin;
  const std::vector<int64_t>& end = view.end;
  const std::vector<int64_t>& strides = view.strides;
  if (static_cast<int64_t>(begin.size()) != x.rank() || end.size() != begin.size() ||
      strides.size() != begin.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("begin, end and strides need ", x.rank(), " values each for ", x.ToString()));
  }
  Shape out(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) {
    const int64_t dim = x.shape[d], b = begin[d], e = end[d], s = strides[d];
    const bool ok = s > 0 ? (b >= 0 && b <= dim && e >= 0 && e <= dim)
                          : (s < 0 && (dim == 0 || (b >= 0 && b < dim)) && e >= -1 && e < dim);
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat("dimension ", d, " of ", dim, ": begin ", b,
                                                     ", end ", e, ", stride ", s, " out of range"));
    }
    const int64_t n = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s;
    out[d] = dim == 0 ? 0 : std::max<int64_t>(0, n);
  }
  return One({x.dtype, out});
}

absl::StatusOr<std::vector<TensorType>> TakeRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  const TensorType& idx = in.inputs[1];
  if (idx.dtype != DType::kI32 && idx.dtype != DType::kI64) {
    return absl::InvalidArgumentError(absl::StrCat("indices must be i32 or i64, got ", idx.ToString()));
  }
  ASSIGN_OR_RETURN(const TakeView view, TakeView::Of(in.node));
  const int64_t axis = view.axis;
  const Layout& layout = view.layout;
  if (view.blocked()) {
    // Channels of an NCHW{k}c tensor holding `channels` real channels
    // (AlterOpLayout): the result packs the picked ones into ceil(n / k)
    // blocks, padding lanes 0.
    const int64_t k = layout.channel_block();
    const int64_t channels = view.channels;
    if (k == 0 || axis != 1 || idx.rank() != 1 || x.rank() != 5 || x.shape[4] != k || channels < 1 ||
        channels > x.shape[1] * k || channels <= (x.shape[1] - 1) * k) {
      return absl::InvalidArgumentError(absl::StrCat("take in layout ", layout.str(), " needs axis 1, 1-D indices and ",
                                                     x.ToString(), " to hold ", channels, " channels"));
    }
    return One({x.dtype, {x.shape[0], (idx.shape[0] + k - 1) / k, x.shape[2], x.shape[3], k}});
  }
  ASSIGN_OR_RETURN(int64_t a, view.AxisFor(x.rank()));
  Shape out(x.shape.begin(), x.shape.begin() + a);
  out.insert(out.end(), idx.shape.begin(), idx.shape.end());
  out.insert(out.end(), x.shape.begin() + a + 1, x.shape.end());
  return One({x.dtype, out});
}

absl::StatusOr<std::vector<TensorType>> BroadcastToRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(const BroadcastToView view, BroadcastToView::Of(in.node));
  const std::vector<int64_t>& shape = view.shape;
  ASSIGN_OR_RETURN(Shape out, internal::BroadcastShapes(in.inputs[0].shape, shape));
  if (out != Shape(shape.begin(), shape.end())) {
    return absl::InvalidArgumentError(absl::StrCat(in.inputs[0].ToString(), " does not broadcast to [",
                                                   absl::StrJoin(shape, ","), "]"));
  }
  return One({in.inputs[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> PadRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const PadView view, PadView::Of(in.node));
  const std::vector<int64_t>& pads = view.pad_width;
  const std::string& mode = view.pad_mode;
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    return absl::InvalidArgumentError(absl::StrCat("unsupported pad_mode '", mode, "'"));
  }
  if (static_cast<int64_t>(pads.size()) != 2 * x.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("pad_width needs ", 2 * x.rank(),
                                                   " values (begins, then ends), got ", pads.size()));
  }
  Shape out = x.shape;
  for (int64_t i = 0; i < x.rank(); ++i) {
    out[i] += pads[i] + pads[i + x.rank()];
    if (out[i] < 0) return absl::InvalidArgumentError("padding makes a dimension negative");
  }
  return One({x.dtype, out});
}

absl::StatusOr<std::vector<TensorType>> QnnConcatRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  int64_t total = static_cast<int64_t>(t.size());
  if ((total - 2) % 3 != 0 || total < 5) {
    return absl::InvalidArgumentError(
        "takes n data inputs, n scales, n zero points, then the output scale and zero point");
  }
  int64_t n = (total - 2) / 3;
  for (int64_t i = n; i < total; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(const Layout layout, LayoutAttr(in.node.attrs(), "layout", Layout::Nchw()));
  if (!layout.is_nchw()) {
    // Channel concat of NCHW{k}c tensors holding `channels` real channels
    // each (AlterOpLayout): the result packs them densely into
    // ceil(sum / k) blocks, padding lanes 0.
    const int64_t k = layout.channel_block();
    ASSIGN_OR_RETURN(auto channels, in.node.attrs().GetInts("channels"));
    if (k == 0 || static_cast<int64_t>(channels.size()) != n) {
      return absl::InvalidArgumentError(absl::StrCat("layout ", layout.str(), " needs a block and ", n,
                                                     " channel counts"));
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const TensorType& x = t[i];
      if (x.dtype != t[0].dtype || x.rank() != 5 || x.shape[4] != k || x.shape[0] != t[0].shape[0] ||
          x.shape[2] != t[0].shape[2] || x.shape[3] != t[0].shape[3] || channels[i] < 1 ||
          channels[i] > x.shape[1] * k || channels[i] <= (x.shape[1] - 1) * k) {
        return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", x.ToString(), " does not hold ",
                                                       channels[i], " channels in ", layout.str(), " like input 0"));
      }
      sum += channels[i];
    }
    return One({t[0].dtype, {t[0].shape[0], (sum + k - 1) / k, t[0].shape[2], t[0].shape[3], k}});
  }
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  ASSIGN_OR_RETURN(int64_t a, axis.AxisFor(t[0].rank()));
  Shape out = t[0].shape;
  for (int64_t i = 1; i < n; ++i) {
    if (t[i].dtype != t[0].dtype || t[i].rank() != t[0].rank()) {
      return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", t[i].ToString(),
                                                     " does not match ", t[0].ToString()));
    }
    for (int64_t d = 0; d < t[0].rank(); ++d) {
      if (d != a && t[i].shape[d] != out[d]) {
        return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", t[i].ToString(),
                                                       " differs from ", t[0].ToString(),
                                                       " outside axis ", a));
      }
    }
    out[a] += t[i].shape[a];
  }
  return One({t[0].dtype, out});
}

}  // namespace

void RegisterLayoutOps(OpRegistry& r) {
  RegisterOrDie(r, {"concat", 1, -1, 1, ConcatRel, "(x_1..x_n) {axis=0}"});
  RegisterOrDie(r, {"reshape", 1, 1, 1, ReshapeRel, "(data) {newshape}"});
  RegisterOrDie(r, {"flatten", 1, 1, 1, FlattenRel, "(data) {axis=1} -> 2-D"});
  RegisterOrDie(r, {"transpose", 1, 1, 1, TransposeRel, "(data) {axes}"});
  RegisterOrDie(r, {"strided_slice", 1, 1, 1, StridedSliceRel,
                    "(data) {begin, end, strides}: one per dimension, clamped as ONNX Slice "
                    "clamps them"});
  RegisterOrDie(r, {"take", 2, 2, 1, TakeRel,
                    "(data, indices i32|i64) {axis=0, layout=NCHW, channels}: ONNX Gather; "
                    "negative indices count from the end; in NCHW{k}c (axis 1) the data holds "
                    "`channels` real channels"});
  RegisterOrDie(r, {"broadcast_to", 1, 1, 1, BroadcastToRel, "(data) {shape}: numpy broadcasting"});
  RegisterOrDie(r, {"layout_transform", 1, 1, 1, LayoutTransformRel,
                    "(data) {src_layout, dst_layout, channels} e.g. NCHW -> NHWC or NCHW16c; "
                    "channels trims the block padding going back to NCHW"});
  RegisterOrDie(r, {"resize", 1, 1, 1, ResizeRel,
                    "(data NCHW or NCHW{k}c) {size [h,w], method nearest|linear, "
                    "coordinate_transformation_mode, nearest_mode, layout=NCHW}"});
  RegisterOrDie(r, {"nn.pad", 1, 1, 1, PadRel,
                    "(data) {pad_width [begins..., ends...], pad_mode, pad_value}"});
  RegisterOrDie(r, {"qnn.concat", 5, -1, 1, QnnConcatRel,
                    "(x_1..x_n, scale_1..scale_n, zero_point_1..zero_point_n, output_scale, "
                    "output_zero_point) {axis=1, layout=NCHW, channels}: layout NCHW{k}c "
                    "concatenates the channels (channels: the real ones of each input) into "
                    "ceil(sum / k) blocks"});
}

}  // namespace qnnc::ir
