#include "runtime/executor.h"

#include <chrono>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/cpu/isa.h"
#include "runtime/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::runtime {

Executor::Executor(std::unique_ptr<ir::Graph> graph, const ExecutorOptions& options)
    : graph_(std::move(graph)), pool_(options.threads) {}

absl::StatusOr<std::unique_ptr<Executor>> Executor::Create(std::unique_ptr<ir::Graph> graph,
                                                           const ExecutorOptions& options) {
  std::unique_ptr<Executor> e(new Executor(std::move(graph), options));
  RETURN_IF_ERROR(e->Plan(options));
  return e;
}

absl::Status Executor::Plan(const ExecutorOptions& options) {
  const int64_t max_bytes = options.max_bytes;
  RETURN_IF_ERROR(graph_->Verify());
  // Every tensor the graph holds, counted before anything is allocated (the
  // sum stops at the first one past the limit, so it cannot overflow).
  int64_t total = 0;
  auto count = [&](const ir::Value* v, const std::string& what) -> absl::Status {
    if (!v->type()) return absl::FailedPreconditionError(absl::StrCat(what, " is not typed"));
    auto bytes = tensor::ByteSize(v->type()->shape, v->type()->dtype);
    if (!bytes.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", bytes.status().message()));
    total += *bytes;
    if (total > max_bytes) {
      return tensor::MemoryLimitError(
          absl::StrCat("running the model (its tensors up to %", v->name(), " ", v->type()->ToString(), ")"),
          total, max_bytes);
    }
    return absl::OkStatus();
  };
  for (const ir::Value* in : graph_->inputs()) RETURN_IF_ERROR(count(in, absl::StrCat("input %", in->name())));
  for (const ir::Value* c : graph_->constants()) RETURN_IF_ERROR(count(c, absl::StrCat("constant %", c->name())));
  for (const ir::Node* n : graph_->nodes()) {
    for (const ir::Value* v : n->outputs()) RETURN_IF_ERROR(count(v, n->Describe()));
  }
  absl::flat_hash_map<const ir::Value*, int> slot;
  auto new_slot = [&](const ir::Value* v) {
    slot[v] = num_slots_++;
    constant_slots_.emplace_back();
    return slot[v];
  };
  for (const ir::Value* in : graph_->inputs()) input_slots_.push_back(new_slot(in));
  for (const ir::Value* c : graph_->constants()) constant_slots_[new_slot(c)] = c->data();
  for (const ir::Node* n : graph_->nodes()) {
    Step step{n, {}, {}, {}, nullptr};
    // A decision is a promise: an op whose decision names an implementation
    // runs on that implementation's kernel, or the plan is refused (never a
    // silent substitution by another kernel).
    const std::string impl = n->attrs().GetString("impl", "").value_or("");
    const bool promised = !impl.empty() && impl != "reference";
    if (promised && !KernelRegistry::Global().Has(n->op(), impl)) {
      return absl::FailedPreconditionError(
          absl::StrCat(n->Describe(), ": its decision is ", impl, ", but no kernel runs ", impl,
                       " for ", n->op()));
    }
    if (const KernelFactory* factory = KernelRegistry::Global().Find(*n)) {
      ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> kernel, (*factory)(*n));
      if (promised && !kernel) {
        return absl::FailedPreconditionError(absl::StrCat(
            n->Describe(), ": its decision is ", impl, ", but its kernel cannot run this op"));
      }
      std::string isa = kernel ? kernel->missing_isa() : "";
      if (!isa.empty() && unrunnable_.empty()) {
        unrunnable_ = absl::StrCat(n->Describe(), ": its kernel (", kernel->description(),
                                   ") needs the instruction set ", isa,
                                   ", which this host may not use (",
                                   kernels::cpu::DescribeHostIsa(), ")");
        if (!options.allow_unrunnable) return absl::FailedPreconditionError(unrunnable_);
      }
      step.kernel = std::move(kernel);
    }
    const ir::Attrs& a = n->attrs();
    timings_.push_back({n->op(), n->name(), a.GetString("impl", "reference").value_or("reference"),
                        a.GetString("impl_layout", a.GetString("data_layout", "").value_or(""))
                            .value_or(""),
                        step.kernel ? step.kernel->description() : "reference", 0});
    for (const ir::Value* v : n->inputs()) step.inputs.push_back(slot.at(v));
    for (const ir::Value* v : n->outputs()) {
      if (!v->type()) return absl::FailedPreconditionError(absl::StrCat(n->Describe(), " is not typed"));
      step.outputs.push_back(new_slot(v));
    }
    steps_.push_back(std::move(step));
  }
  for (const ir::Value* out : graph_->outputs()) output_slots_.push_back(slot.at(out));
  // Release each intermediate after its last reader (never inputs, constants
  // or outputs).
  std::vector<int> last_use(num_slots_, -1);
  for (size_t i = 0; i < steps_.size(); ++i) {
    for (int s : steps_[i].inputs) last_use[s] = static_cast<int>(i);
  }
  std::vector<bool> keep(num_slots_, false);
  for (int s : input_slots_) keep[s] = true;
  for (int s : output_slots_) keep[s] = true;
  for (int s = 0; s < num_slots_; ++s) {
    if (constant_slots_[s].defined()) keep[s] = true;
  }
  for (int s = 0; s < num_slots_; ++s) {
    if (!keep[s] && last_use[s] >= 0) steps_[last_use[s]].release.push_back(s);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<tensor::Tensor>> Executor::Run(
    const std::vector<tensor::Tensor>& inputs) {
  if (inputs.size() != input_slots_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the model takes ", input_slots_.size(),
                                                   " inputs, got ", inputs.size()));
  }
  std::vector<tensor::Tensor> slots = constant_slots_;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Value* in = graph_->inputs()[i];
    if (inputs[i].dtype() != in->type()->dtype || inputs[i].shape() != in->type()->shape) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input '", in->name(), "' must be ", in->type()->ToString(), ", got ",
          tensor::DTypeName(inputs[i].dtype()), "[", absl::StrJoin(inputs[i].shape(), ","), "]"));
    }
    slots[input_slots_[i]] = inputs[i];
  }
  if (!unrunnable_.empty()) return absl::FailedPreconditionError(unrunnable_);
  // The op records were built at plan load: a run only sets their times.
  for (OpTiming& t : timings_) t.ms = 0;
  std::vector<tensor::Tensor> args;
  for (size_t k = 0; k < steps_.size(); ++k) {
    const Step& step = steps_[k];
    args.clear();
    for (int s : step.inputs) args.push_back(slots[s]);
    auto start = std::chrono::steady_clock::now();
    auto run = step.kernel ? step.kernel->Run(args, pool_.pool())
                           : EvaluateNode(*step.node, args, pool_.pool());
    if (!run.ok()) {
      return absl::Status(run.status().code(),
                          step.kernel ? absl::StrCat(step.node->Describe(), ": ", run.status().message())
                                      : std::string(run.status().message()));
    }
    std::vector<tensor::Tensor> results = *std::move(run);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (size_t i = 0; i < results.size(); ++i) slots[step.outputs[i]] = std::move(results[i]);
    for (int s : step.release) slots[s] = tensor::Tensor();
    timings_[k].ms = ms;
  }
  std::vector<tensor::Tensor> outputs;
  for (int s : output_slots_) outputs.push_back(slots[s]);
  return outputs;
}

}  // namespace qnnc::runtime
