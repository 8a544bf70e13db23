// The dispatch context answers, for a workload, which implementation and
// config to use. With no tuning record it falls back deterministically: the
// applicable implementation of highest priority (that the fallback may choose:
// Implementation::fallback_ok) with its default config
// (invariant 3 of docs/DESIGN.md).
#ifndef QNNC_TARGET_DISPATCH_CONTEXT_H_
#define QNNC_TARGET_DISPATCH_CONTEXT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "target/config.h"
#include "target/implementation.h"
#include "target/target.h"
#include "target/workload.h"

namespace qnnc::target {

struct Decision {
  std::string implementation;
  Config config;
  bool tuned = false;
  std::string workload_key;
  // Records found for the workload but not used for this op, each with why
  // (the implementation does not apply to this op, or the config is not in
  // its space); empty when none was rejected.
  std::string rejected_records;
  // The candidates ranked above the chosen implementation (higher priority)
  // that do not apply to this op, and for an untuned decision also those the
  // fallback may not choose (Implementation::fallback_ok; none when no
  // applicable candidate may be chosen and the best-ranked one runs anyway),
  // each with why ("name: why", joined by
  // kPassedOverSeparator; predicates' messages may contain "; "): what a
  // better-ranked kernel would need (e.g. u8s8.avx2's weight pairs). All of
  // them, including kernels for another kind of workload (the dynamic ones
  // on a constant zero point). Empty when every candidate ranked above the
  // chosen one applies and may be the fallback (or a tuned choice beat them
  // in measurement).
  std::string passed_over;
};
inline constexpr char kPassedOverSeparator[] = " | ";

// A tuning record's answer for one workload.
struct TunedChoice {
  std::string implementation;
  Config config;
  double seconds = 0;  // its measured time, 0 when unknown
  // Whether `seconds` is the whole model's time with this choice (timed
  // alternately against the fallback's), not the op's alone.
  bool in_model = false;
  // This is the fallback the tune measured the others against. Ops of one
  // workload key can have different fallbacks (Implementation::fallback_ok
  // sees the weights): when one of the choices is so marked, the choices
  // decide only an op whose own fallback is that one; another op keeps its
  // fallback, which nothing was measured against.
  bool tune_fallback = false;
};

// A record replaces the fallback only when it measured at least this much
// faster than the fallback's own record: closer is within the noise of
// measuring one op alone (repeated tunes of one op differ by up to ~20%).
inline constexpr double kTunedMargin = 0.05;
// The same for whole-model times measured alternately with and without the
// record: such medians differ by well under 1% between repeated
// measurements, and a smaller win is not worth a promise.
inline constexpr double kInModelMargin = 0.01;

class DispatchContext {
 public:
  virtual ~DispatchContext() = default;
  // The tuned choice for a workload on a target, if any.
  virtual std::optional<TunedChoice> Lookup(const std::string& workload_key,
                                            const Target& target) const = 0;
  // Every tuned choice for the workload on the target, most preferred
  // first; Decide takes the first that applies to the op. Default: Lookup's.
  virtual std::vector<TunedChoice> LookupAll(const std::string& workload_key,
                                             const Target& target) const;

  // Decides among `candidates` (most preferred registry order): the first
  // tuned choice that names an applicable candidate and a valid config, else
  // the fallback (with the rejected records and why in the decision). An
  // error lists every candidate and why it was rejected.
  absl::StatusOr<Decision> Decide(const Workload& workload, const Target& target,
                                  const std::vector<const Implementation*>& candidates) const;
};

// No records: always the fallback.
class FallbackDispatchContext : public DispatchContext {
 public:
  std::optional<TunedChoice> Lookup(const std::string&, const Target&) const override {
    return std::nullopt;
  }
};

// Records held in memory, keyed by workload key, for any target (tests;
// tuning/records_dispatch_context.h reads records files and honours the
// target).
class InMemoryDispatchContext : public DispatchContext {
 public:
  void Add(const std::string& workload_key, TunedChoice choice) {
    records_[workload_key] = std::move(choice);
  }
  std::optional<TunedChoice> Lookup(const std::string& workload_key,
                                    const Target&) const override;

 private:
  std::map<std::string, TunedChoice> records_;
};

}  // namespace qnnc::target

#endif  // QNNC_TARGET_DISPATCH_CONTEXT_H_
