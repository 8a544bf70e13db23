#include "runtime/executor.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/decision_view.h"
#include "ir/op_views.h"
#include "kernels/cpu/isa.h"
#include "runtime/bind_kernel.h"
#include "runtime/memory_plan.h"
#include "tensor/buffer_cache.h"
#include "eval/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

// The bytes of each slot's value, each checked against the limit before
// any is added up (so no sum of them can overflow).
absl::StatusOr<std::vector<int64_t>> CheckedSlotBytes(const std::vector<const ir::Value*>& value_of,
                                                      int64_t max_bytes) {
  std::vector<int64_t> bytes(value_of.size(), 0);
  for (size_t s = 0; s < value_of.size(); ++s) {
    const ir::Value* v = value_of[s];
    if (!v->type()) return absl::FailedPreconditionError(absl::StrCat("%", v->name(), " is not typed"));
    auto b = tensor::ByteSize(v->type()->shape, v->type()->dtype);
    if (!b.ok()) return absl::InvalidArgumentError(absl::StrCat("%", v->name(), ": ", b.status().message()));
    if (*b > max_bytes) {
      return tensor::MemoryLimitError(absl::StrCat("running the model (its tensor %", v->name(), " ",
                                                   v->type()->ToString(), ")"),
                                      *b, max_bytes);
    }
    bytes[s] = *b;
  }
  return bytes;
}

// In place: a float add, subtract or multiply (step `step`, one result)
// whose result has the type of an operand whose buffer no later step reads
// writes over that operand (the kernel reads each element before writing
// it, as elementwise::FloatBinary does in place; a reference kernel
// computes aside and copies in). The operand's buffer, or -1.
int InPlaceOperandBuffer(const ir::Node& node, const std::vector<int>& input_slots, int step,
                         const std::vector<int>& buffer_of_slot,
                         const std::vector<BufferLifetime>& buffers) {
  const std::string& op = node.op();
  if (op != "add" && op != "subtract" && op != "multiply") return -1;
  const ir::TensorType& out_type = *node.output()->type();
  for (size_t k = 0; k < input_slots.size(); ++k) {
    const int b = buffer_of_slot[input_slots[k]];
    if (b >= 0 && buffers[b].last == step && out_type.dtype == tensor::DType::kF32 &&
        *node.input(k)->type() == out_type) {
      return b;
    }
  }
  return -1;
}

// The memory a run needs beyond the arena would exceed `max_bytes`: an
// error with each part's bytes.
absl::Status CheckTotalMemory(const MemoryStats& memory, int64_t max_bytes) {
  const int64_t total = memory.arena_bytes + memory.constant_bytes + memory.io_bytes;
  if (total > max_bytes) {
    return tensor::MemoryLimitError(
        absl::StrCat("running the model (inputs and outputs ", memory.io_bytes,
                     " bytes, constants ", memory.constant_bytes,
                     ", activations in a planned arena of ", memory.arena_bytes, " (",
                     memory.sum_bytes, " without reuse))"),
        total, max_bytes);
  }
  return absl::OkStatus();
}

}  // namespace

struct Executor::RunState {
  std::vector<tensor::Tensor> slots;
  tensor::Tensor arena;  // u8[arena_bytes]
  std::vector<OpTiming> timings;
};

Executor::Executor(std::unique_ptr<ir::Graph> graph, const ExecutorOptions& options)
    : graph_(std::move(graph)),
      pool_(options.pool ? options.pool : std::make_shared<ThreadPool>(options.threads)),
      packed_(options.packed) {}

Executor::~Executor() = default;

absl::StatusOr<std::unique_ptr<Executor>> Executor::Create(std::unique_ptr<ir::Graph> graph,
                                                           const ExecutorOptions& options) {
  std::unique_ptr<Executor> e(new Executor(std::move(graph), options));
  RETURN_IF_ERROR(e->Plan(options));
  return e;
}

