#include "eval/node_evaluator.h"

#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "ir/layout.h"
#include "ir/op_views.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/dense.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/layout.h"
#include "kernels/layout/nhwc.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/pool.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/reduce.h"
#include "kernels/reference/requantize.h"
#include "kernels/reference/resize.h"
#include "kernels/reference/softmax.h"
#include "kernels/reference/unary.h"
#include "kernels/requantize/fixed_point_multiply.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/requantize/requantize.h"
#include "util/status_macros.h"

namespace qnnc::eval {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;
using tensor::Tensor;
using Tensors = std::vector<Tensor>;
using Kernel = std::function<absl::StatusOr<Tensors>(const ir::Node&, const Tensors&, pthreadpool_t)>;

// A per-channel op (pooling) on NCHW data, or on NCHW{k}c through NCHW,
// the lanes kept.
template <typename F>
absl::StatusOr<Tensor> PerChannelThroughNchw(const Tensor& x, F op) {
  if (x.rank() != 5) return op(x);
  const int64_t channels = x.dim(1) * x.dim(4);
  ASSIGN_OR_RETURN(Tensor nchw, kernels::spatial_pack::FromBlocked(x, channels));
  ASSIGN_OR_RETURN(Tensor result, op(nchw));
  return kernels::spatial_pack::ToBlocked(result, x.dim(4));
}

absl::StatusOr<Tensors> Single(absl::StatusOr<Tensor> t) {
  if (!t.ok()) return t.status();
  return Tensors{*std::move(t)};
}

absl::StatusOr<DType> DTypeAttr(const ir::Node& n, const char* name, DType dflt) {
  ASSIGN_OR_RETURN(std::string s, n.attrs().GetString(name, tensor::DTypeName(dflt)));
  return tensor::ParseDType(s);
}

absl::Status ExpectLayout(const ir::Node& n, const char* attr, const char* layout) {
  ASSIGN_OR_RETURN(std::string l, n.attrs().GetString(attr, layout));
  if (l != layout) {
    return absl::UnimplementedError(
        absl::StrCat("the reference kernel needs ", attr, " ", layout, ", got ", l));
  }
  return absl::OkStatus();
}

// nn.global_avg_pool2d in NCHW, or in NCHW{k}c with every lane as a
// channel (padding lanes too).
absl::StatusOr<Tensor> GlobalAvgPool(const ir::Node& n, const Tensor& x, pthreadpool_t pool) {
  ASSIGN_OR_RETURN(std::string layout, n.attrs().GetString("layout", "NCHW"));
  const int64_t block = ir::ChannelBlock(layout);
  if (block == 0) {
    RETURN_IF_ERROR(ExpectLayout(n, "layout", "NCHW"));
    return ref::GlobalAvgPool2D(x);
  }
  const int64_t lanes = x.dim(1) * block;
  ASSIGN_OR_RETURN(Tensor nchw, kernels::spatial_pack::FromBlocked(x, lanes, pool));
  ASSIGN_OR_RETURN(Tensor pooled, ref::GlobalAvgPool2D(nchw));
  return kernels::spatial_pack::ToBlocked(pooled, block, 0, pool);
}

absl::StatusOr<ref::Conv2DParams> ConvParams(const ir::Node& n, DType dflt_out) {
  RETURN_IF_ERROR(ExpectLayout(n, "data_layout", "NCHW"));
  RETURN_IF_ERROR(ExpectLayout(n, "kernel_layout", "OIHW"));
  ASSIGN_OR_RETURN(ir::Conv2DView v, ir::Conv2DView::Of(n));
  ref::Conv2DParams p;
  p.strides = v.strides;
  p.pads = v.padding;
  p.dilation = v.dilation;
  p.groups = v.groups;
  ASSIGN_OR_RETURN(p.out_dtype, DTypeAttr(n, "out_dtype", dflt_out));
  return p;
}

absl::StatusOr<ref::Pool2DParams> PoolParams(const ir::Node& n, bool allow_blocked = false) {
  ASSIGN_OR_RETURN(std::string layout, n.attrs().GetString("layout", "NCHW"));
  if (!(allow_blocked && ir::ChannelBlock(layout) > 0)) {
    RETURN_IF_ERROR(ExpectLayout(n, "layout", "NCHW"));
  }
  return Pool2DParamsOf(n);
}

absl::StatusOr<std::optional<int64_t>> OptionalInt(const ir::Node& n, const char* name) {
  if (!n.attrs().Has(name)) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t v, n.attrs().GetInt(name));
  return std::optional<int64_t>(v);
}

