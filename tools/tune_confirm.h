// In-model confirmation, tune's last step: a per-op record replaces the
// fallback only when the whole model confirms it. For each tuned workload
// whose per-op records pick another candidate than the fallback, in model
// order, the model is compiled with that candidate deciding the workload
// and with the fallback deciding it (the workloads confirmed before keep
// their winners, the rest their fallbacks), both run alternately on the same
// inputs at the tune's thread count, their outputs checked bit for bit
// (every implementation is exact), and both medians appended as records of
// scope "model" (tuning/record.h). compile then decides such a workload from
// these two only (tuning/records_dispatch_context.h): the candidate wins
// when at least target::kInModelMargin faster, else the fallback stays.
#ifndef QNNC_TOOLS_TUNE_CONFIRM_H_
#define QNNC_TOOLS_TUNE_CONFIRM_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "target/target.h"
#include "tuning/measure.h"

namespace qnnc::tools {

struct ConfirmSettings {
  std::string model_path;
  std::string records_path;  // read for the per-op records, appended to
  target::Target target;
  std::string cpu;  // the records' CPU model (this host's)
  int threads = 1;
  double seconds = 0.5;  // timing per side and workload, at least 10 rounds
  // Workloads that already have in-model records of this target, CPU and
  // thread count keep them (tune --resume) instead of being timed again.
  bool reuse = false;
};

// Confirms `ops` (the tuned workloads, in model order), printing one line
// per workload to `out`. An error is a model or records file that cannot be
// read or compiled, or a records file that cannot be written.
absl::Status ConfirmInModel(const ConfirmSettings& settings,
                            const std::vector<const tuning::TunableOp*>& ops, std::ostream& out);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_TUNE_CONFIRM_H_
