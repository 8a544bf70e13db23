// The op families keep each op's facets together: a family gives reference
// kernels, fast kernels and layout rules only to ops it defines, every op has
// a reference kernel, and each layer's built-in table is exactly the union of
// the families' (no op registered outside its family, no family forgotten).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/kernel_table.h"
#include "eval/node_evaluator.h"
#include "gtest/gtest.h"
#include "ir/op_registry.h"
#include "passes/layout_rules.h"
#include "runtime/kernel_registry.h"

namespace qnnc {
namespace {

// Each family's registration functions (defined in ops/<family>/).
#define QNNC_OP_FAMILY(family, Family)                       \
  namespace ir {                                             \
  void Register##Family##Ops(OpRegistry&);                   \
  }                                                          \
  namespace eval::internal {                                 \
  void Add##Family##Kernels(KernelTable*);                   \
  }                                                          \
  namespace runtime {                                        \
  void Register##Family##Kernels(KernelRegistry&);           \
  }
#define QNNC_LAYOUT_FAMILY(family, Family) \
  namespace passes {                       \
  void Add##Family##LayoutRules(LayoutRules&); \
  }
}  // namespace
#include "ops/op_families.inc"
namespace {
#undef QNNC_OP_FAMILY
#undef QNNC_LAYOUT_FAMILY

struct Family {
  const char* name;
  void (*def)(ir::OpRegistry&);
  void (*reference)(eval::internal::KernelTable*);
  void (*kernels)(runtime::KernelRegistry&);
  void (*layout)(passes::LayoutRules&);  // nullptr: the family has no rule
};

// The families' layout rules, by family name.
const std::map<std::string, void (*)(passes::LayoutRules&)> kLayoutRules = {
#define QNNC_OP_FAMILY(family, Family)
#define QNNC_LAYOUT_FAMILY(family, Family) {#family, passes::Add##Family##LayoutRules},
#include "ops/op_families.inc"
#undef QNNC_OP_FAMILY
#undef QNNC_LAYOUT_FAMILY
};

std::vector<Family> Families() {
  std::vector<Family> families = {
#define QNNC_OP_FAMILY(family, Family)                                                     \
  {#family, ir::Register##Family##Ops, eval::internal::Add##Family##Kernels,               \
   runtime::Register##Family##Kernels, nullptr},
#define QNNC_LAYOUT_FAMILY(family, Family)
#include "ops/op_families.inc"
#undef QNNC_OP_FAMILY
#undef QNNC_LAYOUT_FAMILY
  };
  for (Family& f : families) {
    auto it = kLayoutRules.find(f.name);
    if (it != kLayoutRules.end()) f.layout = it->second;
  }
  return families;
}

// The ops of each facet one family registers, each into a registry of its own.
struct Facets {
  std::set<std::string> defs, references, kernels, rules;
};

Facets FacetsOf(const Family& f) {
  Facets out;
  ir::OpRegistry ops;
  f.def(ops);
  for (const auto& [name, def] : ops.ops()) out.defs.insert(name);
  eval::internal::KernelTable table;
  f.reference(&table);
  for (const auto& [name, kernel] : table) out.references.insert(name);
  runtime::KernelRegistry kernels;
  f.kernels(kernels);
  out.kernels = kernels.ops();
  if (f.layout != nullptr) {
    passes::LayoutRules rules;
    f.layout(rules);
    for (const auto& [name, rule] : rules.rules()) out.rules.insert(name);
  }
  return out;
}

void ExpectWithin(const std::set<std::string>& facet, const std::set<std::string>& defs, const char* family,
                  const char* what) {
  for (const std::string& op : facet) {
    EXPECT_TRUE(defs.count(op)) << "family " << family << " registers " << what << " for " << op
                                << ", an op it does not define (ops/" << family << "/" << family << "_def.cc)";
  }
}

TEST(OpFamilies, EachFamilyServesOnlyItsOwnOps) {
  for (const Family& f : Families()) {
    const Facets facets = FacetsOf(f);
    EXPECT_FALSE(facets.defs.empty()) << f.name;
    ExpectWithin(facets.references, facets.defs, f.name, "a reference kernel");
    ExpectWithin(facets.kernels, facets.defs, f.name, "a kernel factory");
    ExpectWithin(facets.rules, facets.defs, f.name, "a layout rule");
    for (const std::string& op : facets.defs) {
      EXPECT_TRUE(facets.references.count(op)) << op << " (family " << f.name << ") has no reference kernel";
    }
  }
}

TEST(OpFamilies, BuiltinTablesAreTheFamiliesUnion) {
  std::set<std::string> defs, kernels, rules;
  for (const Family& f : Families()) {
    const Facets facets = FacetsOf(f);
    for (const std::string& op : facets.defs) {
      EXPECT_TRUE(defs.insert(op).second) << op << " is defined by two families";
    }
    kernels.insert(facets.kernels.begin(), facets.kernels.end());
    rules.insert(facets.rules.begin(), facets.rules.end());
  }
  std::set<std::string> global_defs;
  for (const auto& [name, def] : ir::OpRegistry::Global().ops()) {
    global_defs.insert(name);
    EXPECT_TRUE(eval::HasReferenceKernel(name)) << name;
  }
  EXPECT_EQ(global_defs, defs);
  EXPECT_EQ(runtime::KernelRegistry::Global().ops(), kernels);
  std::set<std::string> global_rules;
  for (const auto& [name, rule] : passes::LayoutRules::Builtin().rules()) global_rules.insert(name);
  EXPECT_EQ(global_rules, rules);
}

}  // namespace
}  // namespace qnnc
