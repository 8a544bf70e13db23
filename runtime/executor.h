// Runs a compiled graph: each op bound once to its kernel, one shared thread
// pool, every intermediate tensor at a planned offset of one arena (by
// liveness, runtime/memory_plan.h), per-op times. Run may be called from
// many threads at once: each call runs on its own activations (an arena per
// concurrent run, allocated when first needed and kept for later runs); the
// graph, the kernels and their packed weights are shared and read-only, and
// calls that share a thread pool take turns on it (pthreadpool serializes).
#ifndef QNNC_RUNTIME_EXECUTOR_H_
#define QNNC_RUNTIME_EXECUTOR_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "runtime/kernel_registry.h"
#include "runtime/memory_plan.h"
#include "runtime/thread_pool.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

// Whether the executor runs `n` on the calling thread alone (too little
// work to share between threads): convolutions and dense layers by their
// multiply-adds, depthwise convolutions and other ops by the bytes they write.
bool SerialWork(const ir::Node& n);

struct ExecutorOptions {
  // Threads of the executor's own pool; ignored when `pool` is given.
  int threads = 1;
  // A pool shared with other executors (e.g. every session of a server).
  std::shared_ptr<ThreadPool> pool;
  // Create fails (ResourceExhaustedError with the size), before any kernel
  // is bound, when the inputs, constants, outputs and the planned arena of
  // the activations together need more bytes than this.
  int64_t max_bytes = tensor::kDefaultMaxBytes;
  // Compile only (cross-compilation): kernels needing an instruction set
  // this host may not use are checked and described, and Create succeeds;
  // Run then fails naming the instruction set. Without it, Create fails.
  bool allow_unrunnable = false;
  // A loaded plan's packed states (runtime/packed_state.h): their kernels
  // are restored from them, nothing packed.
  std::shared_ptr<const PackedStates> packed;
  // Constants only kernels holding them packed read (packed_state()) leave
  // memory once the kernels are made: the weights are held once. The graph
  // keeps their types; a binary plan still holds them (packed), a text plan
  // can no longer be written.
  bool release_packed_constants = false;
};

// The time one op took in the last run.
struct OpTiming {
  std::string op;
  std::string node_name;
  std::string implementation;
  std::string layout;
  std::string kernel;  // the kernel that ran ("reference" or its description)
  double ms = 0;
};

// The memory a run needs, as planned at load.
struct MemoryStats {
  int64_t arena_bytes = 0;     // the activations' arena, allocated once
  int64_t peak_bytes = 0;      // the most activation bytes live at one op
  int64_t sum_bytes = 0;       // every buffer's bytes: the size without reuse (an in-place
                               // concat's inputs count once, inside its result)
  int64_t constant_bytes = 0;  // the graph's constants (kernels' packed copies aside)
  int64_t packed_bytes = 0;    // the packed weights a binary plan holds (PreparedKernel::packed_state)
  int64_t io_bytes = 0;        // inputs and outputs
  int64_t in_place_concats = 0;  // concats whose inputs write their slices of the result
};

class Executor {
 public:
  // Takes a typed graph (InferTypes done).
  // Fails (FailedPrecondition) when a kernel needs an instruction set this
  // host may not use, unless options.allow_unrunnable.
  static absl::StatusOr<std::unique_ptr<Executor>> Create(std::unique_ptr<ir::Graph> graph,
                                                          const ExecutorOptions& options = {});

  ~Executor();

  // Inputs in graph-input order; each must match the input's type exactly.
  // Safe to call from many threads at once. A borrowed input (not padded)
  // is used in place when every op reading it runs a kernel that reads
  // within it (PreparedKernel::ReadsWithinInputs); else it is copied.
  absl::StatusOr<std::vector<tensor::Tensor>> Run(const std::vector<tensor::Tensor>& inputs) const;

  const ir::Graph& graph() const { return *graph_; }
  // One record per op, in plan order: the times of the run that finished
  // last (0 for the ops after one that failed; all 0 before any run).
  std::vector<OpTiming> last_timings() const;
  const MemoryStats& memory() const { return memory_; }
  // Whether a borrowed graph input `i` is used without a copy (see Run).
  bool input_in_place(size_t i) const { return input_in_place_.at(i); }
  // Checks the memory plan: no two tensors live at the same op share a byte.
  absl::Status CheckMemory() const;
  // Why this host cannot run the plan ("" when it can): the first op whose
  // kernel needs an instruction set the host may not use.
  const std::string& unrunnable() const { return unrunnable_; }
  // The kernels' packed states, for a binary plan (BinaryPlanBytes), and the
  // constants held only packed (a loaded plan's, or released after binding).
  PackedStates packed_states() const;
  // How many kernels were restored from a plan's packed states (none packed).
  int restored_kernels() const { return restored_kernels_; }

