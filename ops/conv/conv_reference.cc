// The reference kernels of the convolutions: quantized, quantized with a
// fused requantize or dynamic quantization, and float.
#include <array>

#include "eval/kernel_table.h"
#include "ir/op_views.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/requantize.h"
#include "kernels/reference/unary.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;
using tensor::Tensor;

absl::StatusOr<ref::Conv2DParams> ConvParams(const ir::Node& n, DType dflt_out) {
  ASSIGN_OR_RETURN(ir::Conv2DView v, ir::Conv2DView::Of(n));
  RETURN_IF_ERROR(ExpectLayout("data_layout", v.data_layout, ir::Layout::Nchw()));
  RETURN_IF_ERROR(ExpectLayout("kernel_layout", v.kernel_layout, ir::Layout::Oihw()));
  ref::Conv2DParams p;
  p.geometry() = v.geometry();
  ASSIGN_OR_RETURN(p.out_dtype, DTypeAttr(n, "out_dtype", dflt_out));
  return p;
}

}  // namespace

void AddConvKernels(KernelTable* table) {
  table->insert({
      {"qnn.conv2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         return Single(ref::QnnConv2D(in[0], in[1], in[2], in[3], p, pool));
       }},
      {"qnn.conv2d_requantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         p.out_dtype = DType::kI32;  // the accumulator; out_dtype is the requantized type
         ASSIGN_OR_RETURN(ir::FusedConvView fused, ir::FusedConvView::Of(n));
         const double pad_value = fused.pad_value.value_or(0.0);
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
         return Single(ref::Requantize(acc, in[7], Tensor::Scalar<int32_t>(0), in[8], in[9], 1,
                                       fused.out_dtype, fused.clamp_min, fused.clamp_max));
       }},
      {"qnn.conv2d_dynamic",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto p, ConvParams(n, DType::kI32));
         ASSIGN_OR_RETURN(ir::FusedConvView fused, ir::FusedConvView::Of(n));
         ASSIGN_OR_RETURN(Tensor acc, ref::QnnConv2D(in[0], in[1], in[2], in[3], p, pool));
         ASSIGN_OR_RETURN(Tensor y, ref::Cast(acc, DType::kF32));
         ASSIGN_OR_RETURN(y, ref::Multiply(y, in[4]));
         if (in.size() > 5) {
           ASSIGN_OR_RETURN(y, ref::Add(y, in[5]));
         }
         if (fused.clip) {
           ASSIGN_OR_RETURN(y, ref::Clip(y, fused.clip_min, fused.clip_max));
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
      {"nn.conv2d",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         DType dflt = tensor::IsFloat(in[0].dtype()) ? DType::kF32 : DType::kI32;
         ASSIGN_OR_RETURN(auto p, ConvParams(n, dflt));
         return Single(ref::Conv2D(in[0], in[1], p, pool));
       }},
  });
}

}  // namespace qnnc::eval::internal
