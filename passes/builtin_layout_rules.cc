// LayoutRules::Builtin(): the AlterOpLayout rules of the op families that
// have some, each family's added by its ops/<family>/<family>_layout.cc.
#include "passes/layout_rules.h"

namespace qnnc::passes {

const LayoutRules& LayoutRules::Builtin() {
  static const LayoutRules* rules = [] {
    auto* r = new LayoutRules();
    AddPoolLayoutRules(*r);
    AddQuantizeLayoutRules(*r);
    AddQnnElementwiseLayoutRules(*r);
    AddElementwiseLayoutRules(*r);
    AddLayoutLayoutRules(*r);
    return r;
  }();
  return *rules;
}

}  // namespace qnnc::passes
