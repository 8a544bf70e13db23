// A decision is a promise (DESIGN.md rule 3): every implementation a
// registry can choose, on every target, has a kernel that runs it.
#include <string>

#include "gtest/gtest.h"
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
          EXPECT_EQ(impl->legalization, "u8s8") << "a dense implementation without a kernel";
          EXPECT_TRUE(kernels.Has("nn.dense", impl->name)) << "no kernel factory";
        }
      }
    }
  }
  EXPECT_GT(checked, 20);
}

}  // namespace
}  // namespace qnnc::tools
