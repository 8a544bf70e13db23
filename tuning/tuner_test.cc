#include "tuning/tuner.h"

#include <cmath>
#include <iostream>
#include <set>

#include "gtest/gtest.h"

namespace qnnc::tuning {
namespace {

// A synthetic space of 32 x 32 configs whose cost is smooth in both knobs,
// with its optimum at (23, 7).
struct Synthetic {
  std::vector<std::vector<float>> features;
  std::vector<double> cost;
  int optimum = -1;
  Synthetic() {
    for (int a = 0; a < 32; ++a) {
      for (int b = 0; b < 32; ++b) {
        features.push_back({static_cast<float>(a), static_cast<float>(b)});
        cost.push_back(1.0 + (a - 23) * (a - 23) / 50.0 + (b - 7) * (b - 7) / 30.0);
        if (a == 23 && b == 7) optimum = static_cast<int>(cost.size()) - 1;
      }
    }
  }
};

int TrialsToOptimum(const std::string& name, uint32_t seed) {
  Synthetic s;
  auto tuner = MakeTuner(name, s.features, seed);
  EXPECT_TRUE(tuner.ok());
  // xgb retrains after every trial: 300 trials bound the test's time (it
  // needs about 40 here).
  TuneOutcome out = TuneSpace(**tuner, name == "xgb" ? 300 : 1024, 0, [&](int i) { return s.cost[i]; });
  EXPECT_EQ(out.best, s.optimum) << name;
  return out.trials_to_best;
}

TEST(Tuner, GridAndRandomVisitEveryCandidateOnce) {
  for (const char* name : {"grid", "random", "xgb"}) {
    std::vector<std::vector<float>> f(50, std::vector<float>{0});
    for (int i = 0; i < 50; ++i) f[i][0] = static_cast<float>(i);
    auto tuner = MakeTuner(name, f, 7);
    ASSERT_TRUE(tuner.ok());
    std::set<int> seen;
    for (int i; (i = (*tuner)->Next()) >= 0;) {
      EXPECT_TRUE(seen.insert(i).second) << name << " proposed " << i << " twice";
      (*tuner)->Update(i, 1.0 + i);
    }
    EXPECT_EQ(seen.size(), 50u) << name;
  }
  EXPECT_FALSE(MakeTuner("annealing", {}, 1).ok());
}

TEST(Tuner, ModelBasedFindsTheOptimumInFewerTrialsThanRandom) {
  double xgb = 0, random = 0;
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    xgb += TrialsToOptimum("xgb", seed);
    random += TrialsToOptimum("random", seed);
  }
  std::cout << "trials to the optimum of 1024, mean of 5 seeds: xgb " << xgb / 5 << ", random "
            << random / 5 << "\n";
  EXPECT_LT(xgb, random / 2);
}

TEST(Tuner, FailuresNeverWinAndEarlyStoppingStops) {
  auto tuner = MakeTuner("grid", std::vector<std::vector<float>>(10, {0}), 1);
  TuneOutcome out = TuneSpace(**tuner, 100, 3, [](int i) {
    return i == 0 ? INFINITY : (i == 1 ? 1.0 : 2.0);
  });
  EXPECT_EQ(out.best, 1);
  EXPECT_EQ(out.trials, 5);  // 0, 1 (best), then 3 without improvement
}

}  // namespace
}  // namespace qnnc::tuning
