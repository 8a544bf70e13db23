#include "tuning/measure.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/conv_epilogue.h"
#include "nlohmann/json.hpp"
#include "ir/decision_view.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "tuning/conversion_cost.h"
#include "runtime/executor.h"
#include "target/dispatch_context.h"
#include "util/status_macros.h"

namespace qnnc::tuning {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

bool AllConstantFrom(const ir::Node& n, size_t first) {
  for (size_t i = first; i < n.inputs().size(); ++i) {
    if (!n.input(i)->is_constant()) return false;
  }
  return true;
}

// The op (+ bias_add + requantize) as a graph of its own. Quantization
// parameters computed at run time (dynamic quantization's data zero point
// and scale) become graph inputs after the data, so the workload stays the
// model's (run-time zero points are part of its key); weights must be
// constants.
absl::StatusOr<std::unique_ptr<ir::Graph>> OpGraph(const ir::Graph& model, const ir::Node& node) {
  if (node.inputs().size() < 2 || !node.input(1)->is_constant()) {
    return absl::FailedPreconditionError("its weights are computed at run time");
  }
  for (size_t i = 2; i < node.inputs().size(); ++i) {
    const ir::Value* v = node.input(i);
    if (!v->is_constant() && (!v->type() || v->type()->rank() > 1)) {
      return absl::FailedPreconditionError("a quantization parameter computed at run time is not a scalar or vector");
    }
  }
  ir::Builder b;
  auto copy = [&](const ir::Node& n, ir::Value* first) {
    std::vector<ir::Value*> inputs{first};
    for (size_t i = 1; i < n.inputs().size(); ++i) inputs.push_back(b.Constant(n.input(i)->data()));
    return b.Op(n.op(), inputs, n.attrs(), n.name());
  };
  ir::Value* data = b.Input("x", *node.input(0)->type());
  std::vector<ir::Value*> inputs{data};
  for (size_t i = 1; i < node.inputs().size(); ++i) {
    const ir::Value* v = node.input(i);
    inputs.push_back(v->is_constant() ? b.Constant(v->data()) : b.Input(absl::StrCat("q", i), *v->type()));
  }
  ir::Value* out = b.Op(node.op(), inputs, node.attrs(), node.name());
  // The epilogue a fusing implementation would run, when its operands are
  // constants.
  std::optional<ir::ConvEpilogue> epilogue = ir::MatchConvEpilogueFrom(model, node);
  bool constant = epilogue && AllConstantFrom(*epilogue->requantize, 1);
  for (size_t i = 0; constant && i < epilogue->bias_adds.size(); ++i) {
    constant = AllConstantFrom(*epilogue->bias_adds[i], 1);
  }
  if (constant) {
    for (const ir::Node* add : epilogue->bias_adds) out = copy(*add, out);
    out = copy(*epilogue->requantize, out);
  }
  b.Output(out);
  return b.Finish();
}

tensor::Tensor RandomInput(const ir::TensorType& type, uint32_t seed) {
  tensor::Tensor t = tensor::Tensor::Zeros(type.dtype, type.shape);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    if (type.dtype == tensor::DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(byte(rng));
    if (type.dtype == tensor::DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(byte(rng) - 128);
  }
  return t;
}

MeasureResult Failed(MeasureError e, std::string message) {
  MeasureResult r;
  r.error = e;
  r.message = std::move(message);
  return r;
}

// Random data, and random values for run-time quantization parameters
// (u8 zero points; f32 scales stay 0: the accumulator does not read them).
std::vector<tensor::Tensor> RandomInputs(const ir::Graph& graph, uint32_t seed) {
  std::vector<tensor::Tensor> input;
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    input.push_back(RandomInput(*graph.inputs()[i]->type(), seed + static_cast<uint32_t>(i)));
  }
  return input;
}

// OK when the candidate names an implementation of the op on `target` and
// a config in its space.
absl::Status CheckCandidate(const TunableOp& op, const target::Target& target,
                            const Candidate& candidate) {
  const target::Registry& registry = target::GlobalRegistry();
  const target::Implementation* impl = nullptr;
  for (const target::Implementation* i : registry.Implementations(op.workload.op, target)) {
    if (i->name == candidate.implementation) impl = i;
  }
  if (impl == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(candidate.implementation, " is not an implementation on ", target.ToString()));
  }
  return target::SpaceFor(*impl, op.workload).Validate(candidate.config);
}

