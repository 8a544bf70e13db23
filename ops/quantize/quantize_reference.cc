// The reference kernels of quantization: quantize, dequantize, requantize,
// fixed_point_multiply and dynamic quantization.
#include <optional>

#include "eval/kernel_table.h"
#include "ir/elementwise_views.h"
#include "ir/op_views.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/requantize.h"
#include "kernels/requantize/fixed_point_multiply.h"
#include "kernels/requantize/requantize.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;

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

}  // namespace qnnc::eval::internal
