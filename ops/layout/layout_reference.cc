// The reference kernels that move values without computing on them:
// layout_transform, transpose, reshape and flatten; pad, strided_slice,
// take, broadcast_to, concat, qnn.concat and resize.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "eval/kernel_table.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "kernels/layout/nhwc.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/reference/resize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::Tensor;

// layout_transform, transpose, reshape and flatten.
void AddRelayoutKernels(KernelTable* table) {
  table->insert({
      {"layout_transform",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::LayoutTransformView v, ir::LayoutTransformView::Of(n));
         const ir::Layout& src = v.src_layout;
         const ir::Layout& dst = v.dst_layout;
         // NCHW <-> NCHW{k}c, the kernels' layouts: the spatial-pack packers.
         const int64_t to_block = dst.channel_block(), from_block = src.channel_block();
         if (src.is_nchw() && to_block > 0) {
           return Single(kernels::spatial_pack::ToBlocked(in[0], to_block, 0, pool));
         }
         if (dst.is_nchw() && from_block > 0) {
           const int64_t channels = v.channels.value_or(in[0].dim(1) * from_block);
           return Single(kernels::spatial_pack::FromBlocked(in[0], channels, pool));
         }
         // NCHW <-> NHWC around the NHWC kernels (XNNPACK).
         if (src.is_nchw() && dst.is_nhwc()) return Single(kernels::layout::NchwToNhwc(in[0], pool));
         if (src.is_nhwc() && dst.is_nchw()) return Single(kernels::layout::NhwcToNchw(in[0], pool));
         // (The reference kernels, below the IR, read layouts by their text.)
         return Single(ref::LayoutTransform(in[0], src.str(), dst.str()));
       }},
      {"transpose",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::TransposeView v, ir::TransposeView::Of(n));
         return Single(ref::Transpose(in[0], v.AxesFor(in[0].rank())));
       }},
      {"reshape",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::ReshapeView v, ir::ReshapeView::Of(n));
         return Single(in[0].Reshaped(v.newshape));  // shares the data: no copy
       }},
      {"flatten",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         return Single(in[0].Reshaped(n.output()->type()->shape));
       }},
  });
}

// nn.pad, strided_slice, take, broadcast_to, concat, qnn.concat and resize.
void AddCopyKernels(KernelTable* table) {
  table->insert({
      {"nn.pad",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::PadView v, ir::PadView::Of(n));
         return Single(ref::Pad(in[0], v.pad_width, v.pad_mode, v.pad_value));
       }},
      {"strided_slice",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::StridedSliceView v, ir::StridedSliceView::Of(n));
         return Single(ref::StridedSlice(in[0], v.begin, v.end, v.strides));
       }},
      {"take",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::TakeView v, ir::TakeView::Of(n));
         if (!v.blocked()) return Single(ref::Take(in[0], in[1], v.axis));
         // Blocked channels: through NCHW, like the blocked qnn.concat.
         ASSIGN_OR_RETURN(Tensor nchw, kernels::spatial_pack::FromBlocked(in[0], v.channels, pool));
         ASSIGN_OR_RETURN(Tensor picked, ref::Take(nchw, in[1], 1));
         return Single(kernels::spatial_pack::ToBlocked(picked, v.layout.channel_block(), 0, pool));
       }},
      {"broadcast_to",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::BroadcastToView v, ir::BroadcastToView::Of(n));
         return Single(ref::BroadcastTo(in[0], v.shape));
       }},
      {"concat",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::AxisView v, ir::AxisView::Of(n));
         return Single(ref::Concat(in, v.axis));
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
         return Single(kernels::spatial_pack::ToBlocked(nchw, v.layout.channel_block(), 0, pool));
       }},
      {"resize",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::ResizeView v, ir::ResizeView::Of(n));
         ref::ResizeParams p;
         p.mode = v.method;
         p.coordinate_transformation_mode = v.coordinate_transformation_mode;
         p.nearest_mode = v.nearest_mode;
         if (v.layout.is_nchw()) return Single(ref::Resize2D(in[0], v.size[0], v.size[1], p));
         // Blocked: per channel, as in NCHW (padding lanes resized too).
         const std::string nchw_text = ir::Layout::Nchw().str();
         ASSIGN_OR_RETURN(Tensor nchw, ref::LayoutTransform(in[0], v.layout.str(), nchw_text));
         ASSIGN_OR_RETURN(Tensor y, ref::Resize2D(nchw, v.size[0], v.size[1], p));
         return Single(ref::LayoutTransform(y, nchw_text, v.layout.str()));
       }},
  });
}

}  // namespace

void AddLayoutKernels(KernelTable* table) {
  AddRelayoutKernels(table);
  AddCopyKernels(table);
}

}  // namespace qnnc::eval::internal