// The op compiled with a record choosing the candidate, its kernels bound;
// an error when compiling fails or another implementation was chosen.
absl::StatusOr<std::unique_ptr<runtime::Executor>> BuildCandidate(const TunableOp& op,
                                                                  const target::Target& target,
                                                                  const Candidate& candidate,
                                                                  int threads) {
  target::InMemoryDispatchContext records;
  records.Add(op.key, {candidate.implementation, candidate.config});
  passes::PassContext context;
  context.target = target;
  context.dispatch = &records;
  std::unique_ptr<ir::Graph> graph = op.graph->Clone();
  std::ostringstream log;
  RETURN_IF_ERROR(passes::PassManager().Run(passes::DefaultPipeline(), *graph, context, log));
  bool decided = false;
  for (const ir::Node* n : graph->nodes()) {
    auto d = ir::DecisionView::Of(*n);
    if (d && d->implementation == candidate.implementation && d->tuned) decided = true;
  }
  if (!decided) {
    return absl::FailedPreconditionError(
        absl::StrCat(candidate.implementation, " was not chosen for the op"));
  }
  runtime::ExecutorOptions eo;
  eo.threads = threads;
  return runtime::Executor::Create(std::move(graph), eo);
}

// The candidate's milliseconds in the executor's last run: those of the ops
// carrying its decision; an error when none does or one ran on the
// reference kernel.
absl::StatusOr<double> CandidateMs(const runtime::Executor& exec, const Candidate& candidate) {
  double ms = 0;
  bool bound = false;
  for (const runtime::OpTiming& t : exec.last_timings()) {
    if (t.implementation != candidate.implementation) continue;
    if (t.kernel == "reference" && candidate.implementation != "reference") {
      return absl::FailedPreconditionError(absl::StrCat(
          t.op, " decided for ", candidate.implementation, " ran on the reference kernel"));
    }
    ms += t.ms;
    bound = true;
  }
  if (!bound) return absl::FailedPreconditionError("no op carries the decision");
  return ms;
}

// The conversions the candidate's own layouts cost among neighbours in
// the model's (o.model_layouts), measured once and added to every repeat.
absl::Status AddConversionSeconds(const runtime::Executor& exec, const TunableOp& op,
                                  const Candidate& candidate, const MeasureOptions& o,
                                  std::vector<double>* repeats_s) {
  std::optional<ir::DecisionView> d;
  for (const ir::Node* n : exec.graph().nodes()) {
    if (auto nd = ir::DecisionView::Of(*n); nd && nd->implementation == candidate.implementation) d = nd;
  }
  if (!d || !d->layout) return absl::OkStatus();
  const ir::Layout data = *d->layout, out = d->out_layout.value_or(data);
  // A dense op's NC has no other layout to convert from.
  if (data == ir::Layout::Nc() || o.model_layouts->data == ir::Layout::Nc()) return absl::OkStatus();
  double extra = 0;
  for (const auto& [type, from, to] :
       {std::make_tuple(*op.graph->inputs()[0]->type(), o.model_layouts->data, data),
        std::make_tuple(*op.graph->outputs()[0]->type(), out, o.model_layouts->out)}) {
    ASSIGN_OR_RETURN(double s, ConversionSeconds(type, from, to, o.threads, o.warmup, o.repeats));
    extra += s;
  }
  for (double& t : *repeats_s) t += extra;
  return absl::OkStatus();
}

// The measurement itself, in this process.
MeasureResult MeasureHere(const TunableOp& op, const target::Target& target,
                          const Candidate& candidate, const MeasureOptions& o) {
  if (o.before_run) o.before_run();
  const std::vector<tensor::Tensor> input = RandomInputs(*op.graph, o.seed);
  // The reference: the op as the model states it, on the reference kernels.
  auto ref_exec = runtime::Executor::Create(op.graph->Clone());
  if (!ref_exec.ok()) return Failed(MeasureError::kCompileError, std::string(ref_exec.status().message()));
  auto expected = (*ref_exec)->Run(input);
  if (!expected.ok()) return Failed(MeasureError::kRuntimeError, std::string(expected.status().message()));
  if (absl::Status s = CheckCandidate(op, target, candidate); !s.ok()) {
    return Failed(MeasureError::kInvalidConfig, std::string(s.message()));
  }
  auto exec = BuildCandidate(op, target, candidate, o.threads);
  if (!exec.ok()) return Failed(MeasureError::kCompileError, std::string(exec.status().message()));
  MeasureResult r;
  for (int i = 0; i < o.warmup + o.repeats; ++i) {
    auto out = (*exec)->Run(input);
    if (!out.ok()) return Failed(MeasureError::kRuntimeError, std::string(out.status().message()));
    if (i == 0 && !(*out)[0].BitwiseEquals((*expected)[0])) {
      return Failed(MeasureError::kWrongAnswer, "the output differs from the reference kernel's");
    }
    absl::StatusOr<double> ms = CandidateMs(**exec, candidate);
    if (!ms.ok()) return Failed(MeasureError::kCompileError, std::string(ms.status().message()));
    if (i >= o.warmup) r.repeats_s.push_back(*ms / 1000.0);
  }
  if (o.model_layouts) {
    if (absl::Status s = AddConversionSeconds(**exec, op, candidate, o, &r.repeats_s); !s.ok()) {
      return Failed(MeasureError::kCompileError, std::string(s.message()));
    }
  }
  std::vector<double> sorted = r.repeats_s;
  std::sort(sorted.begin(), sorted.end());
  r.median_s = sorted[sorted.size() / 2];
  if (r.median_s <= 0) r.median_s = 1e-9;  // below the clock's resolution
  return r;
}