absl::Status Executor::Plan(const ExecutorOptions& options) {
  const int64_t max_bytes = options.max_bytes;
  RETURN_IF_ERROR(graph_->Verify());
  absl::flat_hash_map<const ir::Value*, int> slot;
  auto new_slot = [&](const ir::Value* v) {
    slot[v] = num_slots_++;
    constant_slots_.emplace_back();
    return slot[v];
  };
  for (const ir::Value* in : graph_->inputs()) input_slots_.push_back(new_slot(in));
  for (const ir::Value* c : graph_->constants()) constant_slots_[new_slot(c)] = c->data();
  // Slots and steps first, then the memory plan and its check against the
  // limit, all before any kernel packs its weights.
  for (const ir::Node* n : graph_->nodes()) {
    Step step{n, {}, {}, {}, nullptr};
    for (const ir::Value* v : n->inputs()) step.inputs.push_back(slot.at(v));
    for (const ir::Value* v : n->outputs()) {
      if (!v->type()) return absl::FailedPreconditionError(absl::StrCat(n->Describe(), " is not typed"));
      step.outputs.push_back(new_slot(v));
    }
    step.serial = SerialWork(*n);
    steps_.push_back(std::move(step));
  }
  for (const ir::Value* out : graph_->outputs()) output_slots_.push_back(slot.at(out));
  if (packed_) RETURN_IF_ERROR(CheckAbsentConstants(*graph_, *packed_));
  RETURN_IF_ERROR(PlanMemoryOf(max_bytes));
  // A constant read by one kernel only, which packed it, may leave memory
  // once that kernel is made.
  const std::vector<int> readers = ReadersOfSlots();
  for (Step& step : steps_) {
    const ir::Node* n = step.node;
    const PackedState* state = nullptr;
    if (packed_) {
      auto it = packed_->by_node.find(n);
      if (it != packed_->by_node.end()) state = &it->second;
    }
    ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> kernel, BindKernel(*n, state));
    const std::string isa = kernel ? kernel->missing_isa() : "";
    if (!isa.empty() && unrunnable_.empty()) {
      unrunnable_ = absl::StrCat(n->Describe(), ": its kernel (", kernel->description(),
                                 ") needs the instruction set ", isa, ", which this host may not use (",
                                 kernels::cpu::DescribeHostIsa(), ")");
      if (!options.allow_unrunnable) return absl::FailedPreconditionError(unrunnable_);
    }
    if (kernel && isa.empty() && !kernel->ReadsConstantsWhenRun()) {
      for (int s : step.inputs) {
        if (readers[s] == 1) constant_slots_[s].ReleasePages();
      }
    }
    if (std::optional<PackedState> packed = kernel ? kernel->packed_state() : std::nullopt) {
      for (const tensor::Tensor& blob : packed->blobs) memory_.packed_bytes += blob.byte_size();
      if (options.release_packed_constants) RETURN_IF_ERROR(ReleaseConstantsPackedBy(step, *packed, readers));
    }
    if (state != nullptr) ++restored_kernels_;
    step.kernel = std::move(kernel);
    timings_.push_back({n->op(), n->name(), ir::ImplementationOf(*n), ir::KernelLayoutOf(*n),
                        step.in_place ? "in place (its inputs wrote their slices)"
                        : step.kernel ? step.kernel->description()
                                      : "reference",
                        0});
  }
  if (packed_) absent_.insert(packed_->absent.begin(), packed_->absent.end());
  if (options.release_packed_constants) RETURN_IF_ERROR(ReleasePackedConstants());
  // A borrowed input is used in place when no step reads past it: every
  // reader runs a kernel that reads within its inputs, and it is no output.
  for (int in : input_slots_) {
    bool in_place = std::find(output_slots_.begin(), output_slots_.end(), in) == output_slots_.end();
    for (const Step& step : steps_) {
      if (std::find(step.inputs.begin(), step.inputs.end(), in) == step.inputs.end()) continue;
      in_place = in_place && !step.in_place && step.kernel && step.kernel->ReadsWithinInputs();
    }
    input_in_place_.push_back(in_place);
  }
  last_timings_ = timings_;  // all 0 until a run finishes
  return absl::OkStatus();
}

std::vector<int> Executor::ReadersOfSlots() const {
  std::vector<int> readers(num_slots_, 0);
  for (const Step& step : steps_) {
    for (int s : step.inputs) ++readers[s];
  }
  for (int s : output_slots_) ++readers[s];
  return readers;
}