 private:
  struct Step {
    const ir::Node* node;
    std::vector<int> inputs;   // slots
    std::vector<int> outputs;  // slots
    std::vector<int> release;  // slots dead after this step
    // The kernel bound to the op when the plan was loaded; nullptr runs the
    // reference kernel.
    std::shared_ptr<const PreparedKernel> kernel;
    // Too little work to share: runs on the calling thread (SerialWork).
    bool serial = false;
    // A concat whose inputs were planned as slices of its result: no copy.
    bool in_place = false;
  };

  // One run's own state: the slots, the arena their activations live in,
  // the ops' times. Idle states wait in `idle_` for the next run.
  struct RunState;

  Executor(std::unique_ptr<ir::Graph> graph, const ExecutorOptions& options);
  absl::StatusOr<std::unique_ptr<RunState>> TakeState() const;
  void ReturnState(std::unique_ptr<RunState> state) const;
  absl::Status RunSteps(RunState& state) const;
  absl::Status Plan(const ExecutorOptions& options);
  // How many steps and graph outputs read each slot.
  std::vector<int> ReadersOfSlots() const;
  absl::Status PlanMemoryOf(int64_t max_bytes);
  absl::Status ReleasePackedConstants();
  // Releases the constants only `step` reads whose bytes its kernel holds
  // packed, as soon as the kernel is made (so a compile holds one weight,
  // not all, beside its packed form).
  absl::Status ReleaseConstantsPackedBy(const Step& step, const PackedState& packed,
                                        const std::vector<int>& readers);
  void MergeInPlaceConcats(const std::vector<int64_t>& bytes, const std::vector<int>& first,
                           const std::vector<bool>& outside, std::vector<BufferLifetime>* buffers);
  // Moves a kernel's result into its planned view (a copy unless it is
  // already there, as a reshape's is); an unplanned slot takes it.
  absl::Status Place(const tensor::Tensor& result, tensor::Tensor* planned, const ir::Node& node,
                     const tensor::Tensor& arena) const;
  bool InArena(const tensor::Tensor& t, const tensor::Tensor& arena) const;

  std::unique_ptr<ir::Graph> graph_;
  std::shared_ptr<ThreadPool> pool_;
  std::vector<Step> steps_;
  // slot -> constant data (or empty). A run's slots start as a copy of it,
  // once per run state: the constants stay between runs (copying them per
  // run, a shape allocation each, cost MobileNetV3 0.15 ms of 0.8); the
  // others are set by their step and dropped after their last reader.
  std::vector<tensor::Tensor> constant_slots_;
  std::vector<int> input_slots_;
  std::vector<bool> input_in_place_;  // per graph input: a borrowed one needs no copy
  std::vector<int> output_slots_;
  int num_slots_ = 0;
  std::vector<OpTiming> timings_;  // one per step, built at plan load; each run copies them
  std::string unrunnable_;
  std::shared_ptr<const PackedStates> packed_;
  absl::flat_hash_set<const ir::Value*> absent_;  // constants held only packed
  int restored_kernels_ = 0;
  std::vector<int> buffer_of_slot_;  // slot -> arena buffer, or -1 (outside the arena)
  std::vector<int64_t> slot_offset_;  // slot -> bytes into its buffer (a concat's slice)
  std::vector<bool> slice_;           // slot -> a slice of an in-place concat's result
  std::vector<BufferLifetime> buffers_;
  MemoryPlan memory_plan_;
  MemoryStats memory_;

  // A std::mutex, not absl::Mutex: ThreadSanitizer sees pthread's locks,
  // not those of the uninstrumented system Abseil.
  mutable std::mutex mu_;
  mutable std::vector<std::unique_ptr<RunState>> idle_;  // guarded by mu_
  mutable std::vector<OpTiming> last_timings_;           // guarded by mu_
};

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_EXECUTOR_H_
