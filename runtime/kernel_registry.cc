#include "runtime/kernel_registry.h"

namespace qnnc::runtime {

const KernelRegistry& KernelRegistry::Global() {
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    RegisterConvKernels(*r);
    return r;
  }();
  return *registry;
}

void KernelRegistry::Register(const std::string& op, const std::string& implementation,
                              KernelFactory factory) {
  factories_[{op, implementation}] = std::move(factory);
}

const KernelFactory* KernelRegistry::Find(const ir::Node& node) const {
  auto impl = node.attrs().GetString("impl", "");
  if (!impl.ok() || impl->empty()) return nullptr;
  auto it = factories_.find({node.op(), *impl});
  return it == factories_.end() ? nullptr : &it->second;
}

}  // namespace qnnc::runtime
