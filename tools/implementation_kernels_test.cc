// A decision is a promise (DESIGN.md rule 3): every implementation a
// registry can choose, on every target, has a kernel that runs it.
#include <map>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "kernels/spatial_pack/variants.h"
#include "runtime/kernel_registry.h"
#include "target/registry.h"
#include "target/target.h"

namespace qnnc::tools {
namespace {

TEST(ImplementationKernels, EveryRegisteredImplementationHasAKernel) {
  const runtime::KernelRegistry& kernels = runtime::KernelRegistry::Global();
  int checked = 0;
  for (const char* t : {"generic", "x86_64", "x86_64+avx2", "x86_64+avx512bw",
                        "x86_64+avx512vnni", "aarch64+neon", "aarch64+dotprod"}) {
    const target::Target target = *target::ParseTarget(t);
    for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
      for (const target::Implementation* impl :
           target::GlobalRegistry().Implementations(op, target)) {
        SCOPED_TRACE(testing::Message() << op << " on " << t << ": " << impl->name);
        ++checked;
        if (impl->name == "reference") continue;  // the reference kernels are its kernel
        if (std::string(op) == "qnn.dense" && impl->fuses_dynamic_epilogue) {
          // A dense layer with a run-time zero point runs the dynamic dense kernel.
          EXPECT_TRUE(kernels.Has("qnn.dense", impl->name)) << "no kernel factory";
        } else if (std::string(op) == "qnn.conv2d" && impl->fuses_dynamic_epilogue) {
          // Dynamically quantized convolutions run alone (i32) or fused with
          // their float epilogue, bound by decision.
          EXPECT_TRUE(kernels.Has("qnn.conv2d", impl->name)) << "no kernel factory";
          EXPECT_TRUE(kernels.Has("qnn.conv2d_dynamic", impl->name)) << "no kernel factory";
        } else if (std::string(op) == "qnn.conv2d") {
          // Convolutions run fused with their requantize, bound by decision.
          EXPECT_TRUE(impl->fuses_requantize);
          EXPECT_TRUE(kernels.Has("qnn.conv2d_requantize", impl->name)) << "no kernel factory";
        } else {
          // The u8 x s8 legalization leaves an integer nn.dense, which the
          // integer dense kernel runs, bound by the decision; no other
          // legalization of a dense has a kernel, so none may be registered.
          EXPECT_EQ(impl->legalization, target::Legalization::kU8S8) << "a dense implementation without a kernel";
          EXPECT_TRUE(kernels.Has("nn.dense", impl->name)) << "no kernel factory";
        }
      }
    }
  }
  EXPECT_GT(checked, 20);
}

// The spatial-pack variant table (kernels/spatial_pack/variants.h) is the one
// list of that family's implementations: each named there is registered by a
// target, for dense layers exactly where the table says, and every
// spatial-pack implementation a target registers is named there.
TEST(ImplementationKernels, TheSpatialPackVariantTableIsWhatTheTargetsRegister) {
  namespace sp = kernels::spatial_pack;
  std::map<std::string, bool> table;  // implementation -> decides dense layers
  for (const sp::U8S8Variant& v : sp::kU8S8Variants) {
    if (v.implementation != nullptr) table[v.implementation] = v.dense_op;
  }
  for (const sp::DynamicVariant& v : sp::kDynamicVariants) table[v.implementation] = true;
  for (const char* name : sp::kInt16Implementations) table[name] = false;
  table[sp::kU8S8DenseAnyCpuImplementation] = true;
  std::map<std::string, std::set<std::string>> registered;  // implementation -> ops
  for (const char* t : {"generic", "x86_64+avx512vnni", "x86_64+avxvnni", "aarch64+i8mm"}) {
    for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
      for (const target::Implementation* impl :
           target::GlobalRegistry().Implementations(op, *target::ParseTarget(t))) {
        if (impl->name.find(".spatial_pack.") != std::string::npos || impl->name == sp::kU8S8DenseAnyCpuImplementation) {
          registered[impl->name].insert(op);
        }
      }
    }
  }
  for (const auto& [name, dense] : table) {
    SCOPED_TRACE(name);
    ASSERT_EQ(registered.count(name), 1u) << "in the variant table but registered by no target";
    EXPECT_EQ(registered[name].count("qnn.dense") > 0, dense);
  }
  for (const auto& [name, ops] : registered) {
    EXPECT_EQ(table.count(name), 1u) << name << " is registered but not in the variant table";
  }
  for (const sp::RenamedImplementation& r : sp::kRenamedImplementations) {
    EXPECT_EQ(table.count(r.name), 1u) << r.old_name << " is renamed to an unknown " << r.name;
    EXPECT_EQ(table.count(r.old_name), 0u) << r.old_name << " is both renamed and current";
  }
}

}  // namespace
}  // namespace qnnc::tools
