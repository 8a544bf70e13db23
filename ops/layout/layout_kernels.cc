// The layout family's kernel factories: the data-movement ops and resize.
//
// Kernels of the data-movement ops (kernels/layout/strided_copy.h):
// transpose, strided_slice, broadcast_to and constant nn.pad, any dtype,
// writing the planned output; take with constant indices, in NCHW{k}c too
// (kernels/layout/take.h); qnn.concat of 8-bit per-tensor inputs, each
// requantized through a table (kernels/layout/concat.h); concat of any dtype;
// layout_transform between NCHW and NCHW{k}c; reshape and flatten. The resize
// kernel (kernels/resize/resize.h): f32 (or 8-bit, nearest) NCHW or NCHW{k}c;
// the reference kernel for the rest.
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "kernels/layout/concat.h"
#include "kernels/layout/strided_copy.h"
#include "kernels/layout/take.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/requantize.h"
#include "kernels/reference/resize.h"
#include "kernels/resize/resize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "runtime/kernel_registry.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;
using Made = absl::StatusOr<std::unique_ptr<PreparedKernel>>;

Made None() { return std::unique_ptr<PreparedKernel>(); }

class TransposeKernel : public PreparedKernel {
 public:
  explicit TransposeKernel(std::vector<int64_t> perm) : perm_(std::move(perm)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::layout::Transpose(in[0], perm_, &out[0], pool);
  }
  std::string description() const override { return "layout transpose"; }

 private:
  std::vector<int64_t> perm_;
};

Made MakeTranspose(const ir::Node& n) {
  if (!n.input(0)->type()) return None();
  auto view = ir::TransposeView::Of(n);
  if (!view.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new TransposeKernel(view->AxesFor(n.input(0)->type()->rank())));
}

class StridedSliceKernel : public PreparedKernel {
 public:
  StridedSliceKernel(std::vector<int64_t> b, std::vector<int64_t> e, std::vector<int64_t> s)
      : begin_(std::move(b)), end_(std::move(e)), strides_(std::move(s)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::layout::StridedSlice(in[0], begin_, end_, strides_, &out[0], pool);
  }
  std::string description() const override { return "layout strided_slice"; }

 private:
  std::vector<int64_t> begin_, end_, strides_;
};

Made MakeStridedSlice(const ir::Node& n) {
  auto view = ir::StridedSliceView::Of(n);
  if (!view.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new StridedSliceKernel(view->begin, view->end, view->strides));
}

class BroadcastKernel : public PreparedKernel {
 public:
  explicit BroadcastKernel(tensor::Shape shape) : shape_(std::move(shape)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::layout::BroadcastTo(in[0], shape_, &out[0], pool);
  }
  std::string description() const override { return "layout broadcast_to"; }

 private:
  tensor::Shape shape_;
};

Made MakeBroadcast(const ir::Node& n) {
  auto view = ir::BroadcastToView::Of(n);
  if (!view.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new BroadcastKernel(view->shape));
}

class PadKernel : public PreparedKernel {
 public:
  PadKernel(std::vector<int64_t> pads, Tensor fill) : pads_(std::move(pads)), fill_(std::move(fill)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::layout::PadConstant(in[0], pads_, fill_, &out[0], pool);
  }
  std::string description() const override { return "layout pad"; }

 private:
  std::vector<int64_t> pads_;
  Tensor fill_;
};

// Constant mode only (edge and reflect stay on the reference kernel).
Made MakePad(const ir::Node& n) {
  auto view = ir::PadView::Of(n);
  if (!view.ok() || !view->constant() || !n.input(0)->type()) return None();
  // The fill as the reference converts the value (rounded, truncated,
  // saturated by dtype): the one element of an empty tensor padded by one.
  auto fill =
      kernels::reference::Pad(Tensor::Zeros(n.input(0)->type()->dtype, {0}), {1, 0}, "constant", view->pad_value);
  if (!fill.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new PadKernel(view->pad_width, *std::move(fill)));
}

