// qnnc inside programs: compile a quantized model (or load a compiled plan)
// once, then run it from any number of threads.
//
//   qnnc::SessionOptions options;
//   options.threads = 2;
//   auto session = qnnc::Session::Compile("mobilenet_v2.onnx", options);
//   if (!session.ok()) ...  // session.status().message(): what and where
//   auto outputs = (*session)->Run({{"input", input_tensor}});
//
// Run is safe to call from many threads at once on one session: each call
// runs on its own activations, while the compiled graph and the kernels'
// packed weights are shared and read-only. Calls that share a thread pool
// (the session's own, or one passed in SessionOptions::thread_pool) take
// turns on it; with threads = 1 each call runs on its calling thread alone,
// which is how a server with one request per thread gets all its cores.
// Errors are absl::Status values with the messages //tools:compile prints.
#ifndef QNNC_QNNC_SESSION_H_
#define QNNC_QNNC_SESSION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/plan.h"
#include "runtime/thread_pool.h"
#include "tensor/tensor.h"

namespace qnnc {

namespace runtime {
class Executor;
}  // namespace runtime

struct SessionOptions {
  // What to compile for: "host", "generic", or ARCH[+FEATURE...], e.g.
  // "x86_64+avx2". It must run on this host.
  std::string target = "host";
  // Threads of the session's own pool; ignored when thread_pool is given.
  int threads = 1;
  // A pool shared with other sessions.
  std::shared_ptr<runtime::ThreadPool> thread_pool;
  // Tuning records files (//tools:tune writes them): each op's decision
  // comes from the best record that applies (of the session's thread count
  // first), else the fallback.
  std::vector<std::string> records;
  bool strict_records = false;  // a malformed record line is an error
  // Static shapes of ONNX inputs whose model shape is symbolic, by name.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // The most MiB the model's constants, or its tensors when run, may take.
  int64_t max_memory_mb = 4096;
};

// A graph input or output as the compiled model has it.
struct TensorInfo {
  std::string name;
  tensor::DType dtype;
  std::vector<int64_t> shape;
};

using NamedTensors = std::vector<std::pair<std::string, tensor::Tensor>>;

class Session {
 public:
  // Imports and compiles a model: ONNX (.onnx) or qnnc's text IR.
  static absl::StatusOr<std::unique_ptr<Session>> Compile(const std::string& model_path,
                                                          const SessionOptions& options = {});
  // Compiles an ONNX model given as its serialized bytes.
  static absl::StatusOr<std::unique_ptr<Session>> CompileOnnx(absl::string_view model_bytes,
                                                              const SessionOptions& options = {});
  // Loads a plan written by SavePlan or `compile --out`: no import and no
  // passes; its kernels bind now, the dense convolutions over the weights
  // the plan holds packed (nothing is packed for them). Only the options
  // that do not shape compilation apply (threads, thread_pool, max_memory_mb).
  static absl::StatusOr<std::unique_ptr<Session>> LoadPlan(const std::string& plan_path,
                                                           const SessionOptions& options = {});

  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  // The target compiled for, e.g. "x86_64+avx512vnni".
  const std::string& target() const { return target_; }

  // Runs the model on every input, by name; returns every output, in
  // outputs() order. Each input must have the input's dtype and shape; one
  // over the caller's memory (tensor::Tensor::Borrow) is read in place
  // where the kernels allow, else copied.
  absl::StatusOr<std::vector<tensor::Tensor>> Run(const NamedTensors& inputs) const;
  // Runs the model and gives the outputs named (all when `output_names` is
  // empty), in that order, into `outputs`: a defined tensor of the output's
  // dtype and shape is written in place (memory the caller owns); an
  // undefined one, or a missing one, is set to the result.
  absl::Status Run(const NamedTensors& inputs, const std::vector<std::string>& output_names,
                   std::vector<tensor::Tensor>* outputs) const;

  // Writes the compiled plan (LoadPlan reads it) atomically: a failed write
  // leaves no file. Binary by default (runtime/plan.h). A session holds the
  // weights its kernels packed only packed, so a text plan, which holds
  // every weight's bytes, is an error here (`compile --out
  // --plan-format=text` writes one).
  absl::Status SavePlan(const std::string& path,
                        runtime::PlanFormat format = runtime::PlanFormat::kBinary) const;

  // The executor, for per-op times and memory figures.
  const runtime::Executor& executor() const { return *executor_; }

 private:
  Session(std::unique_ptr<runtime::Executor> executor, std::string target);
  absl::StatusOr<std::vector<tensor::Tensor>> OrderInputs(const NamedTensors& inputs) const;

  std::unique_ptr<runtime::Executor> executor_;
  std::string target_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
};

}  // namespace qnnc

#endif  // QNNC_QNNC_SESSION_H_
