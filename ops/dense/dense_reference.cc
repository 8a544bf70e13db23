// The reference kernels of dense and matmul (quantized and not) and of
// bias_add.
#include "eval/kernel_table.h"
#include "ir/op_views.h"
#include "kernels/reference/dense.h"
#include "kernels/reference/elementwise.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::Tensor;

}  // namespace

void AddDenseKernels(KernelTable* table) {
  table->insert({
      {"qnn.dense",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::QnnDense(in[0], in[1], in[2], in[3], pool));
       }},
      {"qnn.matmul",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::QnnMatMul(in[0], in[1], in[2], in[3], pool));
       }},
      {"nn.dense",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) -> absl::StatusOr<Tensors> {
         if (tensor::IsFloat(in[0].dtype())) return Single(ref::DenseF32(in[0], in[1], pool));
         // Integer dense: the quantized dense with zero points of 0.
         return Single(ref::QnnDense(in[0], in[1], Tensor::Scalar<int32_t>(0),
                                     Tensor::Scalar<int32_t>(0), pool));
       }},
      {"nn.matmul",
       [](const ir::Node&, const Tensors& in, pthreadpool_t pool) {
         return Single(ref::MatMul(in[0], in[1], pool));
       }},
      {"nn.bias_add",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(ir::AxisView v, ir::AxisView::Of(n));
         return Single(ref::BiasAdd(in[0], in[1], v.axis));
       }},
  });
}

}  // namespace qnnc::eval::internal
