// The reference kernels of the quantized elementwise ops: qnn.add, qnn.mul
// and qnn.lookup.
#include "eval/kernel_table.h"
#include "kernels/reference/qnn_elementwise.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {
namespace {

namespace ref = ::qnnc::kernels::reference;
using tensor::DType;

}  // namespace

void AddQnnElementwiseKernels(KernelTable* table) {
  table->insert({
      {"qnn.add",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[0].dtype()));
         return Single(ref::QnnAdd(in[0], in[2], in[3], in[1], in[4], in[5], in[6], in[7], dt));
       }},
      {"qnn.mul",
       [](const ir::Node& n, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         ASSIGN_OR_RETURN(DType dt, DTypeAttr(n, "out_dtype", in[0].dtype()));
         return Single(ref::QnnMul(in[0], in[2], in[3], in[1], in[4], in[5], in[6], in[7], dt));
       }},
      {"qnn.lookup",
       [](const ir::Node&, const Tensors& in, pthreadpool_t) -> absl::StatusOr<Tensors> {
         return Single(ref::Lookup(in[0], in[1]));
       }},
  });
}

}  // namespace qnnc::eval::internal
