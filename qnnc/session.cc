#include "qnnc/session.h"

#include <cstring>
#include <sstream>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "io/tensor_files.h"
#include "qnnc/compile_model.h"
#include "qnnc/host_executor.h"
#include "runtime/executor.h"
#include "runtime/plan.h"
#include "util/status_macros.h"

namespace qnnc {
namespace {

absl::StatusOr<int64_t> MaxBytes(const SessionOptions& options) {
  return MemoryLimitBytes(options.max_memory_mb);
}

// A shared pool was sized by its owner.
absl::Status CheckThreads(const SessionOptions& options) {
  return options.thread_pool ? absl::OkStatus() : CheckThreadCount(options.threads);
}

absl::StatusOr<CompileOptions> CompileOptionsOf(const SessionOptions& options) {
  RETURN_IF_ERROR(CheckThreads(options));
  CompileOptions compile;
  ASSIGN_OR_RETURN(compile.target, ResolveTarget(options.target, /*no_run=*/false));
  compile.records_files = options.records;
  compile.strict_records = options.strict_records;
  compile.threads = options.thread_pool ? options.thread_pool->threads() : options.threads;
  ASSIGN_OR_RETURN(compile.max_bytes, MaxBytes(options));
  for (const auto& [name, shape] : options.input_shapes) compile.input_shapes[name] = shape;
  return compile;
}

runtime::ExecutorOptions ExecutorOptionsOf(const SessionOptions& options, int64_t max_bytes) {
  runtime::ExecutorOptions executor;
  executor.threads = options.threads;
  executor.pool = options.thread_pool;
  executor.max_bytes = max_bytes;
  // Weights are held once, packed (SavePlan writes binary plans of them).
  executor.release_packed_constants = true;
  return executor;
}

std::vector<TensorInfo> Describe(const std::vector<ir::Value*>& values) {
  std::vector<TensorInfo> infos;
  for (const ir::Value* v : values) infos.push_back({v->name(), v->type()->dtype, v->type()->shape});
  return infos;
}

// A compiled model's executor, bound for this host, and its target's name.
using Bound = std::pair<std::unique_ptr<runtime::Executor>, std::string>;

// Compiles with `compile` (a model from its path or its bytes) under the
// options, then binds the kernels. What compilation logs (warnings about
// records) is dropped.
template <typename CompileFn>
absl::StatusOr<Bound> CompileAndBind(const SessionOptions& options, CompileFn compile) {
  ASSIGN_OR_RETURN(const CompileOptions c, CompileOptionsOf(options));
  std::ostringstream log;
  ASSIGN_OR_RETURN(CompiledModel compiled, compile(c, log));
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> executor,
                   CreateHostExecutor(std::move(compiled.graph),
                                      ExecutorOptionsOf(options, c.max_bytes), {"", c.target, false}));
  return Bound{std::move(executor), c.target.ToString()};
}

}  // namespace

Session::Session(std::unique_ptr<runtime::Executor> executor, std::string target)
    : executor_(std::move(executor)), target_(std::move(target)) {
  inputs_ = Describe(executor_->graph().inputs());
  outputs_ = Describe(executor_->graph().outputs());
}

Session::~Session() = default;

absl::StatusOr<std::unique_ptr<Session>> Session::Compile(const std::string& model_path,
                                                          const SessionOptions& options) {
  auto compile = [&](const CompileOptions& c, std::ostream& log) {
    return CompileModel(model_path, c, log);
  };
  ASSIGN_OR_RETURN(Bound bound, CompileAndBind(options, compile));
  return std::unique_ptr<Session>(new Session(std::move(bound.first), std::move(bound.second)));
}

absl::StatusOr<std::unique_ptr<Session>> Session::CompileOnnx(absl::string_view model_bytes,
                                                              const SessionOptions& options) {
  auto compile = [&](const CompileOptions& c, std::ostream& log) {
    return CompileOnnxBytes(model_bytes, c, log);
  };
  ASSIGN_OR_RETURN(Bound bound, CompileAndBind(options, compile));
  return std::unique_ptr<Session>(new Session(std::move(bound.first), std::move(bound.second)));
}

