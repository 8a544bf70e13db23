// Decide once: a tuning record changes the legalization and the kernel that
// runs together, because both read the one decision QnnLegalize stored.
#include <sstream>

#include "gtest/gtest.h"
#include "ir/decision_view.h"
#include "kernels/spatial_pack/conv2d.h"
#include "ir/text_parser.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "target/target.h"
#include "target/workload.h"

namespace qnnc::passes {
namespace {

constexpr char kConv[] = R"(
graph @conv(%x: u8[1,3,6,6]) {
  %w = const i8[4,3,3,3] [1, -2, 3, -4, 5, -6, 7, -8, 9, 10, -11, 12, -13, 14, -15, 16, -17, 18, 19, -20, 21, -22, 23, -24, 25, -26, 27, 1, -2, 3, -4, 5, -6, 7, -8, 9, 10, -11, 12, -13, 14, -15, 16, -17, 18, 19, -20, 21, -22, 23, -24, 25, -26, 27, 1, -2, 3, -4, 5, -6, 7, -8, 9, 10, -11, 12, -13, 14, -15, 16, -17, 18, 19, -20, 21, -22, 23, -24, 25, -26, 27, 1, -2, 3, -4, 5, -6, 7, -8, 9, 10, -11, 12, -13, 14, -15, 16, -17, 18, 19, -20, 21, -22, 23, -24, 25, -26, 27]
  %zx = const u8[] 100
  %zw = const i8[] 0
  %sx = const f32[] 0.05
  %sw = const f32[] 0.01
  %acc = qnn.conv2d(%x, %w, %zx, %zw, %sx, %sw) {padding = [1, 1, 1, 1]} name="conv"
  %s = const f32[] 0.0005
  %z0 = const i32[] 0
  %so = const f32[] 0.2
  %zo = const u8[] 5
  %y = qnn.requantize(%acc, %s, %z0, %so, %zo) {out_dtype = "u8"}
  return %y
}
)";

struct Compiled {
  std::string implementation, legalization, op, weight_dtype;
  bool tuned = false;
  std::vector<runtime::OpTiming> timings;
  tensor::Tensor output;
};

Compiled CompileAndRun(const std::string& target_name, const target::DispatchContext* records,
                       const std::string& text = kConv) {
  auto graph = ir::ParseGraph(text);
  EXPECT_TRUE(graph.ok()) << graph.status();
  PassContext context;
  context.target = *target::ParseTarget(target_name);
  context.dispatch = records;
  std::ostringstream log;
  EXPECT_TRUE(PassManager().Run(DefaultPipeline(), **graph, context, log).ok());
  Compiled c;
  for (const ir::Node* n : (*graph)->nodes()) {
    if (auto d = ir::DecisionView::Of(*n)) {
      c.implementation = d->implementation;
      c.legalization = d->legalization;
      c.tuned = d->tuned;
      c.op = n->op();
      c.weight_dtype = tensor::DTypeName(n->input(1)->type()->dtype);
    }
  }
  auto exec = runtime::Executor::Create(*std::move(graph));
  EXPECT_TRUE(exec.ok());
  tensor::Tensor x = tensor::Tensor::Zeros(tensor::DType::kU8, {1, 3, 6, 6});
  for (int64_t i = 0; i < x.num_elements(); ++i) x.data<uint8_t>()[i] = static_cast<uint8_t>(i * 7);
  auto out = (*exec)->Run({x});
  EXPECT_TRUE(out.ok());
  c.output = (*out)[0];
  c.timings = (*exec)->last_timings();
  return c;
}

std::string KernelOf(const Compiled& c) {
  for (const auto& t : c.timings) {
    if (t.node_name == "conv") return t.implementation;
  }
  return "";
}

// Each x86 target with the fallback it gives this convolution; a target
// this host cannot run is skipped, naming what it lacks.
class DecideOnceOnX86 : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(DecideOnceOnX86, RecordsChangeLegalizationAndKernelTogether) {
  const auto& [target_name, fallback_impl] = GetParam();
  if (absl::Status s = target::CheckRunsOnHost(*target::ParseTarget(target_name)); !s.ok()) {
    GTEST_SKIP() << s.message();
  }
  auto CompileAndRun = [&](const target::DispatchContext* records) {
    return passes::CompileAndRun(target_name, records);
  };
  Compiled fallback = CompileAndRun(nullptr);
  EXPECT_EQ(fallback.implementation, fallback_impl);
  EXPECT_EQ(fallback.legalization, "u8s8");
  EXPECT_EQ(fallback.op, "qnn.conv2d_requantize");  // fused for its kernel
  EXPECT_EQ(fallback.weight_dtype, "i8");            // w - zw as s8
  EXPECT_FALSE(fallback.tuned);
  EXPECT_EQ(KernelOf(fallback), fallback_impl);

