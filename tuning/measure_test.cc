#include "tuning/measure.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <set>

#include "frontend/onnx/import.h"
#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"
#include "target/dispatch_context.h"
#include "target/registry.h"
#include "tuning/conversion_cost.h"

namespace qnnc::tuning {
namespace {

const TunableOps& MobileNetOps() {
  static const TunableOps* ops = [] {
    auto graph = frontend::onnx::ImportOnnxFile("testdata/models/mobilenet_v2_qdq.onnx");
    EXPECT_TRUE(graph.ok()) << graph.status();
    auto ops = ExtractTunableOps(**graph);
    EXPECT_TRUE(ops.ok()) << ops.status();
    return new TunableOps(*std::move(ops));
  }();
  return *ops;
}

TEST(Measure, ExtractsOneTunableOpPerWorkloadKey) {
  const TunableOps& ops = MobileNetOps();
  int total = 0;
  std::set<std::string> keys;
  for (const TunableOp& op : ops.ops) {
    total += op.count;
    EXPECT_TRUE(keys.insert(op.key).second) << op.key;
    EXPECT_EQ(op.graph->inputs().size(), 1u);
    EXPECT_EQ(op.graph->nodes().back()->op(), "qnn.requantize") << op.node;
  }
  EXPECT_TRUE(ops.skipped.empty());
  EXPECT_EQ(total, 53);  // 52 convolutions and the classifier's dense
  EXPECT_LT(ops.ops.size(), 53u);
}

TEST(Measure, EveryApplicableCandidateIsExactAndTimed) {
  const TunableOp& op = MobileNetOps().ops[1];
  const target::Target host = target::DetectHost();
  std::vector<Candidate> candidates = Candidates(op.workload, host, target::GlobalRegistry());
  ASSERT_GT(candidates.size(), 1u);
  MeasureOptions o;
  o.repeats = 3;
  o.warmup = 1;
  std::set<std::string> implementations;
  for (const Candidate& c : candidates) {
    if (!implementations.insert(c.implementation).second) continue;  // one config each
    o.isolate = implementations.size() % 2 == 0;  // both ways
    MeasureResult r = Measure(op, host, c, o);
    EXPECT_EQ(r.error, MeasureError::kNone) << c.implementation << ": " << r.message;
    EXPECT_GT(r.median_s, 0);
    EXPECT_EQ(r.repeats_s.size(), 3u);
    std::cout << op.node << " " << c.implementation << ": " << r.median_s * 1e3 << " ms\n";
  }
  EXPECT_GE(implementations.size(), 2u);
}

// u8s8.avx2 runs any known weights exactly, but the fallback leaves it where
// more than 2% of its steps need a correction; the tuner still measures it
// there (on Intel it can win: vpmaddwd + vpaddd share three ports).
TEST(Measure, TheTunerMeasuresWhatTheFallbackPassesOver) {
  const target::Target avx2 = *target::ParseTarget("x86_64+avx2");
  const TunableOp* corrected = nullptr;
  for (const TunableOp& op : MobileNetOps().ops) {
    if (op.workload.op == "qnn.conv2d" && !op.workload.depthwise() &&
        op.workload.weight_pairs() != nullptr && op.workload.weight_pairs()->corrected > 0.02) {
      corrected = &op;
      break;
    }
  }
  ASSERT_NE(corrected, nullptr) << "no MobileNetV2 layer needs more than 2% corrected";
  std::set<std::string> names;
  for (const Candidate& c : Candidates(corrected->workload, avx2, target::GlobalRegistry())) {
    names.insert(c.implementation);
  }
  EXPECT_EQ(names.count("x86.spatial_pack.u8s8.avx2"), 1u) << corrected->node;
  EXPECT_EQ(names.count("x86.spatial_pack.u8i16.avx2"), 1u) << corrected->node;
  target::FallbackDispatchContext fallback;
  absl::StatusOr<target::Decision> d = fallback.Decide(
      corrected->workload, avx2,
      target::GlobalRegistry().Implementations(corrected->workload.op, avx2));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->implementation, "x86.spatial_pack.u8i16.avx2");
  EXPECT_NE(d->passed_over.find("x86.spatial_pack.u8s8.avx2: not the fallback"), std::string::npos)
      << d->passed_over;
  if (!kernels::cpu::Includes(kernels::cpu::HostIsaLevel(), kernels::cpu::IsaLevel::kAvx2)) {
    GTEST_SKIP() << "measuring u8s8.avx2 needs AVX2; this host (or the cap) has less";
  }
  const target::Target host = target::DetectHost();
  MeasureOptions o;
  o.repeats = 2;
  o.warmup = 1;
  for (const Candidate& c : Candidates(corrected->workload, host, target::GlobalRegistry())) {
    if (c.implementation != "x86.spatial_pack.u8s8.avx2") continue;
    MeasureResult r = Measure(*corrected, host, c, o);  // exact against the reference
    EXPECT_EQ(r.error, MeasureError::kNone) << c.implementation << ": " << r.message;
    return;
  }
  ADD_FAILURE() << "u8s8.avx2 is no candidate on this host";
}

// Dynamically quantized convolutions (a run-time data zero point) are tuned
// too: the zero point becomes an input of the op's graph, so its
// workload stays the model's, and each dynamic implementation is measured
// exact against the reference on random zero points.
TEST(Measure, RunTimeZeroPointsAreTunable) {
  auto graph = frontend::onnx::ImportOnnxFile("testdata/models/mobilenet_v2_dynamic.onnx");
  ASSERT_TRUE(graph.ok()) << graph.status();
  auto ops = ExtractTunableOps(**graph);
  ASSERT_TRUE(ops.ok()) << ops.status();
  int convs = 0;
  for (const TunableOp& op : ops->ops) {
    if (op.workload.op != "qnn.conv2d") continue;
    ++convs;
    EXPECT_FALSE(op.workload.constant_zero_points) << op.node;
    // The data and its zero point (ConvInteger's scales are not its inputs).
    ASSERT_EQ(op.graph->inputs().size(), 2u) << op.node;
    EXPECT_EQ(op.graph->inputs()[1]->type()->dtype, tensor::DType::kU8) << op.node;
  }
  EXPECT_GT(convs, 10);
  const target::Target host = target::DetectHost();
  if (!kernels::cpu::Includes(kernels::cpu::HostIsaLevel(), kernels::cpu::IsaLevel::kAvx2)) {
    GTEST_SKIP() << "the dynamic implementations need AVX2; this host (or the cap) has less";
  }
  const TunableOp& op = ops->ops[2];
  MeasureOptions o;
  o.repeats = 2;
  o.warmup = 1;
  int measured = 0;
  for (const Candidate& c : Candidates(op.workload, host, target::GlobalRegistry())) {
    if (c.implementation.find("dynamic") == std::string::npos) continue;
    MeasureResult r = Measure(op, host, c, o);
    EXPECT_EQ(r.error, MeasureError::kNone) << c.implementation << ": " << r.message;
    ++measured;
  }
  EXPECT_GT(measured, 0);
}

// A candidate in other layouts than its neighbours pays the conversions:
// NCHW16c -> NCHW -> NHWC costs time, equal layouts cost none, and a
// candidate measured among NCHW16c neighbours still runs exact.
TEST(Measure, CandidatesInOtherLayoutsPayTheConversions) {
  const ir::TensorType t{tensor::DType::kU8, {1, 24, 28, 28}};
  auto none = ConversionSeconds(t, ir::Layout::ChannelBlocked(16), ir::Layout::ChannelBlocked(16), 1, 0, 1);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(*none, 0);
  auto two = ConversionSeconds(t, ir::Layout::ChannelBlocked(16), ir::Layout::Nhwc(), 1, 1, 3);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_GT(*two, 0);
  auto one = ConversionSeconds(t, ir::Layout::Nchw(), ir::Layout::Nhwc(), 2, 1, 3);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_GT(*one, 0);
  auto bad = ConversionSeconds({tensor::DType::kU8, {24, 28}}, ir::Layout::Nchw(), ir::Layout::Nhwc(), 1, 0, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("rank-4"), std::string::npos) << bad.status();

  const TunableOp& op = MobileNetOps().ops[1];
  const target::Target host = target::DetectHost();
  MeasureOptions o;
  o.repeats = 3;
  o.warmup = 1;
  o.isolate = false;
  o.model_layouts = target::Implementation::IoLayouts{ir::Layout::ChannelBlocked(16), ir::Layout::ChannelBlocked(16)};
  int measured = 0;
  for (const Candidate& c : Candidates(op.workload, host, target::GlobalRegistry())) {
    if (c.implementation.rfind("xnnpack.", 0) != 0) continue;
    MeasureResult r = Measure(op, host, c, o);
    EXPECT_EQ(r.error, MeasureError::kNone) << c.implementation << ": " << r.message;
    ++measured;
  }
  if (measured == 0 && host.arch == target::Arch::kAArch64) {
    GTEST_SKIP() << "no XNNPACK implementation takes MobileNetV2's u8 weights on AArch64 (its qu8 "
                    "rounds ties upward)";
  }
  EXPECT_GT(measured, 0) << "no XNNPACK candidate for " << op.node;
}

TEST(Measure, BadCandidatesAreRecordedNotFatal) {
  const TunableOp& op = MobileNetOps().ops[0];
  const target::Target host = target::DetectHost();
  Candidate c = Candidates(op.workload, host, target::GlobalRegistry())[0];
  MeasureOptions o;
  o.repeats = 1;
  o.warmup = 0;

  Candidate bad = c;
  bad.config["tile_co"] = 12345;
  EXPECT_EQ(Measure(op, host, bad, o).error, MeasureError::kInvalidConfig);
  Candidate unknown = c;
  unknown.implementation = "no.such.impl";
  EXPECT_EQ(Measure(op, host, unknown, o).error, MeasureError::kInvalidConfig);

  o.before_run = [] { std::abort(); };
  MeasureResult crash = Measure(op, host, c, o);
  EXPECT_EQ(crash.error, MeasureError::kCrash);
  EXPECT_NE(crash.message.find("signal"), std::string::npos) << crash.message;
  EXPECT_EQ(crash.median_s, 0);

  o.before_run = [] { sleep(30); };
  o.timeout_s = 0.5;
  MeasureResult hang = Measure(op, host, c, o);
  EXPECT_EQ(hang.error, MeasureError::kTimeout);
  EXPECT_LT(hang.wall_s, 5);

  o.before_run = [] { std::_Exit(3); };
  o.timeout_s = 60;
  EXPECT_EQ(Measure(op, host, c, o).error, MeasureError::kCrash);
}

}  // namespace
}  // namespace qnnc::tuning
