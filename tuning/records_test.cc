#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "target/target.h"
#include "tuning/record.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"

namespace qnnc::tuning {
namespace {

Record Make(const std::string& target, const std::string& cpu, const std::string& impl,
            double seconds, const std::string& workload = "W") {
  Record r;
  r.target = target;
  r.cpu = cpu;
  r.workload = workload;
  r.implementation = impl;
  r.config = {{"tile_co", 16}, {"tile_ow", 4}};
  r.config_index = 3;
  r.result.median_s = seconds;
  r.result.repeats_s = {seconds, seconds * 1.1};
  r.result.wall_s = 0.5;
  r.timestamp = "2026-12-01T09:00:00Z";
  return r;
}

// An implementation that applies everywhere, with an empty config.
target::Implementation Everywhere(const std::string& name, int priority) {
  target::Implementation i;
  i.name = name;
  i.priority = priority;
  i.applicable = [](const target::Workload&, const target::Target&) { return absl::OkStatus(); };
  i.default_config = [](const target::Workload&, const target::Target&) { return target::Config{}; };
  return i;
}

TEST(Records, RoundTripEveryField) {
  Record r = Make("x86_64+avx2+sse4.2", "AMD EPYC", "xnnpack.qs8", 1.5e-4);
  r.result.message = "";
  auto back = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(RecordToJson(*back), RecordToJson(r));
  EXPECT_EQ(back->config, r.config);
  EXPECT_EQ(back->result.repeats_s, r.result.repeats_s);
  Record failed = r;
  failed.result = {};
  failed.result.error = MeasureError::kCrash;
  failed.result.message = "signal 11";
  auto f = RecordFromJson(RecordToJson(failed));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->result.error, MeasureError::kCrash);
  EXPECT_FALSE(f->valid());
  for (MeasureError e : {MeasureError::kInvalidConfig, MeasureError::kCompileError,
                         MeasureError::kRuntimeError, MeasureError::kWrongAnswer,
                         MeasureError::kTimeout}) {
    EXPECT_EQ(*ParseMeasureError(MeasureErrorName(e)), e);
  }
}

// Records written under an implementation's old name count for it under its
// new one (kernels/spatial_pack/variants.h, kRenamedImplementations).
TEST(Records, ThreadsAndScopeRoundTripAndDefaultForOlderLines) {
  Record r = Make("x86_64+avx2", "AMD EPYC", "xnnpack.qs8", 2e-3);
  r.threads = 2;
  r.scope = RecordScope::kModel;
  r.fallback = true;
  auto back = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->threads, 2);
  EXPECT_EQ(back->scope, RecordScope::kModel);
  EXPECT_TRUE(back->fallback);
  EXPECT_EQ(RecordToJson(*back), RecordToJson(r));
  // A line written before records carried them: one thread, the op alone.
  std::string old = RecordToJson(Make("x86_64", "c", "a", 1e-3));
  for (const std::string field : {"\"threads\":1,", "\"scope\":\"op\",", "\"fallback\":false,"}) {
    ASSERT_NE(old.find(field), std::string::npos) << old;
    old.erase(old.find(field), field.size());
  }
  ASSERT_EQ(old.find("threads"), std::string::npos) << old;
  auto older = RecordFromJson(old);
  ASSERT_TRUE(older.ok()) << older.status();
  EXPECT_EQ(older->threads, 1);
  EXPECT_EQ(older->scope, RecordScope::kOp);
  for (const char* bad : {"\"threads\":0", "\"threads\":\"2\"", "\"threads\":1.5"}) {
    std::string line = RecordToJson(Make("x86_64", "c", "a", 1e-3));
    line.replace(line.find("\"threads\":1"), 11, bad);
    auto refused = RecordFromJson(line);
    ASSERT_FALSE(refused.ok()) << line;
    EXPECT_NE(std::string(refused.status().message()).find("'threads'"), std::string::npos);
  }
  std::string scope = RecordToJson(Make("x86_64", "c", "a", 1e-3));
  scope.replace(scope.find("\"scope\":\"op\""), 12, "\"scope\":\"x\"");
  EXPECT_FALSE(RecordFromJson(scope).ok()) << scope;
}