// take with constant indices: slices copied whole (any layout-free take),
// or, in NCHW{k}c, the channels gathered block to block.
class TakeKernel : public PreparedKernel {
 public:
  TakeKernel(std::vector<int64_t> indices, tensor::Shape indices_shape, int64_t axis)
      : indices_(std::move(indices)), indices_shape_(std::move(indices_shape)), axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::layout::TakeConstant(in[0], indices_, indices_shape_, axis_, &out[0], pool);
  }
  std::string description() const override { return "layout take"; }

 private:
  std::vector<int64_t> indices_;
  tensor::Shape indices_shape_;
  int64_t axis_;
};

class BlockedTakeKernel : public PreparedKernel {
 public:
  explicit BlockedTakeKernel(kernels::layout::BlockedChannelGather gather) : gather_(std::move(gather)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return gather_.Run(in[0], &out[0], pool);
  }
  std::string description() const override { return "layout take channels blocked"; }

 private:
  kernels::layout::BlockedChannelGather gather_;
};

Made MakeTake(const ir::Node& n) {
  const ir::Value* idx = n.input(1);
  if (!idx->is_constant() || !n.input(0)->type()) return None();
  std::vector<int64_t> indices;
  const Tensor& t = idx->data();
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    indices.push_back(t.dtype() == tensor::DType::kI32 ? static_cast<const int32_t*>(t.raw_data())[i]
                                                       : static_cast<const int64_t*>(t.raw_data())[i]);
  }
  auto view = ir::TakeView::Of(n);
  if (!view.ok()) return None();
  if (view->blocked()) {
    auto gather = kernels::layout::BlockedChannelGather::Make(indices, view->channels, view->layout.channel_block());
    if (!gather.ok()) return None();
    return std::unique_ptr<PreparedKernel>(new BlockedTakeKernel(*std::move(gather)));
  }
  const absl::StatusOr<int64_t> axis = view->AxisFor(n.input(0)->type()->rank());
  if (!axis.ok()) return None();
  const int64_t a = *axis;
  const int64_t dim = n.input(0)->type()->shape[a];
  for (int64_t& i : indices) {
    if (i < 0) i += dim;
    if (i < 0 || i >= dim) return None();  // the reference names the bad index
  }
  return std::unique_ptr<PreparedKernel>(new TakeKernel(std::move(indices), t.shape(), a));
}

// qnn.concat (x_1..x_n, scale_1..n, zero_point_1..n, out_scale,
// out_zero_point): an 8-bit input with per-tensor constants is a function of
// its byte, so its requantization is a 256-entry table, made at load by the
// reference Requantize on every byte value (the reference's bits by
// construction). Inputs already in the output's quantization are copied.
class QnnConcatKernel : public PreparedKernel {
 public:
  // NCHW (or any layout) along `axis`.
  QnnConcatKernel(int64_t axis, std::vector<std::vector<uint8_t>> tables) : axis_(axis), tables_(std::move(tables)) {
    for (const auto& t : tables_) table_ptrs_.push_back(t.empty() ? nullptr : t.data());
  }
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    const std::vector<Tensor> data(in.begin(), in.begin() + table_ptrs_.size());
    return kernels::layout::ConcatWithTables(data, table_ptrs_, axis_, &out[0], pool);
  }
  std::string description() const override { return "layout qnn_concat tables"; }

 private:
  int64_t axis_;
  std::vector<std::vector<uint8_t>> tables_;
  std::vector<const uint8_t*> table_ptrs_;
};

// Blocked: each input's real channels packed after the previous one's.
class BlockedQnnConcatKernel : public PreparedKernel {
 public:
  BlockedQnnConcatKernel(kernels::layout::BlockedChannelGather concat, size_t count)
      : concat_(std::move(concat)), count_(count) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return concat_.Run(std::vector<Tensor>(in.begin(), in.begin() + count_), &out[0], pool);
  }
  std::string description() const override { return "layout qnn_concat tables blocked"; }

 private:
  kernels::layout::BlockedChannelGather concat_;
  size_t count_;
};

