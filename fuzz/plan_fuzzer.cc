// libFuzzer target: a compiled plan as `compile --plan` loads it, in either
// format, -> an executor that binds each op's kernel from its attributes
// (impl, config, layouts) with no pass in between -> one run on zero inputs.
// A plan is user input: every attribute a kernel factory trusts must be
// checked, so every input must give an error status or a run, never a
// crash, a leak, undefined behaviour or an allocation past the memory limit.
// - A binary plan (runtime/binary_plan.h) is resealed first (its checksum
//   made to match), so mutations reach the FlatBuffer Verifier and the
//   checks behind it instead of stopping at the checksum.
// - A text plan that parses must also come back whole through the binary
//   format (the writer and reader agree on every graph the parser accepts).
// - A binary plan's packed kernel states go to the executor, whose kernels
//   are restored from them (the seeds hold u8s8 dense kernels' packings).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "runtime/binary_plan.h"
#include "runtime/binary_plan_header.h"
#include "runtime/executor.h"
#include "tensor/tensor.h"

namespace {

// Every tensor of a run together: small, so that a run of the reference
// kernels on whatever shapes the input names stays fast.
constexpr int64_t kMaxBytes = int64_t{64} << 10;

std::shared_ptr<uint8_t> AlignedCopy(const uint8_t* data, size_t size) {
  void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
  std::memcpy(p, data, size);
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
}

// The plan's graph and its kernels' packed states (none for a text plan).
struct Loaded {
  std::unique_ptr<qnnc::ir::Graph> graph;
  std::shared_ptr<const qnnc::runtime::PackedStates> packed;
};

absl::StatusOr<Loaded> LoadBinary(const uint8_t* data, size_t size) {
  std::shared_ptr<uint8_t> bytes = AlignedCopy(data, size);
  if (size >= static_cast<size_t>(qnnc::runtime::kBinaryPlanHeaderBytes)) {
    qnnc::runtime::PlanHeader h = qnnc::runtime::ReadPlanHeader(bytes.get());
    h.checksum = qnnc::runtime::PlanChecksum(bytes.get(), size);
    qnnc::runtime::WritePlanHeader(h, reinterpret_cast<char*>(bytes.get()));
  }
  auto plan = qnnc::runtime::ParseBinaryPlan(bytes, static_cast<int64_t>(size), "fuzz.qplan", kMaxBytes);
  if (!plan.ok()) return plan.status();
  return Loaded{std::move(plan->graph),
                std::make_shared<const qnnc::runtime::PackedStates>(std::move(plan->packed))};
}

absl::StatusOr<Loaded> LoadText(const uint8_t* data, size_t size) {
  auto graph = qnnc::ir::ParseGraph(absl::string_view(reinterpret_cast<const char*>(data), size), "fuzz.plan");
  if (!graph.ok()) return graph.status();
  auto bytes = qnnc::runtime::BinaryPlanBytes(**graph, "generic");
  FUZZ_CHECK(bytes.ok(), bytes.status().ToString());
  auto back = qnnc::runtime::ParseBinaryPlan(AlignedCopy(reinterpret_cast<const uint8_t*>(bytes->data()),
                                                         bytes->size()),
                                             static_cast<int64_t>(bytes->size()), "fuzz.qplan",
                                             int64_t{1} << 30);
  FUZZ_CHECK(back.ok(), back.status().ToString());
  const std::string diff = qnnc::ir::StructuralDiff(*back->graph, **graph);
  FUZZ_CHECK(diff.empty(), diff);
  return Loaded{*std::move(graph), nullptr};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool binary =
      qnnc::runtime::IsBinaryPlan(absl::string_view(reinterpret_cast<const char*>(data), size));
  auto loaded = binary ? LoadBinary(data, size) : LoadText(data, size);
  if (!loaded.ok()) return 0;
  qnnc::runtime::ExecutorOptions options;
  options.max_bytes = kMaxBytes;
  options.packed = loaded->packed;
  auto executor = qnnc::runtime::Executor::Create(std::move(loaded->graph), options);
  if (!executor.ok()) return 0;
  std::vector<qnnc::tensor::Tensor> inputs;
  for (const qnnc::ir::Value* in : (*executor)->graph().inputs()) {
    inputs.push_back(qnnc::tensor::Tensor::Zeros(in->type()->dtype, in->type()->shape));
  }
  auto outputs = (*executor)->Run(inputs);
  (void)outputs;
  return 0;
}