TEST(Records, RenamedImplementationsLoadUnderTheirNewNames) {
  const char* renamed[][2] = {{"x86.spatial_pack.u8s8.vnni", "x86.spatial_pack.u8s8.avx512vnni"},
                              {"x86.spatial_pack.dynamic.vnni", "x86.spatial_pack.dynamic.avx512vnni"}};
  for (const auto& [old_name, name] : renamed) {
    auto back = RecordFromJson(RecordToJson(Make("x86_64+avx512vnni", "AMD EPYC", old_name, 1e-4)));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->implementation, name);
  }
  auto same = RecordFromJson(RecordToJson(Make("x86_64+avx2", "AMD EPYC", "x86.spatial_pack.u8s8.avx2", 1e-4)));
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->implementation, "x86.spatial_pack.u8s8.avx2");
}

TEST(Records, MalformedLinesAreWarningsWithFileAndLineOrErrorsWhenStrict) {
  const std::string good = RecordToJson(Make("x86_64", "c", "xnnpack.qu8", 1e-3));
  const std::string text = good + "\n{\"format\":1}\n\n" + good + "\n" + good.substr(0, 40);
  auto loaded = ParseRecords(text, "r.jsonl", false);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->records.size(), 2u);
  ASSERT_EQ(loaded->warnings.size(), 2u);
  EXPECT_EQ(loaded->warnings[0].rfind("r.jsonl:2: ", 0), 0u) << loaded->warnings[0];
  EXPECT_NE(loaded->warnings[1].find("r.jsonl:5: truncated last line"), std::string::npos)
      << loaded->warnings[1];
  auto strict = ParseRecords(text, "r.jsonl", true);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(std::string(strict.status().message()).find("r.jsonl:2:"), std::string::npos);
}

TEST(Records, ForeignFilesAndOtherVersionsAreErrors) {
  auto png = ParseRecords(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "x.png", false);
  ASSERT_FALSE(png.ok());
  EXPECT_NE(std::string(png.status().message()).find("not a records file"), std::string::npos);
  auto plan = ParseRecords("# qnnc plan v1 target=generic\ngraph @g() {\n}\n", "p.plan", false);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(std::string(plan.status().message()).find("'p.plan' is not a records file"),
            std::string::npos);
  std::string v2 = RecordToJson(Make("x86_64", "c", "xnnpack.qu8", 1e-3));
  v2.replace(v2.find("\"format\":1"), 10, "\"format\":2");
  auto other = ParseRecords(v2 + "\n", "v2.jsonl", false);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(std::string(other.status().message()).find("v2.jsonl:1: records of format 2"),
            std::string::npos)
      << other.status();
  EXPECT_TRUE(ParseRecords("", "empty", false).ok());
}

TEST(Records, AppendedLinesLoadBack) {
  const std::string path = std::string(getenv("TEST_TMPDIR")) + "/append.jsonl";
  std::remove(path.c_str());
  ASSERT_TRUE(AppendRecord(path, Make("x86_64", "c", "a", 1e-3)).ok());
  ASSERT_TRUE(AppendRecord(path, Make("x86_64", "c", "b", 2e-3)).ok());
  auto loaded = LoadRecords(path, true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->records.size(), 2u);
  EXPECT_EQ(loaded->records[1].implementation, "b");
  EXPECT_FALSE(LoadRecords(path + ".missing", false).ok());
}

