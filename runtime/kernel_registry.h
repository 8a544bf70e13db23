// Kernels bound to ops once, when a plan is loaded. A factory, keyed by the
// op and the implementation its decision names (the `impl` attribute),
// prepares a kernel from the node (constant inputs such as weights are read
// and packed then); the executor runs it on every run. Ops without a
// registered factory run on the reference kernels (node_evaluator.h).
#ifndef QNNC_RUNTIME_KERNEL_REGISTRY_H_
#define QNNC_RUNTIME_KERNEL_REGISTRY_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "pthreadpool.h"
#include "runtime/packed_state.h"
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
  // Whether Run reads no byte past its inputs' elements, needs no zero
  // padding after them and no alignment: such a kernel may take a graph
  // input over the caller's memory (tensor::Tensor::Borrow) without a copy.
  virtual bool ReadsWithinInputs() const { return false; }
  // Whether Run reads the node's constant inputs. False: the kernel copied
  // what it needs from them when it was made (packed weights, bias and
  // multipliers), so a constant no other step reads may leave memory
  // (tensor::Tensor::ReleasePages).
  virtual bool ReadsConstantsWhenRun() const { return true; }
  // The instruction set this kernel needs and this host may not use (e.g.
  // "avx512vnni"), or empty. Such a kernel was checked and described when the
  // plan was compiled, but not created: its Run fails (see ExecutorOptions).
  virtual std::string missing_isa() const { return ""; }
  // The state to save in a plan, for a kernel the registry can restore from
  // it (KernelRegistry::RegisterRestorer); otherwise nullopt.
  virtual std::optional<PackedState> packed_state() const { return std::nullopt; }
};

using KernelFactory =
    std::function<absl::StatusOr<std::unique_ptr<PreparedKernel>>(const ir::Node& node)>;
// Makes the kernel a factory made, from its packed_state() read from a
// plan: an error when the state is not what the kernel packs.
using KernelRestorer = std::function<absl::StatusOr<std::unique_ptr<PreparedKernel>>(
    const ir::Node& node, const PackedState& state)>;

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
  // The restorer of (op, implementation)'s kernels from their packed state.
  void RegisterRestorer(const std::string& op, const std::string& implementation,
                        KernelRestorer restorer);
  // The factory for the node's op and `impl` attribute, else the op's, or
  // nullptr.
  const KernelFactory* Find(const ir::Node& node) const;
  // The restorer for the node's op and `impl` attribute, or nullptr.
  const KernelRestorer* FindRestorer(const ir::Node& node) const;
  // Whether a factory is registered for (op, implementation), a renamed
  // implementation's old name standing for its new one; or for op.
  bool Has(const std::string& op, const std::string& implementation) const;
  bool HasForOp(const std::string& op) const { return op_factories_.count(op) > 0; }
  // Every op with a factory, by implementation or for the op.
  std::set<std::string> ops() const;

 private:
  std::map<std::pair<std::string, std::string>, KernelFactory> factories_;
  std::map<std::string, KernelFactory> op_factories_;
  std::map<std::pair<std::string, std::string>, KernelRestorer> restorers_;
};

// Each op family registers its kernel factories with
// Register<Family>Kernels(KernelRegistry&) in ops/<family>/<family>_kernels.cc;
// the generated builtin_kernels.cc (ops/op_family.bzl) declares them and
// Global() calls them all.

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_KERNEL_REGISTRY_H_
