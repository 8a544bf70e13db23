// Tuners: which candidates of one workload to measure next. Grid walks the
// space in order, random in a seeded random order, and xgb fits an XGBoost
// cost model (libxgboost, as AutoTVM does) to what was measured and picks
// the unmeasured candidates it predicts fastest. TuneSpace drives any of
// them with a trial budget and early stopping.
#ifndef QNNC_TUNING_TUNER_H_
#define QNNC_TUNING_TUNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace qnnc::tuning {

class Tuner {
 public:
  virtual ~Tuner() = default;
  // The next candidate to measure (an index into the space), or -1 when
  // every candidate was measured.
  virtual int Next() = 0;
  // What candidate `index` cost: seconds, or +infinity for a failed one.
  virtual void Update(int index, double cost) = 0;
};

// `features`: one row per candidate (used by xgb; the others need only the
// count). Names: "grid", "random", "xgb".
absl::StatusOr<std::unique_ptr<Tuner>> MakeTuner(const std::string& name,
                                                 std::vector<std::vector<float>> features,
                                                 uint32_t seed);

struct TuneOutcome {
  int best = -1;           // index of the cheapest candidate measured, -1 if none worked
  double best_cost = 0;
  int trials = 0;          // candidates measured
  int trials_to_best = 0;  // trials until the best was first measured
};

// Measures up to `budget` candidates the tuner proposes, stopping early when
// `early_stopping` trials in a row (0: never) brought no improvement.
// `measure(index)` returns the cost (+infinity for a failure).
TuneOutcome TuneSpace(Tuner& tuner, int budget, int early_stopping,
                      const std::function<double(int)>& measure);

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_TUNER_H_
