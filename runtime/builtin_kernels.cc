// KernelRegistry::Global(): the registry with every op family's kernel
// factories (ops/<family>/<family>_kernels.cc).
#include "runtime/kernel_registry.h"

namespace qnnc::runtime {

const KernelRegistry& KernelRegistry::Global() {
  // The families register disjoint keys, so their order does not matter.
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    RegisterConvKernels(*r);
    RegisterQnnElementwiseKernels(*r);
    RegisterQuantizeKernels(*r);
    RegisterDenseKernels(*r);
    RegisterPoolKernels(*r);
    RegisterElementwiseKernels(*r);
    RegisterLayoutKernels(*r);
    return r;
  }();
  return *registry;
}

}  // namespace qnnc::runtime
