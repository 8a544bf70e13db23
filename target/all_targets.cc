// RegisterAllTargets and the global registry: links every target's
// registration function (target/generic, target/x86, target/arm).
#include <cstdio>
#include <cstdlib>

#include "target/registry.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status RegisterAllTargets(Registry& registry) {
  RETURN_IF_ERROR(RegisterGenericTarget(registry));
  RETURN_IF_ERROR(RegisterX86Target(registry));
  RETURN_IF_ERROR(RegisterArmTarget(registry));
  return registry.Verify();
}

const Registry& GlobalRegistry() {
  static const Registry* registry = [] {
    auto* r = new Registry();
    absl::Status s = RegisterAllTargets(*r);
    if (!s.ok()) {
      std::fprintf(stderr, "qnnc internal error: %s\n", s.ToString().c_str());
      std::abort();
    }
    return r;
  }();
  return *registry;
}

}  // namespace qnnc::target
