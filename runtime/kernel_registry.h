// Kernels bound to ops once, when a plan is loaded. A factory, keyed by the
// op and the implementation its decision names (the `impl` attribute),
// prepares a kernel from the node (constant inputs such as weights are read
// and packed then); the executor runs it on every run. Ops without a
// registered factory run on the reference kernels (node_evaluator.h).
#ifndef QNNC_RUNTIME_KERNEL_REGISTRY_H_
#define QNNC_RUNTIME_KERNEL_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

class PreparedKernel {
 public:
  virtual ~PreparedKernel() = default;
  // Inputs in the node's order (constants included); `outputs` holds one
  // tensor per result, in its order: a planned view of the node's output type
  // (memory_plan.h) that the kernel writes in place, or an undefined tensor
  // the kernel sets.
  virtual absl::Status Run(const std::vector<tensor::Tensor>& inputs,
                           std::vector<tensor::Tensor>& outputs, pthreadpool_t pool) const = 0;
  // What runs, e.g. "spatial_pack u8s8.avx512vnni.dense tile_co=32 tile_ow=14".
  virtual std::string description() const = 0;
  // The instruction set this kernel needs and this host may not use (e.g.
  // "avx512vnni"), or empty. Such a kernel was checked and described when the
  // plan was compiled, but not created: its Run fails (see ExecutorOptions).
  virtual std::string missing_isa() const { return ""; }
};

using KernelFactory =
    std::function<absl::StatusOr<std::unique_ptr<PreparedKernel>>(const ir::Node& node)>;

class KernelRegistry {
 public:
  // The registry with qnnc's native and XNNPACK kernels.
  static const KernelRegistry& Global();

  void Register(const std::string& op, const std::string& implementation, KernelFactory factory);
  // A kernel for nodes of `op` that no (op, impl) factory takes: elementwise
  // ops (no decision), or ops whose implementation left them to a generic
  // kernel (the integer nn.dense of the u8s8 legalizations). Its factory
  // returns nullptr for a node outside its case, which then runs on the
  // reference kernel.
  void RegisterForOp(const std::string& op, KernelFactory factory);
  // The factory for the node's op and `impl` attribute, else the op's, or
  // nullptr.
  const KernelFactory* Find(const ir::Node& node) const;
  // Whether a factory is registered for (op, implementation), a renamed
  // implementation's old name standing for its new one; or for op.
  bool Has(const std::string& op, const std::string& implementation) const;
  bool HasForOp(const std::string& op) const { return op_factories_.count(op) > 0; }

 private:
  std::map<std::pair<std::string, std::string>, KernelFactory> factories_;
  std::map<std::string, KernelFactory> op_factories_;
};

// Registers the fused-convolution kernels (kernels/spatial_pack, kernels/xnnpack).
void RegisterConvKernels(KernelRegistry& registry);
// Registers the dynamically quantized convolutions' kernels
// (kernels/spatial_pack/dynamic_conv.h): qnn.conv2d with a run-time data zero
// point and qnn.conv2d_dynamic.
void RegisterDynamicConvKernels(KernelRegistry& registry);
// Registers the kernels bound per op (KernelRegistry::RegisterForOp), one
// function per family: quantize_kernels.cc (quantize, dequantize,
// requantize, qnn.add, qnn.mul, bias_add), dense_kernels.cc (integer
// nn.dense, qnn.matmul), pool_kernels.cc, float_kernels.cc (the float ops of
// dynamically quantized models) and resize_kernels.cc.
void RegisterQuantizeKernels(KernelRegistry& registry);
void RegisterDenseKernels(KernelRegistry& registry);
void RegisterPoolKernels(KernelRegistry& registry);
void RegisterFloatKernels(KernelRegistry& registry);
void RegisterResizeKernels(KernelRegistry& registry);
// Registers the data-movement kernels (layout_kernels.cc,
// kernels/layout/strided_copy.h): transpose, strided_slice, broadcast_to,
// constant nn.pad, concat, layout_transform, take, qnn.concat, qnn.lookup.
void RegisterLayoutKernels(KernelRegistry& registry);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_KERNEL_REGISTRY_H_
