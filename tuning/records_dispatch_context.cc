#include "tuning/records_dispatch_context.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace qnnc::tuning {

namespace {

// A candidate as measured: workload, target, cpu, threads, scope,
// implementation, config.
using Measured = std::tuple<std::string, std::string, std::string, int, RecordScope, std::string, std::string>;

Measured MeasuredOf(const Record& r) {
  return {r.workload, r.target, r.cpu, r.threads, r.scope, r.implementation, target::ConfigToJson(r.config)};
}

}  // namespace

std::vector<Record> BestRecords(const std::vector<Record>& records) {
  std::map<Measured, const Record*> best;
  // A candidate measured as the tune's fallback stays marked so, whichever
  // of its measurements is the best.
  std::set<Measured> marked;
  for (const Record& r : records) {
    if (!r.valid()) continue;
    const Record*& b = best[MeasuredOf(r)];
    if (b == nullptr || r.result.median_s < b->result.median_s) b = &r;
    if (r.fallback) marked.insert(MeasuredOf(r));
  }
  std::vector<Record> out;
  for (const auto& [key, r] : best) {
    out.push_back(*r);
    out.back().fallback = marked.count(key) > 0;
  }
  return out;
}

RecordsDispatchContext::RecordsDispatchContext(const std::vector<Record>& records,
                                               std::string host_cpu, int threads)
    : host_cpu_(std::move(host_cpu)), threads_(threads) {
  for (Record& r : BestRecords(records)) {
    auto t = target::ParseTarget(r.target);
    if (!t.ok() || r.target == "host") {
      dropped_.push_back(absl::StrCat("record for ", r.implementation, " on '", r.target,
                                      "': ", t.ok() ? "not a concrete target" : t.status().message()));
      continue;
    }
    by_workload_[r.workload].push_back({*t, std::move(r)});
  }
}

std::vector<const RecordsDispatchContext::Entry*> RecordsDispatchContext::Ordered(
    const std::string& key, const target::Target& target) const {
  std::vector<const Entry*> out;
  auto it = by_workload_.find(key);
  if (it == by_workload_.end()) return out;
  // The thread count that competes: the run's own, else the nearest (the
  // fewer on a tie); then in-model records if there are any.
  int threads = 0;
  bool in_model = false;
  for (const Entry& e : it->second) {
    if (!target::CanRunOn(e.target, target)) continue;
    const int d = std::abs(e.record.threads - threads_), best = std::abs(threads - threads_);
    if (threads == 0 || d < best || (d == best && e.record.threads < threads)) {
      threads = e.record.threads;
      in_model = false;
    }
    if (e.record.threads == threads) in_model |= e.record.scope == RecordScope::kModel;
  }
  for (const Entry& e : it->second) {
    if (target::CanRunOn(e.target, target) && e.record.threads == threads &&
        (e.record.scope == RecordScope::kModel) == in_model) {
      out.push_back(&e);
    }
  }
  std::stable_sort(out.begin(), out.end(), [&](const Entry* a, const Entry* b) {
    const bool ha = a->record.cpu == host_cpu_, hb = b->record.cpu == host_cpu_;
    if (ha != hb) return ha;
    if (a->target.features.size() != b->target.features.size()) {
      return a->target.features.size() > b->target.features.size();
    }
    return a->record.result.median_s < b->record.result.median_s;
  });
  return out;
}

std::optional<target::TunedChoice> RecordsDispatchContext::Lookup(
    const std::string& key, const target::Target& target) const {
  std::vector<target::TunedChoice> all = LookupAll(key, target);
  if (all.empty()) return std::nullopt;
  return all[0];
}

std::vector<target::TunedChoice> RecordsDispatchContext::LookupAll(
    const std::string& key, const target::Target& target) const {
  std::vector<target::TunedChoice> out;
  for (const Entry* e : Ordered(key, target)) {
    out.push_back({e->record.implementation, e->record.config, e->record.result.median_s,
                   e->record.scope == RecordScope::kModel, e->record.fallback});
  }
  return out;
}

}  // namespace qnnc::tuning