TEST(RecordsDispatch, BestPerImplementationThenHostCpuThenSpecificTarget) {
  const target::Target vnni = *target::ParseTarget("x86_64+avx512vnni");
  const target::Target avx2 = *target::ParseTarget("x86_64+avx2");
  std::vector<Record> records = {
      Make(avx2.ToString(), "other cpu", "xnnpack.qs8", 1e-4),
      Make(avx2.ToString(), "this cpu", "xnnpack.qs8", 5e-4),
      Make(avx2.ToString(), "this cpu", "xnnpack.qs8", 3e-4),  // the better of the two
      Make(vnni.ToString(), "this cpu", "x86.spatial_pack.u8s8.avx512vnni", 4e-4),
  };
  Record failed = Make(avx2.ToString(), "this cpu", "broken", 1e-9);
  failed.result.error = MeasureError::kWrongAnswer;
  records.push_back(failed);
  RecordsDispatchContext ctx(records, "this cpu");
  // On the VNNI target: this CPU's records first, the VNNI target (more
  // specific) before the AVX2 one, the failed record never.
  std::vector<target::TunedChoice> all = ctx.LookupAll("W", vnni);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].implementation, "x86.spatial_pack.u8s8.avx512vnni");
  EXPECT_EQ(all[1].implementation, "xnnpack.qs8");
  EXPECT_EQ(all[2].implementation, "xnnpack.qs8");
  // On AVX2 the VNNI record cannot run: the AVX2 ones only, this CPU first.
  all = ctx.LookupAll("W", avx2);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(ctx.Lookup("W", avx2)->implementation, "xnnpack.qs8");
  // Records for another target only: nothing, so the fallback decides.
  EXPECT_FALSE(ctx.Lookup("W", *target::ParseTarget("aarch64+neon")).has_value());
  EXPECT_FALSE(ctx.Lookup("other workload", vnni).has_value());
  EXPECT_EQ(BestRecords(records).size(), 3u);  // the two AVX2 ones of this CPU (same config) are one
}

// A record replaces the fallback only when clearly faster than the
// fallback's own record: per-op records by target::kTunedMargin, in-model
// ones by target::kInModelMargin; both count as tuned.
TEST(RecordsDispatch, ARecordMustBeatTheFallbacksOwnRecordByItsScopesMargin) {
  const target::Implementation a = Everywhere("a", 10), b = Everywhere("b", 5);  // a: the fallback
  target::Workload w;
  w.op = "qnn.dense";
  const target::Target t = *target::ParseTarget("x86_64");
  auto decide = [&](double b_seconds, RecordScope scope = RecordScope::kOp) {
    Record ra = Make(t.ToString(), "cpu", "a", 1e-3, w.Key());
    Record rb = Make(t.ToString(), "cpu", "b", b_seconds, w.Key());
    ra.config = rb.config = {};
    ra.scope = rb.scope = scope;
    ra.fallback = true;
    RecordsDispatchContext ctx({ra, rb}, "cpu");
    return *ctx.Decide(w, t, {&a, &b});
  };
  target::Decision close = decide(0.97e-3);
  EXPECT_EQ(close.implementation, "a");
  EXPECT_TRUE(close.tuned);
  target::Decision clear = decide(0.90e-3);
  EXPECT_EQ(clear.implementation, "b");
  EXPECT_TRUE(clear.tuned);
  EXPECT_EQ(decide(2e-3).implementation, "a");
  EXPECT_EQ(decide(0.995e-3, RecordScope::kModel).implementation, "a");  // within kInModelMargin
  EXPECT_EQ(decide(0.98e-3, RecordScope::kModel).implementation, "b");   // per-op would need 5%
  EXPECT_EQ(decide(1.2e-3, RecordScope::kModel).implementation, "a");
}