Made MakeQnnConcat(const ir::Node& n) {
  const int64_t count = (static_cast<int64_t>(n.inputs().size()) - 2) / 3;
  auto view = ir::QnnConcatView::Of(n);
  if (count < 1 || static_cast<int64_t>(n.inputs().size()) != 3 * count + 2 || !view.ok()) return None();
  for (const ir::Value* v : n.inputs()) {
    if (!v->type()) return None();
  }
  const tensor::DType dtype = n.input(0)->type()->dtype;
  if (dtype != tensor::DType::kU8 && dtype != tensor::DType::kI8) return None();
  const ir::Value* out_scale = n.input(3 * count);
  const ir::Value* out_zp = n.input(3 * count + 1);
  auto scalar = [](const ir::Value* v) { return v->is_constant() && v->data().num_elements() == 1; };
  if (!scalar(out_scale) || !scalar(out_zp)) return None();
  // Every byte value, as the input dtype.
  Tensor bytes = Tensor::Zeros(dtype, {256});
  for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(bytes.raw_data())[b] = static_cast<uint8_t>(b);
  std::vector<std::vector<uint8_t>> tables;
  for (int64_t i = 0; i < count; ++i) {
    const ir::Value* scale = n.input(count + i);
    const ir::Value* zp = n.input(2 * count + i);
    if (n.input(i)->type()->dtype != dtype || !scalar(scale) || !scalar(zp)) return None();
    auto mapped = kernels::reference::Requantize(bytes, scale->data(), zp->data(), out_scale->data(),
                                                 out_zp->data(), 0, dtype);
    if (!mapped.ok()) return None();
    const auto* m = static_cast<const uint8_t*>(mapped->raw_data());
    bool identity = true;
    for (int b = 0; b < 256; ++b) identity = identity && m[b] == b;
    tables.push_back(identity ? std::vector<uint8_t>() : std::vector<uint8_t>(m, m + 256));
  }
  if (view->blocked()) {
    std::vector<kernels::layout::BlockedChannelGather::Input> inputs;
    for (int64_t i = 0; i < count; ++i) inputs.push_back({view->channels[i], std::move(tables[i])});
    auto concat = kernels::layout::BlockedChannelGather::Concat(std::move(inputs), view->layout.channel_block());
    if (!concat.ok()) return None();
    return std::unique_ptr<PreparedKernel>(new BlockedQnnConcatKernel(*std::move(concat), static_cast<size_t>(count)));
  }
  const absl::StatusOr<int64_t> axis = view->AxisFor(n.input(0)->type()->rank());
  if (!axis.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new QnnConcatKernel(*axis, std::move(tables)));
}

// reshape and flatten: the same bytes under the output's shape, copied into
// the planned output (a view when there is none).
class ReshapeKernel : public PreparedKernel {
 public:
  explicit ReshapeKernel(tensor::Shape shape) : shape_(std::move(shape)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t) const override {
    auto view = in[0].Reshaped(shape_);
    if (!view.ok()) return view.status();
    if (out[0].defined() && out[0].dtype() == view->dtype() && out[0].shape() == shape_) {
      if (out[0].raw_data() != view->raw_data()) std::memcpy(out[0].raw_data(), view->raw_data(), view->byte_size());
      return absl::OkStatus();
    }
    out[0] = *std::move(view);
    return absl::OkStatus();
  }
  std::string description() const override { return "layout reshape"; }

 private:
  tensor::Shape shape_;
};

Made MakeReshape(const ir::Node& n) {
  if (!n.output()->type()) return None();
  return std::unique_ptr<PreparedKernel>(new ReshapeKernel(n.output()->type()->shape));
}

class ConcatKernel : public PreparedKernel {
 public:
  explicit ConcatKernel(int64_t axis) : axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::layout::Concat(in, axis_, &out[0], pool);
  }
  std::string description() const override { return "layout concat"; }

 private:
  int64_t axis_;
};

