// Measuring candidates: one tunable op of a model, built for one
// implementation + config with the model's own constants (weights, bias,
// scales, zero points), run on random inputs, timed and checked bit for bit
// against the reference kernels. A crash, hang or abort of a candidate is a
// record (crash, timeout), never the tuner's end: each candidate runs in a
// child process.
#ifndef QNNC_TUNING_MEASURE_H_
#define QNNC_TUNING_MEASURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "target/config.h"
#include "target/implementation.h"
#include "target/registry.h"
#include "target/target.h"
#include "target/workload.h"
#include "tuning/record.h"

namespace qnnc::tuning {

// One tunable op: its workload and a graph of the op alone (its data input
// the graph's input, its constants copied), with the nn.bias_add and the
// qnn.requantize that consume it, whose fusion the implementations decide.
struct TunableOp {
  std::string node;  // the model's node name
  target::Workload workload;
  std::string key;   // workload.Key()
  std::shared_ptr<const ir::Graph> graph;
  int count = 1;     // how many ops of the model share this workload key
};

// The tunable ops (qnn.conv2d, qnn.dense) of an imported model, one per
// workload key, in model order. `graph` is taken as imported; the passes
// before legalization (InferTypes, FoldConstant) run on a copy. Ops whose
// quantization parameters are computed at run time are listed in `skipped`
// with why.
struct TunableOps {
  std::vector<TunableOp> ops;
  std::vector<std::string> skipped;
};
absl::StatusOr<TunableOps> ExtractTunableOps(const ir::Graph& graph);

struct Candidate {
  std::string implementation;
  target::Config config;
  int64_t config_index = -1;
};
// Every point of every applicable implementation's config space, in
// registry order (the registry's candidates for the workload and target).
std::vector<Candidate> Candidates(const target::Workload& workload, const target::Target& target,
                                  const target::Registry& registry);

struct MeasureOptions {
  int threads = 1;
  int warmup = 2;
  int repeats = 10;
  double timeout_s = 60;
  uint32_t seed = 1;
  bool isolate = true;  // run in a child process (false: in this one; tests)
  // Runs first in the candidate's process (tests: make a candidate crash or
  // hang).
  std::function<void()> before_run;
  // The layouts the op's neighbours hand over and take back in the model
  // (tune: the fallback's, what compile picks without records). A candidate
  // reading or writing other layouts is charged the conversions
  // (conversion_cost.h); unset: no charge.
  std::optional<target::Implementation::IoLayouts> model_layouts;
};

// Builds the candidate for the op on `target`, runs it and checks it. The
// time is the candidate's kernel (the op carrying the decision), not the
// layout transforms around the single op, which a whole model cancels; plus,
// with `model_layouts`, the conversions between those and the candidate's.
MeasureResult Measure(const TunableOp& op, const target::Target& target,
                      const Candidate& candidate, const MeasureOptions& options);

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_MEASURE_H_