absl::Status Executor::PlanMemoryOf(int64_t max_bytes) {
  std::vector<const ir::Value*> value_of(num_slots_, nullptr);
  for (size_t i = 0; i < input_slots_.size(); ++i) value_of[input_slots_[i]] = graph_->inputs()[i];
  for (size_t i = 0; i < graph_->constants().size(); ++i) {
    value_of[input_slots_.size() + i] = graph_->constants()[i];
  }
  for (const Step& step : steps_) {
    for (size_t i = 0; i < step.outputs.size(); ++i) value_of[step.outputs[i]] = step.node->outputs()[i];
  }
  ASSIGN_OR_RETURN(const std::vector<int64_t> bytes, CheckedSlotBytes(value_of, max_bytes));
  // Lifetimes: from the step writing a slot to the last step reading it.
  std::vector<int> first(num_slots_, -1), last(num_slots_, -1);
  for (size_t i = 0; i < steps_.size(); ++i) {
    for (int s : steps_[i].outputs) first[s] = last[s] = static_cast<int>(i);
  }
  for (size_t i = 0; i < steps_.size(); ++i) {
    for (int s : steps_[i].inputs) last[s] = std::max(last[s], static_cast<int>(i));
  }
  // Inputs, constants and outputs live outside the arena (the caller's, the
  // plan's, and returned to the caller); every other op result gets a
  // buffer, except that a reshape or flatten of a buffer is that buffer
  // under another shape (the reference returns a view of its input), and an
  // in-place result is its operand's buffer.
  std::vector<bool> outside(num_slots_, false);
  for (int s : input_slots_) outside[s] = true;
  for (int s : output_slots_) outside[s] = true;
  for (int s = 0; s < num_slots_; ++s) outside[s] = outside[s] || constant_slots_[s].defined();
  buffer_of_slot_.assign(num_slots_, -1);
  std::vector<BufferLifetime> buffers;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const bool alias = step.node->op() == "reshape" || step.node->op() == "flatten";
    const int in_place = alias || step.outputs.size() != 1
                             ? -1
                             : InPlaceOperandBuffer(*step.node, step.inputs, static_cast<int>(i),
                                                    buffer_of_slot_, buffers);
    for (int s : step.outputs) {
      if (outside[s]) continue;
      const int from = alias ? buffer_of_slot_[step.inputs[0]] : in_place;
      if (from >= 0) {
        buffer_of_slot_[s] = from;
        buffers[from].last = std::max(buffers[from].last, last[s]);
        continue;
      }
      buffer_of_slot_[s] = static_cast<int>(buffers.size());
      buffers.push_back({ArenaBytes(bytes[s]), first[s], last[s]});
    }
  }
  MergeInPlaceConcats(bytes, first, outside, &buffers);
  memory_plan_ = PlanMemory(buffers);
  buffers_ = std::move(buffers);
  memory_.arena_bytes = memory_plan_.arena_bytes;
  memory_.peak_bytes = memory_plan_.peak_bytes;
  memory_.sum_bytes = memory_plan_.sum_bytes;
  for (int s = 0; s < num_slots_; ++s) {
    if (constant_slots_[s].defined()) memory_.constant_bytes += bytes[s];
  }
  for (int s : input_slots_) memory_.io_bytes += bytes[s];
  for (int s : output_slots_) memory_.io_bytes += bytes[s];
  RETURN_IF_ERROR(CheckTotalMemory(memory_, max_bytes));
  // Drop each slot after its last reader (its buffer stays in the arena).
  std::vector<bool> keep(num_slots_, false);
  for (int s = 0; s < num_slots_; ++s) keep[s] = outside[s];
  for (int s = 0; s < num_slots_; ++s) {
    if (!keep[s] && last[s] >= 0) steps_[last[s]].release.push_back(s);
  }
  return absl::OkStatus();
}