  // The workload key is taken before legalization, so the record written for
  // the model's op applies whatever the fallback would have done.
  auto graph = ir::ParseGraph(kConv);
  ASSERT_TRUE(graph.ok());
  auto workload = target::ExtractWorkload(**graph, *(*graph)->nodes()[0]);
  ASSERT_TRUE(workload.ok());
  target::InMemoryDispatchContext records;
  records.Add(workload->Key(), {"xnnpack.qu8", {}});
  Compiled tuned = CompileAndRun(&records);
  EXPECT_EQ(tuned.implementation, "xnnpack.qu8");
  EXPECT_EQ(tuned.legalization, "xnnpack_qu8");
  EXPECT_EQ(tuned.op, "qnn.conv2d_requantize");
  EXPECT_EQ(tuned.weight_dtype, "u8");  // qu8: weights shifted to u8 with their zero point
  EXPECT_TRUE(tuned.tuned);
  EXPECT_EQ(KernelOf(tuned), "xnnpack.qu8");
  EXPECT_TRUE(tuned.output.BitwiseEquals(fallback.output));

  // A record naming an implementation that does not apply is ignored: the
  // fallback runs (and is reported as such).
  target::InMemoryDispatchContext bad;
  bad.Add(workload->Key(), {"arm.spatial_pack.int16", {}});
  Compiled ignored = CompileAndRun(&bad);
  EXPECT_EQ(ignored.implementation, fallback_impl);
  EXPECT_FALSE(ignored.tuned);
}

// On AVX2 the fallback takes vpmaddubsw (u8s8.avx2) for a convolution only
// when at most 2% of its half steps need a correction; kConv's weights fit,
// and with the pair (w[0][0][0][0], w[0][1][0][0]) = (100, 100) they do not
// (one half step of 18, 5.6%):
// the fallback is then the int16 kernel, which computes the same bits, and
// fallback_ok says why.
TEST(DecideOnce, Avx2WeightPairsThatCouldSaturateGoToTheInt16Kernel) {
  const target::Target avx2 = *target::ParseTarget("x86_64+avx2");
  if (absl::Status s = target::CheckRunsOnHost(avx2); !s.ok()) GTEST_SKIP() << s.message();
  std::string large = kConv;
  const std::string head = "[1, -2, 3, -4, 5, -6, 7, -8, 9, 10,";
  ASSERT_NE(large.find(head), std::string::npos);
  large.replace(large.find(head), head.size(), "[100, -2, 3, -4, 5, -6, 7, -8, 9, 100,");
  Compiled small = passes::CompileAndRun("x86_64+avx2", nullptr);
  Compiled big = passes::CompileAndRun("x86_64+avx2", nullptr, large);
  EXPECT_EQ(small.implementation, "x86.spatial_pack.u8s8.avx2");
  EXPECT_EQ(big.implementation, "x86.spatial_pack.u8i16.avx2");
  EXPECT_EQ(KernelOf(big), "x86.spatial_pack.u8i16.avx2");
  EXPECT_EQ(big.legalization, "u8s8");

  auto graph = ir::ParseGraph(large);
  ASSERT_TRUE(graph.ok());
  auto workload = target::ExtractWorkload(**graph, *(*graph)->nodes()[0]);
  ASSERT_TRUE(workload.ok());
  ASSERT_NE(workload->weight_pairs(), nullptr);
  EXPECT_EQ(workload->weight_pairs()->max_pair_sum, 200);
  // 2 input channels (at most 4: the natural order, nothing flipped): read
  // in place.
  EXPECT_EQ(workload->weight_pairs()->copied, false);
  const target::Implementation* maddubs =
      target::GlobalRegistry().FindImplementation("qnn.conv2d", "x86.spatial_pack.u8s8.avx2");
  ASSERT_NE(maddubs, nullptr);
  // It applies (exact with corrections; the tuner measures it), but the
  // fallback may not choose it, and says why.
  EXPECT_TRUE(maddubs->applicable(*workload, avx2).ok());
  ASSERT_TRUE(maddubs->fallback_ok);
  absl::Status why = maddubs->fallback_ok(*workload, avx2);
  EXPECT_NE(why.message().find("got 200 in the natural order and 5.55556% of its half steps to correct"),
            std::string::npos)
      << why;
}

// Deep reductions amortize the corrections: where a kernel larger than 1x1
// sums at least 1152 products per output (128 channels x 3 x 3), the
// fallback takes u8s8.avx2 up to 18% of corrected half steps, from 576
// products (64 x 3 x 3) up to 12% (ResNet-18's 3x3 layers: 0.3-11% with one
// channel order per 16 output channels), and says why it does not past
// that, below that depth or on a 1x1. The workload is kConv's, with its
// weight's shape and corrected share set as such a layer's would be.
TEST(DecideOnce, Avx2DeepLayersTakeVpmaddubswWithMoreCorrections) {
  const target::Target avx2 = *target::ParseTarget("x86_64+avx2");
  auto graph = ir::ParseGraph(kConv);
  ASSERT_TRUE(graph.ok());
  auto base = target::ExtractWorkload(**graph, *(*graph)->nodes()[0]);
  ASSERT_TRUE(base.ok());
  const target::Implementation* maddubs =
      target::GlobalRegistry().FindImplementation("qnn.conv2d", "x86.spatial_pack.u8s8.avx2");
  ASSERT_NE(maddubs, nullptr);
  ASSERT_TRUE(maddubs->fallback_ok);
  auto ok = [&](int64_t cg, int64_t k, double corrected) {
    target::Workload w = *base;
    w.weight.shape = {512, cg, k, k};
    w.set_weight_pairs({200, corrected, true});
    return maddubs->fallback_ok(w, avx2);
  };
  EXPECT_TRUE(ok(512, 3, 0.17).ok());
  EXPECT_TRUE(ok(256, 3, 0.18).ok());
  EXPECT_TRUE(ok(128, 3, 0.15).ok());
  EXPECT_TRUE(ok(64, 3, 0.12).ok());
  EXPECT_TRUE(ok(32, 3, 0.02).ok());
  absl::Status too_many = ok(512, 3, 0.22);
  EXPECT_FALSE(too_many.ok());
  EXPECT_NE(too_many.message().find("12% where a kernel larger than 1x1 sums at least 576 products per output, "
                                    "18% from 1152; here 3x3 summing 4608"),
            std::string::npos)
      << too_many;
  absl::Status mid = ok(64, 3, 0.13);
  EXPECT_FALSE(mid.ok());
  EXPECT_NE(mid.message().find("here 3x3 summing 576"), std::string::npos) << mid;
  absl::Status shallow = ok(32, 3, 0.05);  // 288 products
  EXPECT_FALSE(shallow.ok());
  EXPECT_NE(shallow.message().find("here 3x3 summing 288"), std::string::npos) << shallow;
  absl::Status pointwise = ok(2048, 1, 0.05);  // a 1x1 with 2048 channels
  EXPECT_FALSE(pointwise.ok());
  EXPECT_NE(pointwise.message().find("here 1x1 summing 2048"), std::string::npos) << pointwise;
  // Below 64 products per output (for 64 output channels or more), weights
  // read through a reordered copy stay on u8i16.avx2 even uncorrected;
  // weights read in place, or 16 output channels, do not.
  EXPECT_TRUE(ok(64, 1, 0.0).ok());
  absl::Status shallow_copy = ok(32, 1, 0.0);
  EXPECT_FALSE(shallow_copy.ok());
  EXPECT_NE(shallow_copy.message().find("fewer than 64 products (here 32)"), std::string::npos) << shallow_copy;
  target::Workload fits = *base;
  fits.weight.shape = {512, 16, 1, 1};
  fits.set_weight_pairs({0, 0.0, false});
  EXPECT_TRUE(maddubs->fallback_ok(fits, avx2).ok());
  target::Workload narrow = *base;
  narrow.weight.shape = {16, 32, 1, 1};
  narrow.set_weight_pairs({200, 0.0, true});
  EXPECT_TRUE(maddubs->fallback_ok(narrow, avx2).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Targets, DecideOnceOnX86,
    ::testing::Values(std::make_pair("x86_64+avx512vnni", "x86.spatial_pack.u8s8.avx512vnni"),
                      std::make_pair("x86_64+avx2", "x86.spatial_pack.u8s8.avx2")),
    [](const auto& info) {
      return std::string(info.param.first == "x86_64+avx2" ? "avx2" : "avx512vnni");
    });

TEST(DecideOnce, NothingAppliesListsEveryRejection) {
  // NHWC data: no implementation of this build consumes it before layout
  // alteration, so the error lists each one and why.
  auto graph = ir::ParseGraph(R"(
graph @g(%x: u8[1,4,4,2]) {
  %w = const i8[2,2,1,1] [1, 2, 3, 4]
  %zx = const u8[] 1
  %zw = const i8[] 0
  %s = const f32[] 0.5
  %acc = qnn.conv2d(%x, %w, %zx, %zw, %s, %s) {data_layout = "NHWC"} name="nhwc_conv"
  return %acc
}
)");
  ASSERT_TRUE(graph.ok()) << graph.status();
  PassContext context;
  context.target = *target::ParseTarget("x86_64+avx512vnni");
  std::ostringstream log;
  absl::Status s = PassManager().Run({"QnnLegalize"}, **graph, context, log);
  ASSERT_FALSE(s.ok());
  std::string m(s.message());
  EXPECT_NE(m.find("nhwc_conv"), std::string::npos) << m;
  EXPECT_NE(m.find("qnn.conv2d"), std::string::npos) << m;
  for (const char* impl : {"reference", "generic.spatial_pack.int16", "xnnpack.qu8",
                           "x86.spatial_pack.u8s8.avx512vnni"}) {
    EXPECT_NE(m.find(std::string(impl) + ": needs"), std::string::npos) << impl << " in " << m;
  }
}

TEST(DecideOnce, RequireTunedMakesFallbackAnError) {
  auto graph = ir::ParseGraph(kConv);
  ASSERT_TRUE(graph.ok());
  PassContext context;
  context.target = *target::ParseTarget("x86_64+avx512vnni");
  context.require_tuned = true;
  std::ostringstream log;
  absl::Status s = PassManager().Run(DefaultPipeline(), **graph, context, log);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no tuning record"), std::string::npos) << s;
  EXPECT_EQ(context.untuned_workloads.size(), 1u);
}

TEST(DecideOnce, RunTimeZeroPointsRuleOutConstantOnlyLegalizations) {
  // Dynamic quantization: the data zero point is computed at run time.
  constexpr char kDynamic[] = R"(
graph @g(%f: f32[1,2,3,3]) {
  %q, %qs, %qz = qnn.dynamic_quantize(%f)
  %w = const i8[2,2,1,1] [3, -1, 2, 5]
  %zw = const i8[] 0
  %sw = const f32[] 0.5
  %acc = qnn.conv2d(%q, %w, %qz, %zw, %qs, %sw) name="conv"
  return %acc
}
)";
  tensor::Tensor f = tensor::Tensor::Zeros(tensor::DType::kF32, {1, 2, 3, 3});
  for (int64_t i = 0; i < f.num_elements(); ++i) f.data<float>()[i] = 0.37f * (i - 7);
  auto reference = ir::ParseGraph(kDynamic);
  ASSERT_TRUE(reference.ok()) << reference.status();
  auto expected = (*runtime::Executor::Create(*std::move(reference)))->Run({f});
  ASSERT_TRUE(expected.ok());

  // VNNI's u8s8 (compensation folded at compile time) and XNNPACK (zero
  // points fixed at operator creation) do not apply, nor the int16 kernel of
  // static quantization, which runs only fused with a requantize (there is
  // none). On x86-64 with VNNI the dynamic spatial pack decides (the zero
  // point's compensation per run); on a plain x86-64 the portable int16
  // dynamic kernel (the zero point subtracted while packing). Both give the
  // reference's bits.
  for (const char* t : {"x86_64+avx512vnni", "x86_64"}) {
    SCOPED_TRACE(t);
    auto graph = ir::ParseGraph(kDynamic);
    PassContext context;
    context.target = *target::ParseTarget(t);
    std::ostringstream log;
    ASSERT_TRUE(PassManager().Run(DefaultPipeline(), **graph, context, log).ok());
    std::string impl;
    for (const ir::Node* n : (*graph)->nodes()) {
      if (auto d = ir::DecisionView::Of(*n)) impl = d->implementation;
    }
    const bool vnni = std::string(t) == "x86_64+avx512vnni";
    EXPECT_EQ(impl, vnni ? "x86.spatial_pack.dynamic.avx512vnni" : "generic.spatial_pack.dynamic.int16");
    if (vnni && !kernels::spatial_pack::IsaSupported(kernels::spatial_pack::Isa::kAvx512vnni)) {
      GTEST_LOG_(INFO) << "this host may not run AVX-512 VNNI: the dynamic kernel is not run";
      continue;
    }
    auto got = (*runtime::Executor::Create(*std::move(graph)))->Run({f});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_TRUE((*got)[0].BitwiseEquals((*expected)[0]));
  }
}

}  // namespace
}  // namespace qnnc::passes