using Binary = absl::StatusOr<Tensor> (*)(const Tensor&, const Tensor&);
Kernel BinaryKernel(Binary f) {
  return [f](const ir::Node&, const Tensors& in, pthreadpool_t) { return Single(f(in[0], in[1])); };
}
using Unary = absl::StatusOr<Tensor> (*)(const Tensor&);
Kernel UnaryKernel(Unary f) {
  return [f](const ir::Node&, const Tensors& in, pthreadpool_t) { return Single(f(in[0])); };
}
using Reduce = absl::StatusOr<Tensor> (*)(const Tensor&, const std::vector<int64_t>&, bool);
Kernel ReduceKernel(Reduce f) {
  return [f](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
    ASSIGN_OR_RETURN(auto axes, n.attrs().GetInts("axes", {}));
    ASSIGN_OR_RETURN(int64_t keepdims, n.attrs().GetInt("keepdims", 1));
    return Single(f(in[0], axes, keepdims != 0));
  };
}

const std::map<std::string, Kernel>& Kernels() {
  static const auto* kernels = new std::map<std::string, Kernel>{
      {"qnn.quantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 1));
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[2].dtype()));
         return Single(ref::Quantize(in[0], in[1], in[2], axis, dt));
       }},
      {"qnn.dequantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 1));
         return Single(ref::Dequantize(in[0], in[1], in[2], axis));
       }},
      {"qnn.requantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::RequantizeView v, ir::RequantizeView::Of(n));
         const std::optional<int64_t> lo = v.clamp_min, hi = v.clamp_max;
         if (v.nearest_even()) {
           return Single(ref::Requantize(in[0], in[1], in[2], in[3], in[4], v.axis, v.out_dtype, lo, hi));
         }
         ASSIGN_OR_RETURN(kernels::requantize::Rounding rounding,
                          kernels::requantize::ParseRounding(v.rounding));
         return Single(kernels::requantize::Requantize(in[0], in[1], in[2], in[3], in[4], v.axis,
                                                       v.out_dtype, rounding, lo, hi));
       }},
      {"fixed_point_multiply",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 1));
         ASSIGN_OR_RETURN(std::string mode, n.attrs().GetString("rounding", "UPWARD"));
         ASSIGN_OR_RETURN(kernels::requantize::Rounding rounding,
                          kernels::requantize::ParseRounding(mode));
         return Single(kernels::requantize::FixedPointMultiply(in[0], in[1], in[2], axis, rounding));
       }},
      {"qnn.conv2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         return Single(ref::QnnConv2D(in[0], in[1], in[2], in[3], p, pool));
       }},
      {"qnn.conv2d_requantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         p.out_dtype = DType::kI32;  // the accumulator; out_dtype is the requantized type
         ASSIGN_OR_RETURN(double pad_value, n.attrs().GetFloat("pad_value", 0.0));
         Tensor data = in[0];
         bool pads = p.pads != std::array<int64_t, 4>{0, 0, 0, 0};
         if (pads && pad_value != static_cast<double>(in[3].GetAsInt(0))) {
           // Padding stands for pad_value, not the zero point: pad explicitly.
           ASSIGN_OR_RETURN(data, ref::Pad(in[0], {0, 0, p.pads[0], p.pads[1], 0, 0, p.pads[2], p.pads[3]},
                                           "constant", pad_value));
           p.pads = {0, 0, 0, 0};
         }
         ASSIGN_OR_RETURN(Tensor acc, ref::QnnConv2D(data, in[1], in[3], in[4], p, pool));
         ASSIGN_OR_RETURN(acc, ref::BiasAdd(acc, in[2], 1));
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", DType::kU8));
         ASSIGN_OR_RETURN(auto lo, OptionalInt(n, "clamp_min"));
         ASSIGN_OR_RETURN(auto hi, OptionalInt(n, "clamp_max"));
         return Single(ref::Requantize(acc, in[7], Tensor::Scalar<int32_t>(0), in[8], in[9], 1, dt,
                                       lo, hi));
       }},
      {"qnn.conv2d_dynamic",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         ASSIGN_OR_RETURN(Tensor acc, ref::QnnConv2D(in[0], in[1], in[2], in[3], p, pool));
         ASSIGN_OR_RETURN(Tensor y, ref::Cast(acc, DType::kF32));
         ASSIGN_OR_RETURN(y, ref::Multiply(y, in[4]));
         if (in.size() > 5) {
           ASSIGN_OR_RETURN(y, ref::Add(y, in[5]));
         }
         const bool has_min = n.attrs().map().count("clip_min") > 0;
         if (has_min || n.attrs().map().count("clip_max") > 0) {
           ASSIGN_OR_RETURN(double lo, n.attrs().GetFloat("clip_min", -INFINITY));
           ASSIGN_OR_RETURN(double hi, n.attrs().GetFloat("clip_max", INFINITY));
           ASSIGN_OR_RETURN(y, ref::Clip(y, lo, hi));
         }
         // DynamicQuantizeLinear's range of y: from 0, a value replacing
         // only when strictly beyond (NaN never).
         float range[2] = {0.0f, 0.0f};
         for (float v : y.span<float>()) {
           range[0] = v < range[0] ? v : range[0];
           range[1] = v > range[1] ? v : range[1];
         }
         return Tensors{y, Tensor::FromVector<float>({2}, {range[0], range[1]})};
       }},
      {"qnn.dense",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::QnnDense(in[0], in[1], in[2], in[3], pool));
       }},
      {"qnn.matmul",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::QnnMatMul(in[0], in[1], in[2], in[3], pool));
       }},
      {"qnn.add",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[0].dtype()));
         return Single(ref::QnnAdd(in[0], in[2], in[3], in[1], in[4], in[5], in[6], in[7], dt));
       }},
      {"qnn.mul",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[0].dtype()));
         return Single(ref::QnnMul(in[0], in[2], in[3], in[1], in[4], in[5], in[6], in[7], dt));
       }},
      {"qnn.concat",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 1));
         size_t k = (in.size() - 2) / 3;
         Tensors data(in.begin(), in.begin() + k), scales(in.begin() + k, in.begin() + 2 * k),
             zps(in.begin() + 2 * k, in.begin() + 3 * k);
         ASSIGN_OR_RETURN(std::string layout, n.attrs().GetString("layout", "NCHW"));
         if (layout == "NCHW") return Single(ref::QnnConcat(data, scales, zps, in[3 * k], in[3 * k + 1], axis));
         // Blocked: through NCHW, each input with its real channels.
         ASSIGN_OR_RETURN(auto channels, n.attrs().GetInts("channels"));
         if (channels.size() != k) return absl::InvalidArgumentError("channels needs one count per input");
         for (size_t i = 0; i < k; ++i) {
           ASSIGN_OR_RETURN(data[i], kernels::spatial_pack::FromBlocked(data[i], channels[i], pool));
         }
         ASSIGN_OR_RETURN(Tensor nchw, ref::QnnConcat(data, scales, zps, in[3 * k], in[3 * k + 1], 1));
         return Single(kernels::spatial_pack::ToBlocked(nchw, ir::ChannelBlock(layout), 0, pool));
       }},
      {"qnn.dynamic_quantize",
       [](const ir::Node&, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         // A range input is a producer's shortcut; the reference recomputes it.
         ASSIGN_OR_RETURN(ref::DynamicQuantizeResult r, ref::DynamicQuantize(in[0]));
         return Tensors{r.y, r.y_scale, r.y_zero_point};
       }},
      {"nn.conv2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         DType dflt = tensor::IsFloat(in[0].dtype()) ? DType::kF32 : DType::kI32;
         ASSIGN_OR_RETURN(auto p, ConvParams(n, dflt));
         return Single(ref::Conv2D(in[0], in[1], p, pool));
       }},
      {"nn.dense",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         if (tensor::IsFloat(in[0].dtype())) return Single(ref::DenseF32(in[0], in[1], pool));
         // Integer dense: the quantized dense with zero points of 0.
         return Single(ref::QnnDense(in[0], in[1], Tensor::Scalar<int32_t>(0),
                                     Tensor::Scalar<int32_t>(0), pool));
       }},
      {"nn.matmul",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::MatMul(in[0], in[1], pool));
       }},
      {"nn.bias_add",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 1));
         return Single(ref::BiasAdd(in[0], in[1], axis));
       }},
      {"nn.max_pool2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, PoolParams(n, /*allow_blocked=*/true));
         return Single(PerChannelThroughNchw(in[0], [&p](const Tensor& x) { return ref::MaxPool2D(x, p); }));
       }},
      {"nn.avg_pool2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, PoolParams(n, /*allow_blocked=*/true));
         return Single(PerChannelThroughNchw(in[0], [&p](const Tensor& x) { return ref::AvgPool2D(x, p); }));
       }},
      {"nn.global_avg_pool2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) {
         return Single(GlobalAvgPool(n, in[0], pool));
       }},
      {"qnn.global_avg_pool2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         // Its definition: the three ops it fuses (dequantize and quantize
         // are elementwise, so any layout).
         ASSIGN_OR_RETURN(Tensor x, ref::Dequantize(in[0], in[1], in[2], 1));
         ASSIGN_OR_RETURN(Tensor pooled, GlobalAvgPool(n, x, pool));
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[0].dtype()));
         return Single(ref::Quantize(pooled, in[3], in[4], 1, dt));
       }},
      {"nn.pad",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto pads, n.attrs().GetInts("pad_width"));
         ASSIGN_OR_RETURN(std::string mode, n.attrs().GetString("pad_mode", "constant"));
         ASSIGN_OR_RETURN(double value, n.attrs().GetFloat("pad_value", 0.0));
         return Single(ref::Pad(in[0], pads, mode, value));
       }},
      {"add", BinaryKernel(&ref::Add)},
      {"subtract", BinaryKernel(&ref::Subtract)},
      {"multiply", BinaryKernel(&ref::Multiply)},
      {"divide", BinaryKernel(&ref::Divide)},
      {"maximum", BinaryKernel(&ref::Maximum)},
      {"minimum", BinaryKernel(&ref::Minimum)},
      {"relu", UnaryKernel(&ref::Relu)},
      {"sigmoid", UnaryKernel(&ref::Sigmoid)},
      {"round", UnaryKernel(&ref::Round)},
      {"tanh", UnaryKernel(&ref::Tanh)},
      {"qnn.lookup",
       [](const ir::Node&, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         return Single(ref::Lookup(in[0], in[1]));
       }},
      {"hard_swish", UnaryKernel(&ref::HardSwish)},
      {"leaky_relu",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double alpha, n.attrs().GetFloat("alpha", 0.01));
         return Single(ref::LeakyRelu(in[0], static_cast<float>(alpha)));
       }},
      {"hard_sigmoid",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double alpha, n.attrs().GetFloat("alpha", 0.2));
         ASSIGN_OR_RETURN(double beta, n.attrs().GetFloat("beta", 0.5));
         return Single(ref::HardSigmoid(in[0], static_cast<float>(alpha), static_cast<float>(beta)));
       }},
      {"softmax",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", -1));
         return Single(ref::Softmax(in[0], axis));
       }},
      {"strided_slice",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto begin, n.attrs().GetInts("begin"));
         ASSIGN_OR_RETURN(auto end, n.attrs().GetInts("end"));
         ASSIGN_OR_RETURN(auto strides, n.attrs().GetInts("strides"));
         return Single(ref::StridedSlice(in[0], begin, end, strides));
       }},
      {"take",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 0));
         ASSIGN_OR_RETURN(std::string layout, n.attrs().GetString("layout", "NCHW"));
         if (layout == "NCHW") return Single(ref::Take(in[0], in[1], axis));
         // Blocked channels: through NCHW, like the blocked qnn.concat.
         ASSIGN_OR_RETURN(int64_t channels, n.attrs().GetInt("channels"));
         ASSIGN_OR_RETURN(Tensor nchw, kernels::spatial_pack::FromBlocked(in[0], channels, pool));
         ASSIGN_OR_RETURN(Tensor picked, ref::Take(nchw, in[1], 1));
         return Single(kernels::spatial_pack::ToBlocked(picked, ir::ChannelBlock(layout), 0, pool));
       }},
      {"broadcast_to",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto shape, n.attrs().GetInts("shape"));
         return Single(ref::BroadcastTo(in[0], shape));
       }},
      {"clip",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double lo, n.attrs().GetFloat("min", -INFINITY));
         ASSIGN_OR_RETURN(double hi, n.attrs().GetFloat("max", INFINITY));
         return Single(ref::Clip(in[0], lo, hi));
       }},
      {"cast",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "dtype", DType::kF32));
         return Single(ref::Cast(in[0], dt));
       }},
      {"concat",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 0));
         return Single(ref::Concat(in, axis));
       }},
      {"reshape",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto shape, n.attrs().GetInts("newshape"));
         return Single(in[0].Reshaped(shape));  // shares the data: no copy
       }},
      {"flatten",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         return Single(in[0].Reshaped(n.output()->type()->shape));
       }},
      {"transpose",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         std::vector<int64_t> dflt(in[0].rank());
         for (int64_t i = 0; i < in[0].rank(); ++i) dflt[i] = in[0].rank() - 1 - i;
         ASSIGN_OR_RETURN(auto axes, n.attrs().GetInts("axes", dflt));
         return Single(ref::Transpose(in[0], axes));
       }},
      {"layout_transform",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(std::string src, n.attrs().GetString("src_layout"));
         ASSIGN_OR_RETURN(std::string dst, n.attrs().GetString("dst_layout"));
         // NCHW <-> NCHW{k}c, the kernels' layouts: the spatial-pack packers.
         int64_t to_block = ir::ChannelBlock(dst), from_block = ir::ChannelBlock(src);
         if (src == "NCHW" && to_block > 0) {
           return Single(kernels::spatial_pack::ToBlocked(in[0], to_block, 0, pool));
         }
         if (dst == "NCHW" && from_block > 0) {
           int64_t channels = in[0].dim(1) * from_block;
           if (n.attrs().Has("channels")) {
             ASSIGN_OR_RETURN(channels, n.attrs().GetInt("channels"));
           }
           return Single(kernels::spatial_pack::FromBlocked(in[0], channels, pool));
         }
         // NCHW <-> NHWC around the NHWC kernels (XNNPACK).
         if (src == "NCHW" && dst == "NHWC") return Single(kernels::layout::NchwToNhwc(in[0], pool));
         if (src == "NHWC" && dst == "NCHW") return Single(kernels::layout::NhwcToNchw(in[0], pool));
         return Single(ref::LayoutTransform(in[0], src, dst));
       }},
      {"resize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto size, n.attrs().GetInts("size"));
         if (size.size() != 2) return absl::InvalidArgumentError("size needs 2 values");
         ref::ResizeParams p;
         ASSIGN_OR_RETURN(p.mode, n.attrs().GetString("method", "nearest"));
         ASSIGN_OR_RETURN(p.coordinate_transformation_mode,
                          n.attrs().GetString("coordinate_transformation_mode", "half_pixel"));
         ASSIGN_OR_RETURN(p.nearest_mode, n.attrs().GetString("nearest_mode", "round_prefer_floor"));
         ASSIGN_OR_RETURN(std::string layout, n.attrs().GetString("layout", "NCHW"));
         if (layout == "NCHW") return Single(ref::Resize2D(in[0], size[0], size[1], p));
         // Blocked: per channel, as in NCHW (padding lanes resized too).
         ASSIGN_OR_RETURN(Tensor nchw, ref::LayoutTransform(in[0], layout, "NCHW"));
         ASSIGN_OR_RETURN(Tensor y, ref::Resize2D(nchw, size[0], size[1], p));
         return Single(ref::LayoutTransform(y, "NCHW", layout));
       }},
      {"reduce_min", ReduceKernel(&ref::ReduceMin)},
      {"reduce_max", ReduceKernel(&ref::ReduceMax)},
      {"reduce_mean", ReduceKernel(&ref::ReduceMean)},
      {"reduce_sum", ReduceKernel(&ref::ReduceSum)},
  };
  return *kernels;
}

}  // namespace

absl::StatusOr<kernels::reference::Pool2DParams> Pool2DParamsOf(const ir::Node& n) {
  ASSIGN_OR_RETURN(ir::Pool2DView v, ir::Pool2DView::Of(n));
  ref::Pool2DParams p;
  p.kernel = v.pool_size;
  p.strides = v.strides;
  p.pads = v.padding;
  p.dilation = v.dilation;
  p.ceil_mode = v.ceil_mode;
  p.count_include_pad = v.count_include_pad;
  return p;
}

absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool) {
  auto it = Kernels().find(node.op());
  if (it == Kernels().end()) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": no reference kernel"));
  }
  auto result = it->second(node, inputs, pool);
  if (!result.ok()) {
    return absl::Status(result.status().code(),
                        absl::StrCat(node.Describe(), ": ", result.status().message()));
  }
  if (result->size() != node.outputs().size()) {
    return absl::InternalError(absl::StrCat(node.Describe(), ": kernel returned ", result->size(),
                                            " results"));
  }
  return result;
}

}  // namespace qnnc::eval
