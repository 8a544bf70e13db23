// The reference kernels that move values without computing on them:
// layout_transform, transpose, reshape and flatten; pad, strided_slice,
// take, broadcast_to, concat and resize.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "eval/internal/kernel_table.h"
#include "ir/layout.h"
#include "kernels/layout/nhwc.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/resize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::Tensor;

}  // namespace

void AddLayoutKernels(KernelTable* table) {
  table->insert({
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
      {"transpose",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         std::vector<int64_t> dflt(in[0].rank());
         for (int64_t i = 0; i < in[0].rank(); ++i) dflt[i] = in[0].rank() - 1 - i;
         ASSIGN_OR_RETURN(auto axes, n.attrs().GetInts("axes", dflt));
         return Single(ref::Transpose(in[0], axes));
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
  });
}

void AddDataMovementKernels(KernelTable* table) {
  table->insert({
      {"nn.pad",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(auto pads, n.attrs().GetInts("pad_width"));
         ASSIGN_OR_RETURN(std::string mode, n.attrs().GetString("pad_mode", "constant"));
         ASSIGN_OR_RETURN(double value, n.attrs().GetFloat("pad_value", 0.0));
         return Single(ref::Pad(in[0], pads, mode, value));
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
      {"concat",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", 0));
         return Single(ref::Concat(in, axis));
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
  });
}

}  // namespace qnnc::eval::internal
