// libFuzzer target: ONNX bytes -> ImportOnnxBytes (which infers types) ->
// the default pass pipeline for the generic target -> an executor plan (no
// run). Every input must give a graph or an error status, never a crash, a
// leak, undefined behaviour or an allocation past the memory limit.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>

#include "absl/strings/string_view.h"
#include "frontend/onnx/import.h"
#include "fuzz/fuzz_check.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"

namespace {

// Small enough that libFuzzer's 2 GiB malloc limit is never reached.
constexpr int64_t kMaxBytes = int64_t{64} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace qf = qnnc::frontend::onnx;
  qf::ImportOptions options;
  options.max_bytes = kMaxBytes;
  auto graph = qf::ImportOnnxBytes(
      absl::string_view(reinterpret_cast<const char*>(data), size), options);
  if (!graph.ok()) return 0;
  qnnc::passes::PassManager pm;
  qnnc::passes::PassContext context;  // the generic target, no records
  context.max_bytes = kMaxBytes;
  std::ostringstream log;
  if (!pm.Run(qnnc::passes::DefaultPipeline(), **graph, context, log).ok()) return 0;
  qnnc::runtime::ExecutorOptions executor_options;
  executor_options.max_bytes = kMaxBytes;
  auto executor = qnnc::runtime::Executor::Create(*std::move(graph), executor_options);
  (void)executor;
  return 0;
}