// A concat whose inputs are contiguous slices of its result (only 1s before
// the axis: N = 1 in NCHW or NCHW{k}c) runs no copy: each input's buffer
// becomes its slice of the result's buffer, so its producer writes there and
// the concat finds its result made. Taken only where it is plainly safe: the
// result alone in its buffer; each input in its own buffer (not a slice of
// an earlier concat, not twice), all of whose values are written by the
// concat's step at the latest (an in-place add after it would otherwise
// write over a slice of the result); slices at aligned offsets. The merged buffer lives from the first input's producer
// to the last reader of any of them.
void Executor::MergeInPlaceConcats(const std::vector<int64_t>& bytes, const std::vector<int>& first,
                                   const std::vector<bool>& outside,
                                   std::vector<BufferLifetime>* buffers) {
  slot_offset_.assign(num_slots_, 0);
  slice_.assign(num_slots_, false);
  std::vector<std::vector<int>> slots_of(buffers->size());
  for (int s = 0; s < num_slots_; ++s) {
    if (buffer_of_slot_[s] >= 0) slots_of[buffer_of_slot_[s]].push_back(s);
  }
  std::vector<bool> merged(buffers->size(), false);
  for (size_t i = 0; i < steps_.size(); ++i) {
    Step& step = steps_[i];
    const ir::Node& n = *step.node;
    if (n.op() != "concat" || step.outputs.size() != 1 || outside[step.outputs[0]]) continue;
    const int out = buffer_of_slot_[step.outputs[0]];
    if (out < 0 || merged[out] || slots_of[out].size() != 1) continue;
    const ir::TensorType& type = *n.output()->type();
    const int64_t rank = type.rank();
    const absl::StatusOr<ir::AxisView> view = ir::AxisView::Of(n);
    const absl::StatusOr<int64_t> normalized = view.ok() ? view->AxisFor(rank) : view.status();
    if (!normalized.ok()) continue;
    const int64_t axis = *normalized;
    bool ok = true;
    for (int64_t d = 0; d < axis; ++d) ok = ok && type.shape[d] == 1;
    std::vector<int64_t> offsets;
    int64_t at = 0;
    for (size_t k = 0; ok && k < step.inputs.size(); ++k) {
      const int s = step.inputs[k];
      const int b = buffer_of_slot_[s];
      // (A slice of an earlier in-place concat stays there: moving it, and
      // that concat's whole buffer with it, would overlap other slices.)
      ok = !outside[s] && !slice_[s] && b >= 0 && b != out && !merged[b] &&
           at % kArenaAlignment == 0 && n.input(k)->type()->dtype == type.dtype;
      for (size_t j = 0; ok && j < k; ++j) ok = buffer_of_slot_[step.inputs[j]] != b;
      if (ok) {
        for (int t : slots_of[b]) ok = ok && first[t] <= static_cast<int>(i);
      }
      offsets.push_back(at);
      at += bytes[s];
    }
    if (!ok || at != bytes[step.outputs[0]]) continue;
    BufferLifetime& whole = (*buffers)[out];
    for (size_t k = 0; k < step.inputs.size(); ++k) {
      const int b = buffer_of_slot_[step.inputs[k]];
      whole.first = std::min(whole.first, (*buffers)[b].first);
      whole.last = std::max(whole.last, (*buffers)[b].last);
      // (A concat of concats: the inner one's slices move along with it.)
      for (int t : slots_of[b]) {
        buffer_of_slot_[t] = out;
        slot_offset_[t] += offsets[k];
        slice_[t] = true;
        slots_of[out].push_back(t);
      }
      slots_of[b].clear();
      merged[b] = true;
    }
    step.in_place = true;
    ++memory_.in_place_concats;
  }
  // Renumber the buffers that remain.
  std::vector<int> renumber(buffers->size(), -1);
  std::vector<BufferLifetime> kept;
  for (size_t b = 0; b < buffers->size(); ++b) {
    if (merged[b]) continue;
    renumber[b] = static_cast<int>(kept.size());
    kept.push_back((*buffers)[b]);
  }
  for (int& b : buffer_of_slot_) b = b >= 0 ? renumber[b] : -1;
  *buffers = std::move(kept);
}

absl::Status Executor::CheckMemory() const { return CheckMemoryPlan(buffers_, memory_plan_); }

std::vector<OpTiming> Executor::last_timings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_timings_;
}

absl::StatusOr<std::unique_ptr<Executor::RunState>> Executor::TakeState() const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<RunState> state = std::move(idle_.back());
      idle_.pop_back();
      return state;
    }
  }
  auto state = std::make_unique<RunState>();
  state->slots = constant_slots_;
  state->timings = timings_;
  if (memory_plan_.arena_bytes > 0) {
    ASSIGN_OR_RETURN(state->arena, tensor::Tensor::CreateForOverwrite(
                                       tensor::DType::kU8, {memory_plan_.arena_bytes}));
  }
  return state;
}

void Executor::ReturnState(std::unique_ptr<RunState> state) const {
  // Nothing of this run's inputs or outputs is held past it.
  for (int s = 0; s < num_slots_; ++s) {
    if (!constant_slots_[s].defined()) state->slots[s] = tensor::Tensor();
  }
  std::lock_guard<std::mutex> lock(mu_);
  // The last finished run's times, swapped in (no copy per run).
  std::swap(last_timings_, state->timings);
  idle_.push_back(std::move(state));
}

absl::StatusOr<std::vector<tensor::Tensor>> Executor::Run(
    const std::vector<tensor::Tensor>& inputs) const {
  if (inputs.size() != input_slots_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the model takes ", input_slots_.size(),
                                                   " inputs, got ", inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Value* in = graph_->inputs()[i];
    if (inputs[i].dtype() != in->type()->dtype || inputs[i].shape() != in->type()->shape) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input '", in->name(), "' must be ", in->type()->ToString(), ", got ",
          tensor::DTypeName(inputs[i].dtype()), "[", absl::StrJoin(inputs[i].shape(), ","), "]"));
    }
    if (!inputs[i].defined()) {
      return absl::InvalidArgumentError(absl::StrCat("input '", in->name(), "' has no data"));
    }
  }
  if (!unrunnable_.empty()) return absl::FailedPreconditionError(unrunnable_);
  // What the run frees recurs in the next run: kept for it (tensor/buffer_cache.h).
  const tensor::RecyclingScope recycling;
  ASSIGN_OR_RETURN(std::unique_ptr<RunState> state, TakeState());
  for (size_t i = 0; i < inputs.size(); ++i) {
    state->slots[input_slots_[i]] =
        inputs[i].padded() || input_in_place_[i] ? inputs[i] : inputs[i].Clone();
  }
  absl::Status run = RunSteps(*state);
  std::vector<tensor::Tensor> outputs;
  if (run.ok()) {
    for (int s : output_slots_) outputs.push_back(state->slots[s]);
  }
  ReturnState(std::move(state));
  if (!run.ok()) return run;
  return outputs;
}

