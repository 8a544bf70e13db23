// Decide's account of itself: the better-ranked candidates that do not apply
// to an op are named with why (Decision::passed_over), whether the fallback
// or a tuning record decided.
#include "target/dispatch_context.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::target {
namespace {

Implementation Candidate(const std::string& name, int priority, const std::string& refusal) {
  Implementation impl;
  impl.name = name;
  impl.priority = priority;
  impl.applicable = [refusal](const Workload&, const Target&) {
    return refusal.empty() ? absl::OkStatus() : absl::FailedPreconditionError(refusal);
  };
  impl.default_config = [](const Workload&, const Target&) { return Config{}; };
  return impl;
}

Workload Dense() {
  Workload w;
  w.op = "qnn.dense";
  return w;
}

TEST(DispatchContext, NamesTheBetterRankedCandidatesThatDoNotApplyAndWhy) {
  const Implementation fast = Candidate("fast", 50, "needs small weights");
  const Implementation faster = Candidate("faster", 60, "needs an instruction set");
  const Implementation plain = Candidate("plain", 10, "");
  const Implementation slow = Candidate("slow", 5, "needs a run-time zero point");
  const Target t = *ParseTarget("x86_64");
  FallbackDispatchContext fallback;
  absl::StatusOr<Decision> d = fallback.Decide(Dense(), t, {&fast, &plain, &faster, &slow});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "plain");
  // Registry order; the lower-ranked "slow" would not have won anyway.
  EXPECT_EQ(d->passed_over, "fast: needs small weights | faster: needs an instruction set");
}

Implementation Estimated(const std::string& name, int priority, std::optional<double> cycles) {
  Implementation impl = Candidate(name, priority, "");
  impl.static_cycles = [cycles](const Workload&, const Target&, const Config&) { return cycles; };
  return impl;
}

// The fallback's choice on an aarch64 target, with what it passed over
// ("name | passed over"), or the error.
std::string Fallback(const Workload& w, const std::vector<const Implementation*>& candidates) {
  absl::StatusOr<Decision> d = FallbackDispatchContext().Decide(w, *ParseTarget("aarch64"), candidates);
  if (!d.ok()) return std::string(d.status().message());
  return d->passed_over.empty() ? d->implementation : d->implementation + " | " + d->passed_over;
}

TEST(DispatchContext, AStaticCostModelOrdersWhatItEstimatesInTheirPlaces) {
  // By priority: a, b, c, d. The model estimates a, c and d: they take
  // the places 1, 3 and 4 in the order of their cycles: d, b, a, c (b,
  // which it cannot see, keeps place 2).
  const Implementation a = Estimated("a", 50, 30.0);
  const Implementation b = Estimated("b", 40, std::nullopt);
  const Implementation c = Estimated("c", 30, 90.0);
  const Implementation d = Estimated("d", 20, 10.0);
  EXPECT_EQ(Fallback(Dense(), {&a, &b, &c, &d}), "d");
  // d refused by its fallback_ok: b, in its own place.
  Implementation d_refused = d;
  d_refused.fallback_ok = [](const Workload&, const Target&) {
    return absl::FailedPreconditionError("measured slower");
  };
  EXPECT_EQ(Fallback(Dense(), {&a, &b, &c, &d_refused}), "b | d: measured slower");
  // Equal estimates keep priority's order.
  const Implementation e = Estimated("e", 10, 30.0);
  EXPECT_EQ(Fallback(Dense(), {&e, &a}), "a");
}

TEST(DispatchContext, EstimatesCompareOnlyKernelsOfOneLegalizationAndLayout) {
  // f is estimated cheaper than a, but needs another legalization: what
  // that costs around the op is not in a loop's cycles, so priority decides.
  const Implementation a = Estimated("a", 50, 30.0);
  Implementation f = Estimated("f", 40, 10.0);
  f.legalization = Legalization::kInt16;
  EXPECT_EQ(Fallback(Dense(), {&a, &f}), "a");
  // Another layout alike (a convolution's: a dense reads and writes NC).
  Workload conv = Dense();
  conv.op = "qnn.conv2d";
  Implementation g = Estimated("g", 40, 10.0);
  g.layout = ir::Layout::ChannelBlocked(16);
  EXPECT_EQ(Fallback(conv, {&a, &g}), "a");
  // The same legalization and layout: the estimate decides.
  const Implementation h = Estimated("h", 40, 10.0);
  EXPECT_EQ(Fallback(conv, {&a, &h}), "h");
}

