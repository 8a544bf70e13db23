// The reference kernels of the float elementwise ops (binary, unary, with
// parameters), softmax, clip, cast and the reductions.
#include <cmath>
#include <vector>

#include "eval/internal/kernel_table.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/reduce.h"
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
using Reduce = absl::StatusOr<Tensor> (*)(const Tensor&, const std::vector<int64_t>&, bool);
Kernel ReduceKernel(Reduce f) {
  return [f](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
    ASSIGN_OR_RETURN(auto axes, n.attrs().GetInts("axes", {}));
    ASSIGN_OR_RETURN(int64_t keepdims, n.attrs().GetInt("keepdims", 1));
    return Single(f(in[0], axes, keepdims != 0));
  };
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
      {"hard_swish", UnaryKernel(&ref::HardSwish)},
      {"leaky_relu",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double alpha, n.attrs().GetFloat("alpha", 0.01));
         return Single(ref::LeakyRelu(in[0], static_cast<float>(alpha)));
       }},
      {"hard_sigmoid",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double alpha, n.attrs().GetFloat("alpha", 0.2));
         ASSIGN_OR_RETURN(double beta, n.attrs().GetFloat("beta", 0.5));
         return Single(ref::HardSigmoid(in[0], static_cast<float>(alpha), static_cast<float>(beta)));
       }},
      {"softmax",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(int64_t axis, n.attrs().GetInt("axis", -1));
         return Single(ref::Softmax(in[0], axis));
       }},
      {"clip",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(double lo, n.attrs().GetFloat("min", -INFINITY));
         ASSIGN_OR_RETURN(double hi, n.attrs().GetFloat("max", INFINITY));
         return Single(ref::Clip(in[0], lo, hi));
       }},
      {"cast",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "dtype", DType::kF32));
         return Single(ref::Cast(in[0], dt));
       }},
      {"reduce_min", ReduceKernel(&ref::ReduceMin)},
      {"reduce_max", ReduceKernel(&ref::ReduceMax)},
      {"reduce_mean", ReduceKernel(&ref::ReduceMean)},
      {"reduce_sum", ReduceKernel(&ref::ReduceSum)},
  });
}

}  // namespace qnnc::eval::internal
