// The resize kernel (kernels/resize/resize.h), bound per op: f32 (or 8-bit,
// nearest) NCHW or NCHW{k}c; the reference kernel for the rest.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/layout_views.h"
#include "kernels/reference/resize.h"
#include "kernels/resize/resize.h"
#include "runtime/kernel_registry.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

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

void RegisterResizeKernels(KernelRegistry& registry) {
  registry.RegisterForOp("resize", &MakeResize);
}

}  // namespace qnnc::runtime
