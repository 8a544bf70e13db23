// The reference kernels of quantization (quantize, dequantize, requantize,
// fixed_point_multiply, dynamic quantization) and of the quantized
// elementwise ops, concat and lookup.
#include <optional>

#include "absl/status/status.h"
#include "eval/internal/kernel_table.h"
#include "ir/elementwise_views.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/requantize.h"
#include "kernels/requantize/fixed_point_multiply.h"
#include "kernels/requantize/requantize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;
using tensor::Tensor;

}  // namespace

void AddQuantizeKernels(KernelTable* table) {
  table->insert({
      {"qnn.quantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::AxisView v, ir::AxisView::Of(n));
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[2].dtype()));
         return Single(ref::Quantize(in[0], in[1], in[2], v.axis, dt));
       }},
      {"qnn.dequantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::AxisView v, ir::AxisView::Of(n));
         return Single(ref::Dequantize(in[0], in[1], in[2], v.axis));
       }},
      {"qnn.requantize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::RequantizeView v, ir::RequantizeView::Of(n));
         const std::optional<int64_t> lo = v.clamp_min, hi = v.clamp_max;
         if (v.nearest_even()) {
           return Single(ref::Requantize(in[0], in[1], in[2], in[3], in[4], v.axis, v.out_dtype, lo, hi));
         }
         return Single(kernels::requantize::Requantize(in[0], in[1], in[2], in[3], in[4], v.axis,
                                                       v.out_dtype, v.rounding, lo, hi));
       }},
      {"fixed_point_multiply",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::FixedPointMultiplyView v, ir::FixedPointMultiplyView::Of(n));
         return Single(kernels::requantize::FixedPointMultiply(in[0], in[1], in[2], v.axis, v.rounding));
       }},
      {"qnn.dynamic_quantize",
       [](const ir::Node&, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         // A range input is a producer's shortcut; the reference recomputes it.
         ASSIGN_OR_RETURN(ref::DynamicQuantizeResult r, ref::DynamicQuantize(in[0]));
         return Tensors{r.y, r.y_scale, r.y_zero_point};
       }},
  });
}

void AddQnnElementwiseKernels(KernelTable* table) {
  table->insert({
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
         ASSIGN_OR_RETURN(ir::QnnConcatView v, ir::QnnConcatView::Of(n));
         size_t k = (in.size() - 2) / 3;
         Tensors data(in.begin(), in.begin() + k), scales(in.begin() + k, in.begin() + 2 * k),
             zps(in.begin() + 2 * k, in.begin() + 3 * k);
         if (!v.blocked()) return Single(ref::QnnConcat(data, scales, zps, in[3 * k], in[3 * k + 1], v.axis));
         // Blocked: through NCHW, each input with its real channels.
         for (size_t i = 0; i < k; ++i) {
           ASSIGN_OR_RETURN(data[i], kernels::spatial_pack::FromBlocked(data[i], v.channels[i], pool));
         }
         ASSIGN_OR_RETURN(Tensor nchw, ref::QnnConcat(data, scales, zps, in[3 * k], in[3 * k + 1], 1));
         return Single(kernels::spatial_pack::ToBlocked(nchw, ir::ChannelBlock(v.layout), 0, pool));
       }},
      {"qnn.lookup",
       [](const ir::Node&, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         return Single(ref::Lookup(in[0], in[1]));
       }},
  });
}

}  // namespace qnnc::eval::internal