std::string ResultToJson(const MeasureResult& r) {
  nlohmann::json j;
  j["error"] = MeasureErrorName(r.error);
  j["median_s"] = r.median_s;
  j["repeats_s"] = r.repeats_s;
  j["message"] = r.message;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

MeasureResult ResultFromJson(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Failed(MeasureError::kCrash, "no result from the child");
  MeasureResult r;
  r.error = ParseMeasureError(j.value("error", "crash")).value_or(MeasureError::kCrash);
  r.median_s = j.value("median_s", 0.0);
  r.repeats_s = j.value("repeats_s", std::vector<double>{});
  r.message = j.value("message", "");
  return r;
}

// Runs MeasureHere in a child process: a crash or a hang is a result.
MeasureResult MeasureIsolated(const TunableOp& op, const target::Target& target,
                              const Candidate& candidate, const MeasureOptions& o) {
  int fds[2];
  if (pipe(fds) != 0) return Failed(MeasureError::kRuntimeError, "pipe() failed");
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Failed(MeasureError::kRuntimeError, "fork() failed");
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string text = ResultToJson(MeasureHere(op, target, candidate, o));
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  const auto start = Clock::now();
  bool timed_out = false;
  char buf[4096];
  for (;;) {
    const double left = o.timeout_s - Seconds(start);
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;  // EOF: the child is done (or died)
    text.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return Failed(MeasureError::kTimeout, absl::StrCat("killed after ", o.timeout_s, " s"));
  }
  if (WIFSIGNALED(status)) {
    return Failed(MeasureError::kCrash,
                  absl::StrCat("the candidate's process died of signal ", WTERMSIG(status), " (",
                               strsignal(WTERMSIG(status)), ")"));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    return Failed(MeasureError::kCrash, "the candidate's process exited without a result");
  }
  return ResultFromJson(text);
}

}  // namespace

absl::StatusOr<TunableOps> ExtractTunableOps(const ir::Graph& model) {
  std::unique_ptr<ir::Graph> graph = model.Clone();
  passes::PassContext context;
  std::ostringstream log;
  RETURN_IF_ERROR(passes::PassManager().Run({"InferTypes", "FoldConstant"}, *graph, context, log));
  TunableOps out;
  std::map<std::string, size_t> seen;
  for (const ir::Node* n : graph->nodes()) {
    if (n->op() != "qnn.conv2d" && n->op() != "qnn.dense") continue;
    auto workload = target::ExtractWorkload(*graph, *n);
    if (!workload.ok()) {
      out.skipped.push_back(absl::StrCat(n->Describe(), ": ", workload.status().message()));
      continue;
    }
    const std::string key = workload->Key();
    if (auto it = seen.find(key); it != seen.end()) {
      ++out.ops[it->second].count;
      continue;
    }
    auto op_graph = OpGraph(*graph, *n);
    if (!op_graph.ok()) {
      out.skipped.push_back(absl::StrCat(n->Describe(), ": not tunable: ", op_graph.status().message()));
      continue;
    }
    seen[key] = out.ops.size();
    out.ops.push_back({n->name(), *workload, key, std::shared_ptr<const ir::Graph>(*std::move(op_graph)), 1});
  }
  return out;
}

std::vector<Candidate> Candidates(const target::Workload& workload, const target::Target& target,
                                  const target::Registry& registry) {
  std::vector<Candidate> out;
  for (const target::Implementation* impl : registry.Implementations(workload.op, target)) {
    if (!impl->applicable(workload, target).ok()) continue;
    const target::ConfigSpace space = target::SpaceFor(*impl, workload);
    for (int64_t i = 0; i < space.size(); ++i) {
      out.push_back({impl->name, space.At(i), i});
    }
  }
  return out;
}

MeasureResult Measure(const TunableOp& op, const target::Target& target,
                      const Candidate& candidate, const MeasureOptions& options) {
  const auto start = Clock::now();
  MeasureResult r = options.isolate ? MeasureIsolated(op, target, candidate, options)
                                    : MeasureHere(op, target, candidate, options);
  r.wall_s = Seconds(start);
  if (r.error != MeasureError::kNone) {
    r.median_s = 0;
    r.repeats_s.clear();
  }
  return r;
}

}  // namespace qnnc::tuning