// Records of the run's thread count decide, else those of the nearest
// count; in-model records, where a workload has them, before per-op ones.
TEST(RecordsDispatch, TheRunsThreadCountThenWholeModelRecordsDecide) {
  const target::Target t = *target::ParseTarget("x86_64+avx2");
  auto at = [&](const std::string& impl, double seconds, int threads,
                RecordScope scope = RecordScope::kOp) {
    Record r = Make(t.ToString(), "cpu", impl, seconds);
    r.threads = threads;
    r.scope = scope;
    return r;
  };
  const std::vector<Record> records = {at("one", 2e-4, 1), at("two", 1e-4, 2), at("four", 0.5e-4, 4)};
  EXPECT_EQ(RecordsDispatchContext(records, "cpu", 1).Lookup("W", t)->implementation, "one");
  EXPECT_EQ(RecordsDispatchContext(records, "cpu", 2).Lookup("W", t)->implementation, "two");
  EXPECT_EQ(RecordsDispatchContext(records, "cpu", 3).Lookup("W", t)->implementation, "two");
  EXPECT_EQ(RecordsDispatchContext(records, "cpu", 8).Lookup("W", t)->implementation, "four");
  EXPECT_EQ(RecordsDispatchContext(records, "cpu", 2).LookupAll("W", t).size(), 1u);
  // The per-op winner lost in the model: only the in-model records count.
  const std::vector<Record> confirmed = {at("fast_alone", 1e-4, 1), at("fallback", 2e-4, 1),
                                         at("fast_alone", 3.1e-3, 1, RecordScope::kModel),
                                         at("fallback", 3.0e-3, 1, RecordScope::kModel)};
  std::vector<target::TunedChoice> all = RecordsDispatchContext(confirmed, "cpu", 1).LookupAll("W", t);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].implementation, "fallback");
  EXPECT_TRUE(all[0].in_model);
  // At another thread count the per-op records of that count decide.
  EXPECT_EQ(RecordsDispatchContext(confirmed, "cpu", 2).LookupAll("W", t).size(), 2u);
}

// Ops of one workload key can have different fallbacks (fallback_ok sees
// the weights): records decide only an op whose fallback is the one they
// were measured against; another keeps its own, and says why.
TEST(RecordsDispatch, WholeModelRecordsDecideOnlyOpsWithTheFallbackTheyBeat) {
  const target::Implementation a = Everywhere("a", 10), b = Everywhere("b", 5), c = Everywhere("c", 1);
  target::Workload w;
  w.op = "qnn.dense";
  const target::Target t = *target::ParseTarget("x86_64");
  Record rb = Make(t.ToString(), "cpu", "b", 1e-3, w.Key());  // measured against b
  Record rc = Make(t.ToString(), "cpu", "c", 0.9e-3, w.Key());
  rb.config = rc.config = {};
  rb.scope = rc.scope = RecordScope::kModel;
  rb.fallback = true;
  const RecordsDispatchContext ctx({rb, rc}, "cpu");
  // An op whose fallback is b (a does not apply to it): c, as measured.
  target::Implementation a_not_here = a;
  a_not_here.applicable = [](const target::Workload&, const target::Target&) {
    return absl::FailedPreconditionError("not here");
  };
  EXPECT_EQ(ctx.Decide(w, t, {&a_not_here, &b, &c})->implementation, "c");
  // An op whose fallback is a: never measured against c, so a.
  target::Decision other = *ctx.Decide(w, t, {&a, &b, &c});
  EXPECT_EQ(other.implementation, "a");
  EXPECT_FALSE(other.tuned);
  EXPECT_NE(other.rejected_records.find("another fallback (b {})"), std::string::npos)
      << other.rejected_records;
  // Per-op records of a tune mark their fallback the same way.
  rb.scope = rc.scope = RecordScope::kOp;
  rc.result.median_s = 0.5e-3;
  const RecordsDispatchContext per_op({rb, rc}, "cpu");
  EXPECT_EQ(per_op.Decide(w, t, {&a_not_here, &b, &c})->implementation, "c");
  EXPECT_EQ(per_op.Decide(w, t, {&a, &b, &c})->implementation, "a");
  // Unmarked records (older files) decide every op of the key.
  rb.fallback = false;
  EXPECT_EQ(RecordsDispatchContext({rb, rc}, "cpu").Decide(w, t, {&a, &b, &c})->implementation, "c");
}

}  // namespace
}  // namespace qnnc::tuning