// NCHW <-> NCHW{k}c (the spatial-pack layouts) of any dtype, into the
// planned output; padding lanes 0, as the reference's.
class BlockLayoutKernel : public PreparedKernel {
 public:
  BlockLayoutKernel(int64_t to_block, int64_t channels) : to_block_(to_block), channels_(channels) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (to_block_ > 0) return kernels::spatial_pack::ToBlockedInto(in[0], to_block_, 0, &out[0], pool);
    return kernels::spatial_pack::FromBlockedInto(in[0], channels_, &out[0], pool);
  }
  std::string description() const override { return "layout blocks"; }

 private:
  int64_t to_block_, channels_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeLayoutTransform(const ir::Node& n) {
  auto none = [] { return None(); };
  auto view = ir::LayoutTransformView::Of(n);
  if (!view.ok() || n.inputs().size() != 1 || !n.input(0)->type()) return none();
  const ir::TensorType& t = *n.input(0)->type();
  const ir::Layout& src = view->src_layout;
  const ir::Layout& dst = view->dst_layout;
  const int64_t to_block = dst.channel_block(), from_block = src.channel_block();
  if (src.is_nchw() && to_block > 0 && t.rank() == 4) {
    return std::unique_ptr<PreparedKernel>(new BlockLayoutKernel(to_block, 0));
  }
  if (dst.is_nchw() && from_block > 0 && t.rank() == 5) {
    // The channel count as the reference evaluator reads it.
    const int64_t channels = view->channels.value_or(t.shape[1] * from_block);
    if (channels <= 0 || channels > t.shape[1] * from_block) return none();
    return std::unique_ptr<PreparedKernel>(new BlockLayoutKernel(0, channels));
  }
  return none();
}

// Any dtype, typed inputs; a negative axis counts from the end.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeConcat(const ir::Node& n) {
  auto view = ir::AxisView::Of(n);
  if (!view.ok() || n.inputs().empty() || !n.input(0)->type()) return None();
  const absl::StatusOr<int64_t> axis = view->AxisFor(n.input(0)->type()->rank());
  if (!axis.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new ConcatKernel(*axis));
}

class ResizeKernel : public PreparedKernel {
 public:
  ResizeKernel(int64_t h, int64_t w, kernels::reference::ResizeParams p) : h_(h), w_(w), p_(std::move(p)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::resize::Resize(in[0], h_, w_, p_, &out[0], pool);
  }
  std::string description() const override { return p_.mode == "nearest" ? "resize nearest" : "resize linear f32"; }

 private:
  int64_t h_, w_;
  kernels::reference::ResizeParams p_;
};

// f32 (or 8-bit, nearest) NCHW or NCHW{k}c with the attributes the
// reference evaluator reads.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeResize(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  const DType dt = n.input(0)->type() ? n.input(0)->type()->dtype : DType::kF32;
  if (n.inputs().size() != 1 || !n.input(0)->type() || (dt != DType::kF32 && dt != DType::kU8 && dt != DType::kI8) ||
      (n.input(0)->type()->shape.size() != 4 && n.input(0)->type()->shape.size() != 5)) {
    return none();
  }
  auto view = ir::ResizeView::Of(n);
  if (!view.ok()) return none();
  kernels::reference::ResizeParams p;
  p.mode = view->method;
  p.coordinate_transformation_mode = view->coordinate_transformation_mode;
  p.nearest_mode = view->nearest_mode;
  if (dt != DType::kF32 && p.mode != "nearest") return none();
  // Parameters the reference refuses stay with it (and its error).
  tensor::Shape planes = n.input(0)->type()->shape;
  planes.resize(4);  // a blocked tensor's lanes resize as its channels
  if (!kernels::reference::PlanResize2D(planes, 0, 0, p).ok()) return none();
  return std::unique_ptr<PreparedKernel>(new ResizeKernel(view->size[0], view->size[1], p));
}

}  // namespace

void RegisterLayoutKernels(KernelRegistry& registry) {
  registry.RegisterForOp("reshape", &MakeReshape);
  registry.RegisterForOp("flatten", &MakeReshape);
  registry.RegisterForOp("qnn.concat", &MakeQnnConcat);
  registry.RegisterForOp("transpose", &MakeTranspose);
  registry.RegisterForOp("strided_slice", &MakeStridedSlice);
  registry.RegisterForOp("take", &MakeTake);
  registry.RegisterForOp("broadcast_to", &MakeBroadcast);
  registry.RegisterForOp("nn.pad", &MakePad);
  registry.RegisterForOp("concat", &MakeConcat);
  registry.RegisterForOp("layout_transform", &MakeLayoutTransform);
  registry.RegisterForOp("resize", &MakeResize);
}

}  // namespace qnnc::runtime
