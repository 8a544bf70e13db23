#include "tuning/tuner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"
#include "xgboost/c_api.h"

namespace qnnc::tuning {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class OrderTuner : public Tuner {
 public:
  explicit OrderTuner(std::vector<int> order) : order_(std::move(order)) {}
  int Next() override { return pos_ < order_.size() ? order_[pos_++] : -1; }
  void Update(int, double) override {}

 private:
  std::vector<int> order_;
  size_t pos_ = 0;
};

// XGBoost regression on log(cost); the cheapest predicted unmeasured
// candidate next, with a few random picks first and some exploration.
class XgbTuner : public Tuner {
 public:
  XgbTuner(std::vector<std::vector<float>> features, uint32_t seed)
      : features_(std::move(features)), rng_(seed), measured_(features_.size(), false) {}

  int Next() override {
    std::vector<int> open;
    for (size_t i = 0; i < measured_.size(); ++i) {
      if (!measured_[i]) open.push_back(static_cast<int>(i));
    }
    if (open.empty()) return -1;
    std::uniform_real_distribution<double> coin(0, 1);
    if (labels_.size() < kWarmup || coin(rng_) < kExplore) return Pick(open);
    std::vector<float> predicted = Predict(open);
    if (predicted.empty()) return Pick(open);
    size_t best = 0;
    for (size_t i = 1; i < open.size(); ++i) {
      if (predicted[i] < predicted[best]) best = i;
    }
    measured_[open[best]] = true;
    return open[best];
  }

  void Update(int index, double cost) override {
    measured_[index] = true;
    rows_.push_back(index);
    // A failed candidate is ranked just above the worst success.
    labels_.push_back(std::isfinite(cost) && cost > 0 ? static_cast<float>(std::log(cost)) : NAN);
  }

 private:
  static constexpr size_t kWarmup = 4;
  static constexpr double kExplore = 0.05;

  int Pick(const std::vector<int>& open) {
    const int i = open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng_)];
    measured_[i] = true;
    return i;
  }

  std::vector<float> Matrix(const std::vector<int>& rows) const {
    std::vector<float> m;
    for (int r : rows) m.insert(m.end(), features_[r].begin(), features_[r].end());
    return m;
  }

  std::vector<float> Predict(const std::vector<int>& open) {
    const size_t cols = features_.empty() ? 0 : features_[0].size();
    if (cols == 0) return {};
    float worst = -std::numeric_limits<float>::infinity();
    for (float l : labels_) {
      if (!std::isnan(l)) worst = std::max(worst, l);
    }
    if (!std::isfinite(worst)) return {};  // nothing succeeded yet
    std::vector<float> labels = labels_;
    for (float& l : labels) {
      if (std::isnan(l)) l = worst + 1.0f;
    }
    std::vector<float> train = Matrix(rows_), test = Matrix(open);
    DMatrixHandle dtrain = nullptr, dtest = nullptr;
    BoosterHandle booster = nullptr;
    std::vector<float> out;
    if (XGDMatrixCreateFromMat(train.data(), rows_.size(), cols, NAN, &dtrain) == 0 &&
        XGDMatrixSetFloatInfo(dtrain, "label", labels.data(), labels.size()) == 0 &&
        XGDMatrixCreateFromMat(test.data(), open.size(), cols, NAN, &dtest) == 0 &&
        XGBoosterCreate(&dtrain, 1, &booster) == 0) {
      XGBoosterSetParam(booster, "objective", "reg:squarederror");
      XGBoosterSetParam(booster, "max_depth", "4");
      XGBoosterSetParam(booster, "eta", "0.3");
      XGBoosterSetParam(booster, "min_child_weight", "1");
      XGBoosterSetParam(booster, "nthread", "1");
      XGBoosterSetParam(booster, "verbosity", "0");
      XGBoosterSetParam(booster, "seed", "0");
      bool ok = true;
      for (int it = 0; it < 30 && ok; ++it) ok = XGBoosterUpdateOneIter(booster, it, dtrain) == 0;
      bst_ulong len = 0;
      const float* pred = nullptr;
      if (ok && XGBoosterPredict(booster, dtest, 0, 0, 0, &len, &pred) == 0 && len == open.size()) {
        out.assign(pred, pred + len);
      }
    }
    if (booster) XGBoosterFree(booster);
    if (dtrain) XGDMatrixFree(dtrain);
    if (dtest) XGDMatrixFree(dtest);
    return out;
  }

  std::vector<std::vector<float>> features_;
  std::mt19937 rng_;
  std::vector<bool> measured_;
  std::vector<int> rows_;
  std::vector<float> labels_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Tuner>> MakeTuner(const std::string& name,
                                                 std::vector<std::vector<float>> features,
                                                 uint32_t seed) {
  std::vector<int> order(features.size());
  std::iota(order.begin(), order.end(), 0);
  if (name == "grid") return std::unique_ptr<Tuner>(new OrderTuner(std::move(order)));
  if (name == "random") {
    std::mt19937 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    return std::unique_ptr<Tuner>(new OrderTuner(std::move(order)));
  }
  if (name == "xgb") return std::unique_ptr<Tuner>(new XgbTuner(std::move(features), seed));
  return absl::InvalidArgumentError(
      absl::StrCat("unknown tuner '", name, "' (valid: grid, random, xgb)"));
}

TuneOutcome TuneSpace(Tuner& tuner, int budget, int early_stopping,
                      const std::function<double(int)>& measure) {
  TuneOutcome out;
  double best = kInf;
  int since_best = 0;
  while (out.trials < budget) {
    const int i = tuner.Next();
    if (i < 0) break;
    const double cost = measure(i);
    tuner.Update(i, cost);
    ++out.trials;
    if (cost < best) {
      best = cost;
      out.best = i;
      out.best_cost = cost;
      out.trials_to_best = out.trials;
      since_best = 0;
    } else if (early_stopping > 0 && ++since_best >= early_stopping) {
      break;
    }
  }
  return out;
}

}  // namespace qnnc::tuning
