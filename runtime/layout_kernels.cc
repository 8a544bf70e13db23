// Kernels of the data-movement ops (kernels/layout/strided_copy.h):
// transpose, strided_slice, broadcast_to and constant nn.pad, any dtype,
// writing the planned output.
#include <memory>
#include <vector>

#include "kernels/layout/strided_copy.h"
#include "kernels/reference/layout.h"
#include "runtime/kernel_registry.h"

namespace qnnc::runtime {
namespace {

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
  const int64_t r = n.input(0)->type()->rank();
  std::vector<int64_t> dflt(r);
  for (int64_t i = 0; i < r; ++i) dflt[i] = r - 1 - i;
  auto axes = n.attrs().GetInts("axes", dflt);
  if (!axes.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new TransposeKernel(*axes));
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
  auto b = n.attrs().GetInts("begin");
  auto e = n.attrs().GetInts("end");
  auto s = n.attrs().GetInts("strides");
  if (!b.ok() || !e.ok() || !s.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new StridedSliceKernel(*b, *e, *s));
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
  auto shape = n.attrs().GetInts("shape");
  if (!shape.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new BroadcastKernel(*shape));
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
  auto pads = n.attrs().GetInts("pad_width");
  auto mode = n.attrs().GetString("pad_mode", "constant");
  auto value = n.attrs().GetFloat("pad_value", 0.0);
  if (!pads.ok() || !mode.ok() || *mode != "constant" || !value.ok() || !n.input(0)->type()) return None();
  // The fill as the reference converts the value (rounded, truncated,
  // saturated by dtype): the one element of an empty tensor padded by one.
  auto fill = kernels::reference::Pad(Tensor::Zeros(n.input(0)->type()->dtype, {0}), {1, 0}, "constant", *value);
  if (!fill.ok()) return None();
  return std::unique_ptr<PreparedKernel>(new PadKernel(*pads, *std::move(fill)));
}

}  // namespace

void RegisterLayoutKernels(KernelRegistry& registry) {
  registry.RegisterForOp("transpose", &MakeTranspose);
  registry.RegisterForOp("strided_slice", &MakeStridedSlice);
  registry.RegisterForOp("broadcast_to", &MakeBroadcast);
  registry.RegisterForOp("nn.pad", &MakePad);
}

}  // namespace qnnc::runtime
