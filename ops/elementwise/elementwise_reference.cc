// The reference kernels of the float elementwise ops (binary, unary, with
// parameters), softmax, clip and cast.
#include "eval/kernel_table.h"
#include "ir/elementwise_views.h"
#include "ir/op_views.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/softmax.h"
#include "kernels/reference/unary.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;
using tensor::Tensor;

using Binary = absl::StatusOr<Tensor> (*)(const Tensor&, const Tensor&);
Kernel BinaryKernel(Binary f) {
  return [f](const ir::Node&, const Tensors& in, pthreadpool_t) { return Single(f(in[0], in[1])); };
}
using Unary = absl::StatusOr<Tensor> (*)(const Tensor&);
Kernel UnaryKernel(Unary f) {
  return [f](const ir::Node&, const Tensors& in, pthreadpool_t) { return Single(f(in[0])); };
}

}  // namespace

void AddElementwiseKernels(KernelTable* table) {
  table->insert({
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
      {"erf", UnaryKernel(&ref::Erf)},
      {"hard_swish", UnaryKernel(&ref::HardSwish)},
      {"leaky_relu",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::ActivationView v, ir::ActivationView::Of(n));
         return Single(ref::LeakyRelu(in[0], static_cast<float>(v.alpha)));
       }},
      {"hard_sigmoid",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::ActivationView v, ir::ActivationView::Of(n));
         return Single(ref::HardSigmoid(in[0], static_cast<float>(v.alpha), static_cast<float>(v.beta)));
       }},
      {"softmax",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::AxisView v, ir::AxisView::Of(n));
         return Single(ref::Softmax(in[0], v.axis));
       }},
      {"clip",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::ClipView v, ir::ClipView::Of(n));
         return Single(ref::Clip(in[0], v.min, v.max));
       }},
      {"cast",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "dtype", DType::kF32));
         return Single(ref::Cast(in[0], dt));
       }},
  });
}

}  // namespace qnnc::eval::internal
