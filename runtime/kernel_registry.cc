#include "runtime/kernel_registry.h"

#include "ir/decision_view.h"
#include "kernels/spatial_pack/variants.h"

namespace qnnc::runtime {

void KernelRegistry::Register(const std::string& op, const std::string& implementation,
                              KernelFactory factory) {
  factories_[{op, implementation}] = std::move(factory);
}

void KernelRegistry::RegisterForOp(const std::string& op, KernelFactory factory) {
  op_factories_[op] = std::move(factory);
}

void KernelRegistry::RegisterRestorer(const std::string& op, const std::string& implementation,
                                      KernelRestorer restorer) {
  restorers_[{op, implementation}] = std::move(restorer);
}

const KernelRestorer* KernelRegistry::FindRestorer(const ir::Node& node) const {
  const std::string impl(kernels::spatial_pack::CurrentImplementationName(ir::ImplementationOf(node)));
  auto it = restorers_.find({node.op(), impl});
  return it == restorers_.end() ? nullptr : &it->second;
}

bool KernelRegistry::Has(const std::string& op, const std::string& implementation) const {
  return factories_.count({op, std::string(kernels::spatial_pack::CurrentImplementationName(implementation))}) > 0;
}

std::set<std::string> KernelRegistry::ops() const {
  std::set<std::string> ops;
  for (const auto& [key, factory] : factories_) ops.insert(key.first);
  for (const auto& [op, factory] : op_factories_) ops.insert(op);
  return ops;
}

const KernelFactory* KernelRegistry::Find(const ir::Node& node) const {
  const std::string impl = ir::ImplementationOf(node);
  if (impl != "reference") {
    // A renamed implementation's old name (plans written before) binds its kernel.
    auto it = factories_.find({node.op(), std::string(kernels::spatial_pack::CurrentImplementationName(impl))});
    if (it != factories_.end()) return &it->second;
  }
  auto it = op_factories_.find(node.op());
  return it == op_factories_.end() ? nullptr : &it->second;
}

}  // namespace qnnc::runtime
