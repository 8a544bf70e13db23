// The reference kernels of pooling (max, average and global average: float,
// and quantized global average, in NCHW or NCHW{k}c) and of the reductions.
#include <vector>

#include "eval/kernel_table.h"
#include "ops/pool/pool_params.h"
#include "ir/elementwise_views.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "kernels/reference/pool.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/reduce.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;
using tensor::Tensor;

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

// nn.global_avg_pool2d in NCHW, or in NCHW{k}c with every lane as a
// channel (padding lanes too).
absl::StatusOr<Tensor> GlobalAvgPool(const ir::Node& n, const Tensor& x, pthreadpool_t pool) {
  ASSIGN_OR_RETURN(ir::GlobalPoolView v, ir::GlobalPoolView::Of(n));
  const int64_t block = v.layout.channel_block();
  if (block == 0) {
    RETURN_IF_ERROR(ExpectLayout("layout", v.layout, ir::Layout::Nchw()));
    return ref::GlobalAvgPool2D(x);
  }
  const int64_t lanes = x.dim(1) * block;
  ASSIGN_OR_RETURN(Tensor nchw, kernels::spatial_pack::FromBlocked(x, lanes, pool));
  ASSIGN_OR_RETURN(Tensor pooled, ref::GlobalAvgPool2D(nchw));
  return kernels::spatial_pack::ToBlocked(pooled, block, 0, pool);
}

absl::StatusOr<ref::Pool2DParams> PoolParams(const ir::Node& n, bool allow_blocked = false) {
  ASSIGN_OR_RETURN(ir::Pool2DView v, ir::Pool2DView::Of(n));
  if (!(allow_blocked && v.layout.blocked())) {
    RETURN_IF_ERROR(ExpectLayout("layout", v.layout, ir::Layout::Nchw()));
  }
  return Pool2DParamsOf(v);
}

using Reduce = absl::StatusOr<Tensor> (*)(const Tensor&, const std::vector<int64_t>&, bool);
Kernel ReduceKernel(Reduce f) {
  return [f](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
    ASSIGN_OR_RETURN(ir::ReduceView v, ir::ReduceView::Of(n));
    return Single(f(in[0], v.axes, v.keepdims));
  };
}

}  // namespace

void AddPoolKernels(KernelTable* table) {
  table->insert({
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
      {"reduce_min", ReduceKernel(&ref::ReduceMin)},
      {"reduce_max", ReduceKernel(&ref::ReduceMax)},
      {"reduce_mean", ReduceKernel(&ref::ReduceMean)},
      {"reduce_sum", ReduceKernel(&ref::ReduceSum)},
  });
}

}  // namespace qnnc::eval::internal
