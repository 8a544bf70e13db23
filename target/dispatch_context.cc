#include "target/dispatch_context.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace qnnc::target {
namespace {

// A candidate set aside, with why.
using Rejection = std::pair<const Implementation*, absl::Status>;

// The candidates that apply to a workload, and those that do not with why
// (also as "\n  name: why" lines in `rejected`, for an error).
struct Screened {
  std::vector<const Implementation*> applicable;
  std::vector<Rejection> inapplicable;
  std::string rejected;
};

Screened Screen(const Workload& workload, const Target& target,
                const std::vector<const Implementation*>& candidates) {
  Screened out;
  for (const Implementation* impl : candidates) {
    absl::Status s = impl->applicable(workload, target);
    if (s.ok()) {
      out.applicable.push_back(impl);
    } else {
      absl::StrAppend(&out.rejected, "\n  ", impl->name, ": ", s.message());
      out.inapplicable.emplace_back(impl, std::move(s));
    }
  }
  return out;
}

// Appends to `passed_over` each of `rejections` ranked above `chosen` (all
// of them with `all`), as "name: why" (joined by kPassedOverSeparator).
void AppendPassedOver(const std::vector<Rejection>& rejections, const Implementation& chosen,
                      std::string* passed_over, bool all = false) {
  for (const auto& [impl, why] : rejections) {
    if (all || impl->priority > chosen.priority) {
      absl::StrAppend(passed_over, passed_over->empty() ? "" : kPassedOverSeparator, impl->name,
                      ": ", why.message());
    }
  }
}

// The applicable implementations, best first: by priority, except that
// those a static cost model estimates (Implementation::static_cycles, at
// their default configs) and that read and write the same data (one
// legalization, one layout in and out) take the places of their priorities
// in the order of their estimates, fewest cycles first (a tie keeps
// priority's order). A loop's cycles cannot see what a different
// legalization or layout costs around the op (casts, layout changes), so
// between those, and for the rest, priority decides.
std::vector<const Implementation*> Ranked(const std::vector<const Implementation*>& applicable,
                                          const Workload& workload, const Target& target) {
  std::vector<const Implementation*> ranked = applicable;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Implementation* a, const Implementation* b) { return a->priority > b->priority; });
  struct Estimated {
    std::vector<size_t> places;
    std::vector<std::pair<double, const Implementation*>> cycles;
  };
  std::map<std::tuple<Legalization, std::string, std::string>, Estimated> by_data;
  for (size_t i = 0; i < ranked.size(); ++i) {
    const Implementation& impl = *ranked[i];
    if (!impl.static_cycles) continue;
    const Config config = impl.default_config ? impl.default_config(workload, target) : Config{};
    if (const std::optional<double> cycles = impl.static_cycles(workload, target, config)) {
      const Implementation::IoLayouts io = IoLayoutsFor(impl, workload);
      Estimated& e = by_data[{impl.legalization, io.data.str(), io.out.str()}];
      e.places.push_back(i);
      e.cycles.emplace_back(*cycles, &impl);
    }
  }
  for (auto& [data, e] : by_data) {
    std::stable_sort(e.cycles.begin(), e.cycles.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t k = 0; k < e.places.size(); ++k) ranked[e.places[k]] = e.cycles[k].second;
  }
  return ranked;
}

// The fallback: the first of Ranked() that the fallback may choose
// (Implementation::fallback_ok), those ranked above it that it may not
// added to `not_for_fallback` with why; if none may, the first all the same
// (something must run the op), and `not_for_fallback` is emptied.
// `applicable` is not empty. Candidates ranked below the fallback are not
// asked: a fallback_ok may analyse the weights (Workload::weight_pairs), and
// only those above it are reported.
const Implementation* ChooseFallback(const std::vector<const Implementation*>& applicable,
                                     const Workload& workload, const Target& target,
                                     std::vector<Rejection>* not_for_fallback) {
  const std::vector<const Implementation*> ranked = Ranked(applicable, workload, target);
  for (const Implementation* impl : ranked) {
    absl::Status ok = impl->fallback_ok ? impl->fallback_ok(workload, target) : absl::OkStatus();
    if (ok.ok()) return impl;
    not_for_fallback->emplace_back(impl, std::move(ok));
  }
  not_for_fallback->clear();
  return ranked[0];
}

