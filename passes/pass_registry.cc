#include "passes/pass_registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "passes/pipeline.h"

namespace qnnc::passes {

const PassRegistry& PassRegistry::Global() {
  static const PassRegistry* registry = [] {
    auto* r = new PassRegistry();
    absl::Status s = RegisterBuiltinPasses(*r);
    if (!s.ok()) {
      std::fprintf(stderr, "qnnc internal error: %s\n", s.ToString().c_str());
      std::abort();
    }
    return r;
  }();
  return *registry;
}

absl::Status PassRegistry::Register(const std::string& name, PassFactory factory) {
  if (factories_.count(name)) {
    return absl::AlreadyExistsError(absl::StrCat("pass '", name, "' is registered twice"));
  }
  factories_[name] = std::move(factory);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Pass>> PassRegistry::Create(absl::string_view name) const {
  auto it = factories_.find(std::string(name));
  if (it == factories_.end()) {
    return absl::NotFoundError(absl::StrCat("unknown pass '", name, "' (known: ",
                                            absl::StrJoin(Names(), ", "), ")"));
  }
  return it->second();
}

std::vector<std::string> PassRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, unused] : factories_) names.push_back(name);
  return names;
}

}  // namespace qnnc::passes
