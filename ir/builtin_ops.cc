// The global registry of the built-in ops: every op family's definitions
// (ops/<family>/<family>_def.cc) registered once, on first use.
#include "ir/op_registry.h"

namespace qnnc::ir {

const OpRegistry& OpRegistry::Global() {
  static const OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    RegisterConvOps(*r);
    RegisterDenseOps(*r);
    RegisterPoolOps(*r);
    RegisterQuantizeOps(*r);
    RegisterQnnElementwiseOps(*r);
    RegisterElementwiseOps(*r);
    RegisterLayoutOps(*r);
    return r;
  }();
  return *registry;
}

}  // namespace qnnc::ir