// The fallback's own record (its implementation and config), if the tuner
// measured it: the first in `tuned_choices`.
const TunedChoice* FallbackRecord(const std::vector<TunedChoice>& tuned_choices,
                                  const Implementation& fallback, const Config& config) {
  for (const TunedChoice& c : tuned_choices) {
    if (c.implementation == fallback.name && c.config == config) return &c;
  }
  return nullptr;
}

// The candidate a tuned choice names, if it applies to the workload and the
// choice's config is in its space; else why not.
absl::StatusOr<const Implementation*> RecordedImplementation(
    const TunedChoice& tuned, const Workload& workload, const Target& target,
    const std::vector<const Implementation*>& candidates) {
  const Implementation* found = nullptr;
  for (const Implementation* impl : candidates) {
    if (impl->name == tuned.implementation) found = impl;
  }
  if (found == nullptr) return absl::NotFoundError("not an implementation of this target");
  absl::Status why = found->applicable(workload, target);
  if (why.ok()) why = SpaceFor(*found, workload).Validate(tuned.config);
  if (!why.ok()) return why;
  return found;
}

// Whether `tuned`, another record than the fallback's own, measured not
// clearly faster than it (within kTunedMargin, or kInModelMargin when both
// are whole-model times).
bool NotClearlyFasterThanFallback(const TunedChoice& tuned, const TunedChoice* fallback_record) {
  if (fallback_record == nullptr || &tuned == fallback_record || !(tuned.seconds > 0) ||
      !(fallback_record->seconds > 0)) {
    return false;
  }
  const double margin = tuned.in_model && fallback_record->in_model ? kInModelMargin : kTunedMargin;
  return tuned.seconds > fallback_record->seconds * (1 - margin);
}

// Tuned choices decide only an op whose fallback is the one they were
// measured against, where one is marked (TunedChoice::tune_fallback): if
// they were measured against another, that one ("implementation config"),
// else "".
std::string OtherTuneFallback(const std::vector<TunedChoice>& tuned_choices,
                              const TunedChoice* fallback_record) {
  if (fallback_record != nullptr && fallback_record->tune_fallback) return "";
  for (const TunedChoice& c : tuned_choices) {
    if (c.tune_fallback) return absl::StrCat(c.implementation, " ", ConfigToJson(c.config));
  }
  return "";
}

}  // namespace

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
  const Screened screened = Screen(workload, target, candidates);
  if (screened.applicable.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no implementation of ", workload.op, " applies on target ", target.ToString(),
        candidates.empty() ? " (none registered)" : ":", screened.rejected));
  }
  std::vector<Rejection> not_for_fallback;
  const Implementation* best =
      ChooseFallback(screened.applicable, workload, target, &not_for_fallback);
  const Config fallback_config = best->default_config ? best->default_config(workload, target) : Config{};
  std::vector<TunedChoice> tuned_choices = LookupAll(d.workload_key, target);
  const TunedChoice* fallback_record = FallbackRecord(tuned_choices, *best, fallback_config);
  if (const std::string other = OtherTuneFallback(tuned_choices, fallback_record); !other.empty()) {
    // Measured against another op's fallback: none of them decides this op.
    absl::StrAppend(&d.rejected_records, "records measured against another fallback (",
                    other, ") than this op's (", best->name, " ", ConfigToJson(fallback_config), ")");
    tuned_choices.clear();
    fallback_record = nullptr;
  }
  for (const TunedChoice& tuned : tuned_choices) {
    absl::StatusOr<const Implementation*> found =
        RecordedImplementation(tuned, workload, target, candidates);
    if (found.ok()) {
      // Not clearly faster than the fallback: the fallback, as measured.
      const bool fallback = NotClearlyFasterThanFallback(tuned, fallback_record);
      const Implementation* chosen = fallback ? best : *found;
      d.config = fallback ? fallback_config : tuned.config;
      d.tuned = true;
      d.implementation = chosen->name;
      // Why the candidates ranked above `chosen` did not decide (a tuned
      // choice was measured against those the fallback may not choose).
      AppendPassedOver(screened.inapplicable, *chosen, &d.passed_over);
      return d;
    }
    absl::StrAppend(&d.rejected_records, d.rejected_records.empty() ? "" : "; ",
                    tuned.implementation, " ", ConfigToJson(tuned.config), ": ",
                    found.status().message());
  }
  d.implementation = best->name;
  d.config = fallback_config;
  // For the fallback also those it may not choose, named with why.
  AppendPassedOver(screened.inapplicable, *best, &d.passed_over);
  AppendPassedOver(not_for_fallback, *best, &d.passed_over, /*all=*/true);
  return d;
}

}  // namespace qnnc::target