TEST(DispatchContext, TheBestRankedCandidateDecidingPassesNothingOver) {
  const Implementation best = Candidate("best", 50, "");
  const Implementation other = Candidate("other", 10, "never applies");
  FallbackDispatchContext fallback;
  absl::StatusOr<Decision> d = fallback.Decide(Dense(), *ParseTarget("x86_64"), {&best, &other});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "best");
  EXPECT_EQ(d->passed_over, "");
}

TEST(DispatchContext, ATunedChoiceIsExplainedAgainstItsOwnRank) {
  const Implementation top = Candidate("top", 60, "needs small weights");
  const Implementation middle = Candidate("middle", 40, "");
  const Implementation between = Candidate("between", 20, "needs a run-time zero point");
  const Implementation low = Candidate("low", 10, "");
  InMemoryDispatchContext records;
  records.Add(Dense().Key(), TunedChoice{"low", Config{}, 0});
  absl::StatusOr<Decision> d =
      records.Decide(Dense(), *ParseTarget("x86_64"), {&top, &middle, &between, &low});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "low");
  EXPECT_TRUE(d->tuned);
  // "middle" applies (the tuner measured it slower); "between" ranks below
  // the fallback but above the tuned choice, so it is named too.
  EXPECT_EQ(d->passed_over, "top: needs small weights | between: needs a run-time zero point");
}

TEST(DispatchContext, ARejectedRecordLeavesTheFallbacksAccount) {
  const Implementation top = Candidate("top", 60, "needs small weights");
  const Implementation middle = Candidate("middle", 40, "");
  const Implementation between = Candidate("between", 20, "needs a run-time zero point");
  InMemoryDispatchContext records;
  records.Add(Dense().Key(), TunedChoice{"between", Config{}, 0});
  absl::StatusOr<Decision> d =
      records.Decide(Dense(), *ParseTarget("x86_64"), {&top, &middle, &between});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "middle");
  EXPECT_FALSE(d->tuned);
  EXPECT_NE(d->rejected_records.find("between"), std::string::npos);
  EXPECT_EQ(d->passed_over, "top: needs small weights");
}

Implementation NotForFallback(const std::string& name, int priority, const std::string& why) {
  Implementation impl = Candidate(name, priority, "");
  impl.fallback_ok = [why](const Workload&, const Target&) {
    return absl::FailedPreconditionError(why);
  };
  return impl;
}

TEST(DispatchContext, TheFallbackPassesOverWhatItMayNotChooseAndSaysWhy) {
  const Implementation top = Candidate("top", 60, "needs small weights");
  const Implementation corrected = NotForFallback("corrected", 50, "slower with 30% corrected");
  const Implementation plain = Candidate("plain", 10, "");
  FallbackDispatchContext fallback;
  absl::StatusOr<Decision> d =
      fallback.Decide(Dense(), *ParseTarget("x86_64"), {&top, &corrected, &plain});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "plain");
  EXPECT_FALSE(d->tuned);
  EXPECT_EQ(d->passed_over, "top: needs small weights | corrected: slower with 30% corrected");
}

TEST(DispatchContext, ARecordMayChooseWhatTheFallbackMayNot) {
  const Implementation corrected = NotForFallback("corrected", 50, "slower with 30% corrected");
  const Implementation plain = Candidate("plain", 10, "");
  InMemoryDispatchContext records;
  records.Add(Dense().Key(), TunedChoice{"corrected", Config{}, 0});
  absl::StatusOr<Decision> d = records.Decide(Dense(), *ParseTarget("x86_64"), {&corrected, &plain});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "corrected");
  EXPECT_TRUE(d->tuned);
  EXPECT_EQ(d->passed_over, "");
}

TEST(DispatchContext, WhenTheFallbackMayChooseNoneItTakesTheBestRankedApplicable) {
  const Implementation a = NotForFallback("a", 50, "slow here");
  const Implementation b = NotForFallback("b", 40, "slower here");
  FallbackDispatchContext fallback;
  absl::StatusOr<Decision> d = fallback.Decide(Dense(), *ParseTarget("x86_64"), {&b, &a});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "a");
  EXPECT_EQ(d->passed_over, "");
}

}  // namespace
}  // namespace qnnc::target