absl::StatusOr<std::unique_ptr<Session>> Session::LoadPlan(const std::string& plan_path,
                                                           const SessionOptions& options) {
  const SessionOptions defaults;
  const char* conflict = options.target != defaults.target ? "target"
                         : !options.records.empty()        ? "records"
                         : !options.input_shapes.empty()   ? "input_shapes"
                                                           : nullptr;
  if (conflict != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("a plan was compiled already: the option ", conflict, " does not apply"));
  }
  RETURN_IF_ERROR(CheckThreads(options));
  ASSIGN_OR_RETURN(const int64_t max_bytes, MaxBytes(options));
  ASSIGN_OR_RETURN(const target::Target target, PlanTarget(plan_path));
  ASSIGN_OR_RETURN(CompiledModel compiled, LoadPlanFile(plan_path, max_bytes));
  runtime::ExecutorOptions executor_options = ExecutorOptionsOf(options, max_bytes);
  executor_options.packed = compiled.packed;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> executor,
                   CreateHostExecutor(std::move(compiled.graph), executor_options, {plan_path, target, false}));
  return std::unique_ptr<Session>(new Session(std::move(executor), target.ToString()));
}

absl::StatusOr<std::vector<tensor::Tensor>> Session::OrderInputs(const NamedTensors& inputs) const {
  std::vector<tensor::Tensor> ordered(inputs_.size());
  std::vector<bool> given(inputs_.size(), false);
  for (const auto& [name, tensor] : inputs) {
    size_t i = 0;
    while (i < inputs_.size() && inputs_[i].name != name) ++i;
    if (i == inputs_.size()) {
      std::vector<std::string> names;
      for (const TensorInfo& in : inputs_) names.push_back(in.name);
      return absl::InvalidArgumentError(absl::StrCat("the model has no input '", name,
                                                     "' (its inputs: ", absl::StrJoin(names, ", "), ")"));
    }
    if (given[i]) return absl::InvalidArgumentError(absl::StrCat("input '", name, "' given twice"));
    given[i] = true;
    ordered[i] = tensor;
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!given[i]) return absl::InvalidArgumentError(absl::StrCat("input '", inputs_[i].name, "' missing"));
  }
  return ordered;
}

absl::StatusOr<std::vector<tensor::Tensor>> Session::Run(const NamedTensors& inputs) const {
  ASSIGN_OR_RETURN(std::vector<tensor::Tensor> ordered, OrderInputs(inputs));
  return executor_->Run(ordered);
}

absl::Status Session::Run(const NamedTensors& inputs, const std::vector<std::string>& output_names,
                          std::vector<tensor::Tensor>* outputs) const {
  std::vector<size_t> which;
  for (const std::string& name : output_names) {
    size_t i = 0;
    while (i < outputs_.size() && outputs_[i].name != name) ++i;
    if (i == outputs_.size()) {
      return absl::InvalidArgumentError(absl::StrCat("the model has no output '", name, "'"));
    }
    which.push_back(i);
  }
  if (output_names.empty()) {
    for (size_t i = 0; i < outputs_.size(); ++i) which.push_back(i);
  }
  if (outputs->size() < which.size()) outputs->resize(which.size());
  // The caller's tensors are checked before anything runs.
  for (size_t k = 0; k < which.size(); ++k) {
    const tensor::Tensor& into = (*outputs)[k];
    const TensorInfo& info = outputs_[which[k]];
    if (into.defined() && (into.dtype() != info.dtype || into.shape() != info.shape)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "output '", info.name, "' is ", tensor::DTypeName(info.dtype), "[",
          absl::StrJoin(info.shape, ","), "], not ", tensor::DTypeName(into.dtype()), "[",
          absl::StrJoin(into.shape(), ","), "] as given"));
    }
  }
  ASSIGN_OR_RETURN(std::vector<tensor::Tensor> results, Run(inputs));
  for (size_t k = 0; k < which.size(); ++k) {
    tensor::Tensor& into = (*outputs)[k];
    const tensor::Tensor& result = results[which[k]];
    if (into.defined()) {
      std::memcpy(into.raw_data(), result.raw_data(), result.byte_size());
    } else {
      into = result;
    }
  }
  return absl::OkStatus();
}

absl::Status Session::SavePlan(const std::string& path, runtime::PlanFormat format) const {
  const runtime::PackedStates states = executor_->packed_states();
  return io::WriteFileAtomically(path, [&](std::ostream& out) {
    return runtime::WritePlan(out, executor_->graph(), target_, format, states);
  });
}

}  // namespace qnnc
