// Converters of the ops that take parts of a tensor or repeat it: Slice,
// Split, Gather, Expand, Pad. Shapes are static, so starts, ends, splits,
// pads and target shapes must be constants and are resolved here.
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

// The whole of every dimension: begin 0, end dim, stride 1.
struct SliceSpec {
  std::vector<int64_t> begin, end, strides;
  explicit SliceSpec(const tensor::Shape& shape)
      : begin(shape.size(), 0), end(shape.begin(), shape.end()), strides(shape.size(), 1) {}
};

absl::StatusOr<ir::Value*> EmitSlice(NodeContext& ctx, ir::Value* x, const SliceSpec& s) {
  ir::Attrs attrs;
  attrs.Set("begin", s.begin);
  attrs.Set("end", s.end);
  attrs.Set("strides", s.strides);
  return ctx.Emit("strided_slice", {x}, attrs);
}

// ONNX Slice's clamping of one axis (negative starts and ends count from
// the end, then clamp to the dimension, one short of it going backwards).
void ClampAxis(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t* b, int64_t* e) {
  auto wrap = [dim](int64_t v) { return v < 0 ? (v < std::numeric_limits<int64_t>::min() + dim ? -1 : v + dim) : v; };
  start = wrap(start);
  end = wrap(end);
  if (step > 0) {
    *b = std::clamp<int64_t>(start, 0, dim);
    *e = std::clamp<int64_t>(end, 0, dim);
  } else {
    *b = std::clamp<int64_t>(start, 0, std::max<int64_t>(dim - 1, 0));
    *e = std::clamp<int64_t>(end, -1, dim - 1);
  }
}

Outputs Slice(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const tensor::Shape& shape = ctx.type(0).shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  bool has_starts = false, has_ends = false, has_axes = false, has_steps = false;
  ASSIGN_OR_RETURN(auto starts, IntsInputOrAttr(ctx, 1, 10, "starts", &has_starts));
  ASSIGN_OR_RETURN(auto ends, IntsInputOrAttr(ctx, 2, 10, "ends", &has_ends));
  ASSIGN_OR_RETURN(auto axes, IntsInputOrAttr(ctx, 3, 10, "axes", &has_axes));
  std::vector<int64_t> steps;
  if (ctx.opset() >= 10) {
    ASSIGN_OR_RETURN(steps, IntsInputOrAttr(ctx, 4, 10, "steps", &has_steps));
  }
  if (!has_starts || !has_ends || starts.size() != ends.size()) {
    return absl::InvalidArgumentError("starts and ends are required, with one value per axis");
  }
  if (!has_axes) {
    axes.resize(starts.size());
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(i);
  }
  if (!has_steps) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) {
    return absl::InvalidArgumentError(absl::StrCat("starts, ends, axes and steps differ in length (",
                                                   starts.size(), ", ", ends.size(), ", ",
                                                   axes.size(), ", ", steps.size(), ")"));
  }
  SliceSpec s(shape);
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    ASSIGN_OR_RETURN(int64_t a, Axis(axes[i], rank));
    if (seen[a]) return absl::InvalidArgumentError(absl::StrCat("axis ", axes[i], " repeats"));
    seen[a] = true;
    if (steps[i] == 0) return absl::InvalidArgumentError("a step is 0");
    s.strides[a] = steps[i];
    ClampAxis(shape[a], starts[i], ends[i], steps[i], &s.begin[a], &s.end[a]);
  }
  ASSIGN_OR_RETURN(ir::Value * y, EmitSlice(ctx, x, s));
  return One(y);
}

// Split into the `split` sizes (attribute before opset 13, then an optional
// input), or into equal parts, one per output (opset 18: num_outputs, the
// last part smaller when the dimension does not divide).
Outputs Split(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const tensor::Shape& shape = ctx.type(0).shape;
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 0));
  ASSIGN_OR_RETURN(int64_t a, Axis(axis, static_cast<int64_t>(shape.size())));
  bool has_split = false;
  ASSIGN_OR_RETURN(auto split, IntsInputOrAttr(ctx, 1, 13, "split", &has_split));
  const int64_t outputs = ctx.node().output_size();
  const int64_t dim = shape[a];
  if (!has_split) {
    if (outputs < 1) return absl::InvalidArgumentError("needs at least one output");
    const int64_t part = (dim + outputs - 1) / outputs;
    if (ctx.opset() < 18 && dim % outputs != 0) {
      return absl::InvalidArgumentError(absl::StrCat("dimension ", dim, " of axis ", axis,
                                                     " does not split into ", outputs, " equal parts"));
    }
    for (int64_t i = 0; i < outputs; ++i) split.push_back(std::max<int64_t>(0, std::min(part, dim - i * part)));
  }
  int64_t total = 0;
  for (int64_t v : split) {
    if (v < 0) return absl::InvalidArgumentError("a split size is negative");
    total += v;
  }
  if (static_cast<int64_t>(split.size()) != outputs || total != dim) {
    return absl::InvalidArgumentError(absl::StrCat("split [", absl::StrJoin(split, ","), "] must give ",
                                                   outputs, " parts adding up to ", dim));
  }
  std::vector<ir::Value*> out;
  int64_t at = 0;
  for (int64_t v : split) {
    SliceSpec s(shape);
    s.begin[a] = at;
    s.end[a] = at + v;
    ASSIGN_OR_RETURN(ir::Value * y, EmitSlice(ctx, x, s));
    out.push_back(y);
    at += v;
  }
  return out;
}

