// The reference evaluator's op table (eval/node_evaluator.cc), filled by one
// function per family of ops, and the helpers the families share. Not a
// public API.
#ifndef QNNC_EVAL_INTERNAL_KERNEL_TABLE_H_
#define QNNC_EVAL_INTERNAL_KERNEL_TABLE_H_

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::eval::internal {

using Tensors = std::vector<tensor::Tensor>;
// One op's reference kernel: the node (for its attributes), its inputs and
// the thread pool give its results.
using Kernel =
    std::function<absl::StatusOr<Tensors>(const ir::Node&, const Tensors&, pthreadpool_t)>;
// Op name -> its reference kernel.
using KernelTable = std::map<std::string, Kernel>;

// A kernel's one result as a list of results.
inline absl::StatusOr<Tensors> Single(absl::StatusOr<tensor::Tensor> t) {
  if (!t.ok()) return t.status();
  return Tensors{*std::move(t)};
}

// The dtype named by the attribute `name`, `dflt` when it is absent.
absl::StatusOr<tensor::DType> DTypeAttr(const ir::Node& n, const char* name, tensor::DType dflt);

// OK when `got`, the value of the layout attribute `attr` (from the op's
// view), is `layout`, else an Unimplemented error: the reference kernel
// computes only in that layout.
absl::Status ExpectLayout(const char* attr, const std::string& got, const char* layout);

// Each adds its family's ops to `table`.
// quantize_kernels.cc: (de/re)quantization, fixed_point_multiply.
void AddQuantizeKernels(KernelTable* table);
// quantize_kernels.cc: the quantized elementwise ops, concat and lookup.
void AddQnnElementwiseKernels(KernelTable* table);
// conv_kernels.cc: the convolutions, quantized and not.
void AddConvKernels(KernelTable* table);
// conv_kernels.cc: dense, matmul and bias_add.
void AddDenseKernels(KernelTable* table);
// pool_kernels.cc: max, average and global average pooling.
void AddPoolKernels(KernelTable* table);
// elementwise_kernels.cc: float unary and binary ops, softmax, clip, cast,
// reductions.
void AddElementwiseKernels(KernelTable* table);
// layout_kernels.cc: layout_transform, transpose, reshape, flatten.
void AddLayoutKernels(KernelTable* table);
// layout_kernels.cc: pad, slice, take, broadcast, concat, resize.
void AddDataMovementKernels(KernelTable* table);

}  // namespace qnnc::eval::internal

#endif  // QNNC_EVAL_INTERNAL_KERNEL_TABLE_H_
