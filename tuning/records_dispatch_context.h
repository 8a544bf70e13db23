// The dispatch context of tuning records: for a workload on a target, the
// best valid record of every implementation measured, most preferred first.
// Preference (DESIGN.md rule 4, "candidates compete where they will run"):
// only the records of one thread count compete, the run's own if the
// workload has any, else the nearest; among those, in-model records
// (RecordScope::kModel) when the workload has any, else the per-op ones;
// then records measured on this host's CPU model first, then the record's
// target from the most specific (most features) to the most generic, then
// time. A record applies only to a target that runs its code (an avx512vnni
// record never decides for an avx2 target). On a miss, the deterministic
// fallback; and a record not clearly faster than the fallback's own record
// of the same scope leaves the fallback (target::kTunedMargin,
// target::kInModelMargin).
#ifndef QNNC_TUNING_RECORDS_DISPATCH_CONTEXT_H_
#define QNNC_TUNING_RECORDS_DISPATCH_CONTEXT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "target/dispatch_context.h"
#include "target/target.h"
#include "tuning/record.h"

namespace qnnc::tuning {

// The best valid record per (workload, target, cpu, threads, scope,
// implementation, config): the smallest median time. Invalid (error) records
// are dropped.
std::vector<Record> BestRecords(const std::vector<Record>& records);

class RecordsDispatchContext : public target::DispatchContext {
 public:
  // `host_cpu`: the CPU model whose records are preferred (normally
  // kernels::cpu::CpuModelName()); `threads`: the thread count the model
  // will run with. Records whose target does not parse are dropped (see
  // dropped()).
  RecordsDispatchContext(const std::vector<Record>& records, std::string host_cpu, int threads = 1);

  std::optional<target::TunedChoice> Lookup(const std::string& workload_key,
                                            const target::Target& target) const override;
  std::vector<target::TunedChoice> LookupAll(const std::string& workload_key,
                                             const target::Target& target) const override;

  const std::vector<std::string>& dropped() const { return dropped_; }

 private:
  struct Entry {
    target::Target target;
    Record record;
  };
  std::vector<const Entry*> Ordered(const std::string& key, const target::Target& target) const;

  std::string host_cpu_;
  int threads_;
  std::map<std::string, std::vector<Entry>> by_workload_;
  std::vector<std::string> dropped_;
};

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_RECORDS_DISPATCH_CONTEXT_H_