Outputs Gather(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * indices, ctx.Required(1));
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 0));
  ASSIGN_OR_RETURN(int64_t a, Axis(axis, ctx.type(0).rank()));
  ir::Attrs attrs;
  attrs.Set("axis", a);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("take", {x, indices}, attrs));
  return One(y);
}

// Expand broadcasts both ways: the output is the broadcast of the input's
// shape and the given one.
Outputs Expand(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(const tensor::Tensor* shape_t, ConstantInput(ctx, 1, "shape"));
  ASSIGN_OR_RETURN(std::vector<int64_t> want, IntValues(*shape_t, "shape"));
  const tensor::Shape& in = ctx.type(0).shape;
  const size_t rank = std::max(in.size(), want.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t p = i + in.size() >= rank ? in[i + in.size() - rank] : 1;
    const int64_t q = i + want.size() >= rank ? want[i + want.size() - rank] : 1;
    if (p != q && p != 1 && q != 1) {
      return absl::InvalidArgumentError(absl::StrCat(ctx.type(0).ToString(), " does not broadcast with [",
                                                     absl::StrJoin(want, ","), "]"));
    }
    out[i] = p == 1 ? q : p;
  }
  if (out == std::vector<int64_t>(in.begin(), in.end())) return One(x);
  ir::Attrs attrs;
  attrs.Set("shape", out);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("broadcast_to", {x}, attrs));
  return One(y);
}

// Pad: pads and the constant value are attributes before opset 11, then
// inputs (opset 18 adds axes, naming the dimensions the pads apply to).
Outputs Pad(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const int64_t rank = ctx.type(0).rank();
  ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "constant"));
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    return absl::UnimplementedError(absl::StrCat("mode '", mode, "' is not supported"));
  }
  bool has_pads = false;
  ASSIGN_OR_RETURN(auto pads, IntsInputOrAttr(ctx, 1, 11, "pads", &has_pads));
  double value = 0.0;
  if (ctx.opset() < 11) {
    ASSIGN_OR_RETURN(float v, ctx.AttrFloat("value", 0.0f));
    value = v;
  } else if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(const tensor::Tensor* v, ConstantInput(ctx, 2, "constant_value"));
    if (v->num_elements() != 1) return absl::InvalidArgumentError("constant_value must be a scalar");
    value = v->GetAsDouble(0);
  }
  bool has_axes = false;
  std::vector<int64_t> axes;
  if (ctx.opset() >= 18) {
    ASSIGN_OR_RETURN(axes, IntsInputOrAttr(ctx, 3, 18, "axes", &has_axes));
  }
  if (!has_axes) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  const int64_t n = static_cast<int64_t>(axes.size());
  if (!has_pads || static_cast<int64_t>(pads.size()) != 2 * n) {
    return absl::InvalidArgumentError(absl::StrCat("pads needs ", 2 * n, " values, got ", pads.size()));
  }
  std::vector<int64_t> width(2 * rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(int64_t a, Axis(axes[i], rank));
    width[a] = pads[i];
    width[a + rank] = pads[i + n];
  }
  for (int64_t p : width) {
    if (p < 0) return absl::UnimplementedError("negative pads (cropping) are not supported");
  }
  ir::Attrs attrs;
  attrs.Set("pad_width", width);
  attrs.Set("pad_mode", mode);
  attrs.Set("pad_value", value);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.pad", {x}, attrs));
  return One(y);
}

}  // namespace

void RegisterSliceConverters(ConverterTable& t) {
  t["Slice"] = Slice;
  t["Split"] = Split;
  t["Gather"] = Gather;
  t["Expand"] = Expand;
  t["Pad"] = Pad;
}

}  // namespace qnnc::frontend::onnx
