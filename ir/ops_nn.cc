// Type relations of the neural-network ops (nn.*): float or integer conv,
// dense, matmul, bias_add, pooling and padding.
#include "absl/strings/str_cat.h"
#include "ir/conv_relation.h"
#include "ir/layout.h"
#include "ir/op_views.h"
#include "ir/op_registry.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::DTypeAttr;
using internal::ExpectRank;
using internal::One;
using internal::RegisterOrDie;

// Float conv gives f32; integer conv (e.g. i16 x i16 after legalization) i32.
absl::StatusOr<DType> AccumulatorDType(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  bool float_in = tensor::IsFloat(t[0].dtype);
  if (float_in != tensor::IsFloat(t[1].dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("mixes float and integer operands: ",
                                                   t[0].ToString(), " and ", t[1].ToString()));
  }
  return DTypeAttr(in.node, "out_dtype", float_in ? DType::kF32 : DType::kI32);
}

absl::StatusOr<std::vector<TensorType>> Conv2DRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, in.inputs[0], in.inputs[1]));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> DenseRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectRank(t[0], 2, "data"));
  RETURN_IF_ERROR(ExpectRank(t[1], 2, "weight"));
  if (t[0].shape[1] != t[1].shape[1]) {
    return absl::InvalidArgumentError(absl::StrCat("data ", t[0].ToString(), " and weight ",
                                                   t[1].ToString(), " disagree on K"));
  }
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  return One({dt, {t[0].shape[0], t[1].shape[0]}});
}

absl::StatusOr<std::vector<TensorType>> MatMulRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  ASSIGN_OR_RETURN(Shape out, internal::MatMulShape(in.inputs[0].shape, in.inputs[1].shape));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> BiasAddRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectRank(t[1], 1, "bias"));
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  ASSIGN_OR_RETURN(int64_t a, axis.AxisFor(t[0].rank()));
  if (t[1].shape[0] != t[0].shape[a] || t[1].dtype != t[0].dtype) {
    return absl::InvalidArgumentError(absl::StrCat("bias ", t[1].ToString(), " does not match axis ",
                                                   a, " of ", t[0].ToString()));
  }
  return One(t[0]);
}

// Spatial output of a 2-D pool over NCHW, NHWC or NCHW{k}c.
absl::StatusOr<std::vector<TensorType>> Pool2DRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(Pool2DView v, Pool2DView::Of(in.node));
  const std::string& layout = v.layout;
  const int64_t block = ChannelBlock(layout);
  RETURN_IF_ERROR(ExpectRank(x, block > 0 ? 5 : 4, "data"));
  if (block > 0 && x.shape[4] != block) {
    return absl::InvalidArgumentError(
        absl::StrCat("data ", x.ToString(), " is not in layout ", layout));
  }
  if (!v.has_pool_size) return absl::InvalidArgumentError("pool_size is required");
  if (layout != "NCHW" && layout != "NHWC" && block == 0) {
    return absl::InvalidArgumentError(absl::StrCat("unsupported layout '", layout, "'"));
  }
  int hi = layout == "NHWC" ? 1 : 2;
  Shape out = x.shape;
  ASSIGN_OR_RETURN(out[hi], internal::WindowOutputSize(x.shape[hi], v.pool_size[0], v.strides[0],
                                                       v.pads[0], v.pads[2], v.dilation[0],
                                                       v.ceil_mode));
  ASSIGN_OR_RETURN(out[hi + 1],
                   internal::WindowOutputSize(x.shape[hi + 1], v.pool_size[1], v.strides[1],
                                              v.pads[1], v.pads[3], v.dilation[1], v.ceil_mode));
  return One({x.dtype, out});
}

absl::StatusOr<std::vector<TensorType>> GlobalPoolRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(Shape out, internal::GlobalPoolShape(in.inputs[0], in.node));
  return One({in.inputs[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> PadRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(auto pads, in.node.attrs().GetInts("pad_width"));
  ASSIGN_OR_RETURN(std::string mode, in.node.attrs().GetString("pad_mode", "constant"));
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

}  // namespace

void RegisterNnOps(OpRegistry& r) {
  RegisterOrDie(r, {"nn.conv2d", 2, 2, 1, Conv2DRel,
                    "(data, weight) {strides, padding, dilation, groups, data_layout, "
                    "kernel_layout, out_dtype}: f32, or integer -> i32"});
  RegisterOrDie(r, {"nn.dense", 2, 2, 1, DenseRel, "(data [M,K], weight [N,K]) {out_dtype}"});
  RegisterOrDie(r, {"nn.matmul", 2, 2, 1, MatMulRel, "(a, b) numpy matmul {out_dtype}"});
  RegisterOrDie(r, {"nn.bias_add", 2, 2, 1, BiasAddRel, "(data, bias 1-D) {axis=1}"});
  RegisterOrDie(r, {"nn.max_pool2d", 1, 1, 1, Pool2DRel,
                    "(data) {pool_size, strides, padding, dilation, ceil_mode, layout}"});
  RegisterOrDie(r, {"nn.avg_pool2d", 1, 1, 1, Pool2DRel,
                    "(data) {pool_size, strides, padding, ceil_mode, count_include_pad, layout}"});
  RegisterOrDie(r, {"nn.global_avg_pool2d", 1, 1, 1, GlobalPoolRel,
                    "(data) {layout NCHW, NHWC or NCHW{k}c}"});
  RegisterOrDie(r, {"nn.pad", 1, 1, 1, PadRel,
                    "(data) {pad_width [begins..., ends...], pad_mode, pad_value}"});
}

}  // namespace qnnc::ir