absl::Status Executor::RunSteps(RunState& state) const {
  std::vector<tensor::Tensor>& slots = state.slots;
  // The op records were built at plan load: a run only sets their times.
  for (OpTiming& t : state.timings) t.ms = 0;
  std::vector<tensor::Tensor> args, planned, results;
  for (size_t k = 0; k < steps_.size(); ++k) {
    const Step& step = steps_[k];
    args.clear();
    for (int s : step.inputs) args.push_back(slots[s]);
    // Each planned result is a view of its bytes in the arena, where the
    // kernel writes; a kernel that returns another tensor (one converting
    // layouts around its own) or a reference kernel (which allocates) has
    // its result copied there.
    planned.assign(step.outputs.size(), tensor::Tensor());
    for (size_t i = 0; i < step.outputs.size(); ++i) {
      const int b = buffer_of_slot_[step.outputs[i]];
      if (b < 0) continue;
      const ir::TensorType& type = *step.node->outputs()[i]->type();
      // A concat's slice leaves the bytes after it alone: they are the next
      // slice, perhaps already written.
      const int s = step.outputs[i];
      ASSIGN_OR_RETURN(planned[i],
                       tensor::Tensor::View(state.arena, memory_plan_.offsets[b] + slot_offset_[s],
                                            type.dtype, type.shape, /*zero_padding=*/!slice_[s]));
    }
    auto start = std::chrono::steady_clock::now();
    absl::Status run;
    if (step.in_place) {
      results = planned;  // its inputs wrote their slices of it
    } else if (step.kernel) {
      results = planned;
      run = step.kernel->Run(args, results, step.serial ? nullptr : pool_->pool());
      if (!run.ok()) run = absl::Status(run.code(), absl::StrCat(step.node->Describe(), ": ", run.message()));
    } else {
      auto evaluated = eval::EvaluateNode(*step.node, args, pool_->pool());
      run = evaluated.status();
      if (run.ok()) results = *std::move(evaluated);
    }
    for (size_t i = 0; run.ok() && i < planned.size(); ++i) {
      run = Place(results[i], &planned[i], *step.node, state.arena);
    }
    if (!run.ok()) return run;
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (size_t i = 0; i < planned.size(); ++i) slots[step.outputs[i]] = std::move(planned[i]);
    for (int s : step.release) slots[s] = tensor::Tensor();
    state.timings[k].ms = ms;
  }
  return absl::OkStatus();
}

bool Executor::InArena(const tensor::Tensor& t, const tensor::Tensor& arena) const {
  if (!arena.defined() || !t.defined()) return false;
  const auto* p = static_cast<const uint8_t*>(t.raw_data());
  const uint8_t* start = arena.data<uint8_t>();
  return p >= start && p < start + memory_plan_.arena_bytes;
}

absl::Status Executor::Place(const tensor::Tensor& result, tensor::Tensor* planned,
                             const ir::Node& node, const tensor::Tensor& arena) const {
  if (!planned->defined()) {
    // Outside the arena (an output, kept by the caller past this run): a
    // view of an activation (a reshape's) is copied out before its bytes
    // are reused.
    *planned = InArena(result, arena) ? result.Clone() : result;
    return absl::OkStatus();
  }
  if (result.raw_data() == planned->raw_data()) return absl::OkStatus();
  if (result.dtype() != planned->dtype() || result.shape() != planned->shape()) {
    return absl::InternalError(absl::StrCat(
        node.Describe(), ": its kernel returned ", tensor::DTypeName(result.dtype()), "[",
        absl::StrJoin(result.shape(), ","), "], not its type ", tensor::DTypeName(planned->dtype()),
        "[", absl::StrJoin(planned->shape(), ","), "]"));
  }
  std::memcpy(planned->raw_data(), result.raw_data(), result.byte_size());
  return absl::OkStatus();
}

}  // namespace qnnc::runtime
