// libFuzzer target: a compiled plan as `compile --plan` loads it: text IR ->
// an executor that binds each op's kernel from its attributes (impl, config,
// layouts) with no pass in between -> one run on zero inputs. A plan is
// user input: every attribute a kernel factory trusts must be checked, so
// every input must give an error status or a run, never a crash, a leak,
// undefined behaviour or an allocation past the memory limit.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "ir/text_parser.h"
#include "runtime/executor.h"
#include "tensor/tensor.h"

namespace {

// Every tensor of a run together: small, so that a run of the reference
// kernels on whatever shapes the input names stays fast.
constexpr int64_t kMaxBytes = int64_t{64} << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto graph = qnnc::ir::ParseGraph(
      absl::string_view(reinterpret_cast<const char*>(data), size), "fuzz.plan");
  if (!graph.ok()) return 0;
  qnnc::runtime::ExecutorOptions options;
  options.max_bytes = kMaxBytes;
  auto executor = qnnc::runtime::Executor::Create(*std::move(graph), options);
  if (!executor.ok()) return 0;
  std::vector<qnnc::tensor::Tensor> inputs;
  for (const qnnc::ir::Value* in : (*executor)->graph().inputs()) {
    inputs.push_back(qnnc::tensor::Tensor::Zeros(in->type()->dtype, in->type()->shape));
  }
  auto outputs = (*executor)->Run(inputs);
  (void)outputs;
  return 0;
}
