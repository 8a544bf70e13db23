#include "target/dispatch_context.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace qnnc::target {

std::optional<TunedChoice> InMemoryDispatchContext::Lookup(const std::string& key,
                                                           const Target&) const {
  auto it = records_.find(key);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

std::vector<TunedChoice> DispatchContext::LookupAll(const std::string& workload_key,
                                                   const Target& target) const {
  std::vector<TunedChoice> all;
  if (auto one = Lookup(workload_key, target)) all.push_back(*std::move(one));
  return all;
}

absl::StatusOr<Decision> DispatchContext::Decide(
    const Workload& workload, const Target& target,
    const std::vector<const Implementation*>& candidates) const {
  Decision d;
  d.workload_key = workload.Key();
  std::vector<const Implementation*> applicable;
  std::vector<std::pair<const Implementation*, absl::Status>> inapplicable;
  std::string rejected;
  for (const Implementation* impl : candidates) {
    absl::Status s = impl->applicable(workload, target);
    if (s.ok()) {
      applicable.push_back(impl);
    } else {
      absl::StrAppend(&rejected, "\n  ", impl->name, ": ", s.message());
      inapplicable.emplace_back(impl, std::move(s));
    }
  }
  // Why the candidates ranked above `chosen` did not decide.
  // (For the fallback also those it may not choose, named with why; a tuned
  // choice was measured against them.)
  std::vector<std::pair<const Implementation*, absl::Status>> not_for_fallback;
  auto passed_over = [&](const Implementation& chosen, bool fallback) {
    std::string out;
    for (const auto& [impl, why] : inapplicable) {
      if (impl->priority > chosen.priority) {
        absl::StrAppend(&out, out.empty() ? "" : kPassedOverSeparator, impl->name, ": ",
                        why.message());
      }
    }
    if (!fallback) return out;
    for (const auto& [impl, why] : not_for_fallback) {
      if (impl->priority > chosen.priority) {
        absl::StrAppend(&out, out.empty() ? "" : kPassedOverSeparator, impl->name, ": ",
                        why.message());
      }
    }
    return out;
  };
  if (applicable.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no implementation of ", workload.op, " applies on target ", target.ToString(),
        candidates.empty() ? " (none registered)" : ":", rejected));
  }
  // The fallback: the applicable implementation of highest priority that
  // the fallback may choose (Implementation::fallback_ok); if none may, the
  // highest applicable one all the same (something must run the op).
  const Implementation* best = nullptr;
  for (const Implementation* impl : applicable) {
    absl::Status ok = impl->fallback_ok ? impl->fallback_ok(workload, target) : absl::OkStatus();
    if (!ok.ok()) {
      not_for_fallback.emplace_back(impl, std::move(ok));
      continue;
    }
    if (best == nullptr || impl->priority > best->priority) best = impl;
  }
  if (best == nullptr) {
    not_for_fallback.clear();
    best = applicable[0];
    for (const Implementation* impl : applicable) {
      if (impl->priority > best->priority) best = impl;
    }
  }
  const Config fallback_config = best->default_config ? best->default_config(workload, target) : Config{};
  const std::vector<TunedChoice> tuned_choices = LookupAll(d.workload_key, target);
  // The fallback's own record, if the tuner measured it.
  const TunedChoice* fallback_record = nullptr;
  for (const TunedChoice& c : tuned_choices) {
    if (c.implementation == best->name && c.config == fallback_config && !fallback_record) {
      fallback_record = &c;
    }
  }
  for (const TunedChoice& tuned : tuned_choices) {
    const Implementation* found = nullptr;
    for (const Implementation* impl : candidates) {
      if (impl->name == tuned.implementation) found = impl;
    }
    absl::Status why = found == nullptr
                           ? absl::NotFoundError("not an implementation of this target")
                           : found->applicable(workload, target);
    if (why.ok()) why = SpaceFor(*found, workload).Validate(tuned.config);
    if (why.ok()) {
      const Implementation* chosen = found;
      d.config = tuned.config;
      d.tuned = true;
      if (fallback_record != nullptr && &tuned != fallback_record && tuned.seconds > 0 &&
          fallback_record->seconds > 0 &&
          tuned.seconds > fallback_record->seconds * (1 - kTunedMargin)) {
        // Not clearly faster than the fallback: the fallback, as measured.
        chosen = best;
        d.config = fallback_config;
      }
      d.implementation = chosen->name;
      d.passed_over = passed_over(*chosen, false);
      return d;
    }
    absl::StrAppend(&d.rejected_records, d.rejected_records.empty() ? "" : "; ",
                    tuned.implementation, " ", ConfigToJson(tuned.config), ": ", why.message());
  }
  d.implementation = best->name;
  d.config = fallback_config;
  d.passed_over = passed_over(*best, true);
  return d;
}

}  // namespace qnnc::target
