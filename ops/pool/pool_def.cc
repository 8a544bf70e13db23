// Type relations and registration of the pooling ops (nn.max_pool2d,
// nn.avg_pool2d, nn.global_avg_pool2d, qnn.global_avg_pool2d) and of the
// reductions (reduce_min, reduce_max, reduce_mean, reduce_sum).
#include "absl/strings/str_cat.h"
#include "ir/elementwise_views.h"
#include "ir/layout.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::DTypeAttr;
using internal::ExpectQuantParam;
using internal::ExpectRank;
using internal::NormalizeAxis;
using internal::One;
using internal::RegisterOrDie;

// Spatial output of a 2-D pool over NCHW, NHWC or NCHW{k}c.
absl::StatusOr<std::vector<TensorType>> Pool2DRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(Pool2DView v, Pool2DView::Of(in.node));
  const Layout& layout = v.layout;
  const int64_t block = layout.channel_block();
  RETURN_IF_ERROR(ExpectRank(x, block > 0 ? 5 : 4, "data"));
  if (block > 0 && x.shape[4] != block) {
    return absl::InvalidArgumentError(
        absl::StrCat("data ", x.ToString(), " is not in layout ", layout.str()));
  }
  if (!v.has_pool_size) return absl::InvalidArgumentError("pool_size is required");
  if (!layout.is_nchw() && !layout.is_nhwc() && block == 0) {
    return absl::InvalidArgumentError(absl::StrCat("unsupported layout '", layout.str(), "'"));
  }
  int hi = layout.is_nhwc() ? 1 : 2;
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

// Q(global_avg_pool2d(DQ(x))): 8-bit data, per-tensor parameters.
absl::StatusOr<std::vector<TensorType>> QnnGlobalPoolRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  const bool byte = t[0].dtype == DType::kU8 || t[0].dtype == DType::kI8;
  if (!byte) return absl::InvalidArgumentError(absl::StrCat("data must be u8 or i8, got ", t[0].ToString()));
  for (int i = 1; i < 5; ++i) {
    RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
    if (t[i].shape.size() == 1 && t[i].shape[0] != 1) {
      return absl::InvalidArgumentError("quantization parameters must be per-tensor");
    }
  }
  ASSIGN_OR_RETURN(Shape out, internal::GlobalPoolShape(t[0], in.node));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", t[0].dtype));
  if (dt != DType::kU8 && dt != DType::kI8) return absl::InvalidArgumentError("out_dtype must be u8 or i8");
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> ReduceRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  ASSIGN_OR_RETURN(const ReduceView view, ReduceView::Of(in.node));
  const bool keepdims = view.keepdims;
  std::vector<bool> reduced(x.rank(), view.axes.empty());
  for (int64_t axis : view.axes) {
    ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, x.rank()));
    reduced[a] = true;
  }
  Shape out;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (!reduced[i]) {
      out.push_back(x.shape[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return One({x.dtype, out});
}

}  // namespace

void RegisterPoolOps(OpRegistry& r) {
  RegisterOrDie(r, {"nn.max_pool2d", 1, 1, 1, Pool2DRel,
                    "(data) {pool_size, strides, padding, dilation, ceil_mode, layout}"});
  RegisterOrDie(r, {"nn.avg_pool2d", 1, 1, 1, Pool2DRel,
                    "(data) {pool_size, strides, padding, ceil_mode, count_include_pad, layout}"});
  RegisterOrDie(r, {"nn.global_avg_pool2d", 1, 1, 1, GlobalPoolRel,
                    "(data) {layout NCHW, NHWC or NCHW{k}c}"});
  RegisterOrDie(r, {"qnn.global_avg_pool2d", 5, 5, 1, QnnGlobalPoolRel,
                    "(data u8|i8, input_scale, input_zero_point, output_scale, output_zero_point) "
                    "{layout NCHW, NHWC or NCHW{k}c, out_dtype}: quantize(global_avg_pool2d("
                    "dequantize(data))) in float32, as the three ops compute it"});
  for (const char* op : {"reduce_min", "reduce_max", "reduce_mean", "reduce_sum"}) {
    RegisterOrDie(r, {op, 1, 1, 1, ReduceRel, "(data) {axes (empty: all), keepdims=1}"});
  }
}

}  // namespace qnnc::ir
