// The test that matters most: for a few hundred random qnn.conv2d (and
// qnn.dense) workloads, for every target and every implementation that
// applies, the legalized and canonicalized graph, run on the reference
// kernels, equals the original op's reference output exactly.
#include <cctype>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ir/builder.h"
#include "ir/decision_view.h"
#include "ir/text_printer.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "target/registry.h"
#include "target/workload.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Builder;
using ir::Value;
using tensor::DType;
using tensor::Tensor;

const char* const kTargets[] = {"generic",           "x86_64",       "x86_64+avx2",
                                "x86_64+avx512vnni", "aarch64+neon", "aarch64+dotprod"};

class Random {
 public:
  explicit Random(uint32_t seed) : rng_(seed) {}
  int64_t Int(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  float Float(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  bool Bool() { return Int(0, 1) == 1; }
  Tensor Fill(DType dtype, tensor::Shape shape) {
    Tensor t = Tensor::Zeros(dtype, std::move(shape));
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      int64_t v = Int(tensor::DTypeMin(dtype), tensor::DTypeMax(dtype));
      if (dtype == DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
      if (dtype == DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(v);
    }
    return t;
  }

 private:
  std::mt19937 rng_;
};

struct Case {
  std::unique_ptr<ir::Graph> graph;
  Tensor input;
  std::string description;
};

Value* QuantParam(Builder& b, Random& r, DType dtype, int64_t channels, bool per_channel,
                  bool zero) {
  std::vector<int64_t> v(per_channel ? channels : 1);
  for (auto& x : v) x = zero ? 0 : r.Int(tensor::DTypeMin(dtype), tensor::DTypeMax(dtype));
  Tensor t = Tensor::Zeros(dtype, per_channel ? tensor::Shape{channels} : tensor::Shape{});
  for (size_t i = 0; i < v.size(); ++i) {
    if (dtype == DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(v[i]);
    if (dtype == DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(v[i]);
  }
  return b.Constant(t);
}

Value* Scales(Builder& b, Random& r, int64_t n, float lo, float hi) {
  std::vector<float> s(n);
  for (auto& x : s) x = r.Float(lo, hi);
  return n == 1 ? b.Scalar<float>(s[0]) : b.Vector<float>(s);
}

// conv (or dense) -> bias_add -> requantize with a random rounding and clamp.
Case RandomCase(uint32_t seed, bool dense) {
  Random r(seed);
  Builder b;
  DType data_dtype = r.Bool() ? DType::kU8 : DType::kI8;
  DType weight_dtype = r.Int(0, 3) == 0 ? DType::kU8 : DType::kI8;
  int64_t n = r.Int(1, 2), out_channels, k;
  tensor::Shape data_shape, weight_shape;
  Attrs attrs;
  std::string description;
  if (dense) {
    k = r.Int(1, 40);
    out_channels = r.Int(1, 20);
    data_shape = {n, k};
    weight_shape = {out_channels, k};
    description = absl::StrCat("dense ", n, "x", k, " -> ", out_channels);
  } else {
    int64_t groups = 1;
    int64_t mode = r.Int(0, 3);
    int64_t cg = r.Int(1, 6), kg = r.Int(1, 6);
    if (mode == 1) groups = r.Int(2, 4);
    if (mode == 2) {  // depthwise, maybe with a channel multiplier
      groups = r.Int(1, 8);
      cg = 1;
      kg = r.Int(1, 2);
    }
    int64_t c = cg * groups;
    out_channels = kg * groups;
    int64_t kh = r.Int(1, 3), kw = r.Int(1, 3), dh = r.Int(1, 2), dw = r.Int(1, 2);
    std::vector<int64_t> pads = {r.Int(0, 2), r.Int(0, 2), r.Int(0, 2), r.Int(0, 2)};
    int64_t h = std::max<int64_t>(r.Int(1, 9), dh * (kh - 1) + 1 - pads[0] - pads[2]);
    int64_t w = std::max<int64_t>(r.Int(1, 9), dw * (kw - 1) + 1 - pads[1] - pads[3]);
    data_shape = {n, c, h, w};
    weight_shape = {out_channels, cg, kh, kw};
    attrs.Set("strides", std::vector<int64_t>{r.Int(1, 3), r.Int(1, 3)});
    attrs.Set("padding", pads);
    attrs.Set("dilation", std::vector<int64_t>{dh, dw});
    attrs.Set("groups", groups);
    description = absl::StrCat("conv ", n, "x", c, "x", h, "x", w, " k", kh, "x", kw, " groups ",
                               groups, " -> ", out_channels);
  }
  bool per_channel = r.Bool();
  bool symmetric = r.Bool();
  Value* x = b.Input("x", {data_dtype, data_shape});
  Value* weight = b.Constant(r.Fill(weight_dtype, weight_shape));
  Value* zx = QuantParam(b, r, data_dtype, 1, false, false);
  Value* zw = QuantParam(b, r, weight_dtype, out_channels, per_channel && !symmetric, symmetric);
  Value* sx = Scales(b, r, 1, 0.01f, 0.1f);
  Value* sw = Scales(b, r, per_channel ? out_channels : 1, 0.001f, 0.05f);
  Value* acc = b.Op(dense ? "qnn.dense" : "qnn.conv2d", {x, weight, zx, zw, sx, sw}, attrs, "op");
  std::vector<int32_t> bias(out_channels);
  for (auto& v : bias) v = static_cast<int32_t>(r.Int(-5000, 5000));
  Attrs bias_attrs;
  bias_attrs.Set("axis", int64_t{1});
  Value* biased = b.Op("nn.bias_add", {acc, b.Vector<int32_t>(bias)}, bias_attrs);
  // Requantize: in_scale = sx * sw (per channel), out scale so values spread.
  std::vector<float> in_scale(per_channel ? out_channels : 1);
  for (size_t i = 0; i < in_scale.size(); ++i) {
    in_scale[i] = sx->data().data<float>()[0] * sw->data().data<float>()[i];
  }
  DType out_dtype = r.Bool() ? DType::kU8 : DType::kI8;
  Attrs rq;
  rq.Set("out_dtype", std::string(tensor::DTypeName(out_dtype)));
  rq.Set("axis", int64_t{1});
  const char* modes[] = {"TONEAREST_EVEN", "TONEAREST_EVEN", "UPWARD", "TONEAREST"};
  rq.Set("rounding", std::string(modes[r.Int(0, 3)]));
  if (r.Bool()) rq.Set("clamp_min", r.Int(tensor::DTypeMin(out_dtype), 0));
  Value* out_zp = QuantParam(b, r, out_dtype, 1, false, false);
  Value* out = b.Op("qnn.requantize",
                    {biased, in_scale.size() == 1 ? b.Scalar<float>(in_scale[0]) : b.Vector<float>(in_scale),
                     b.Scalar<int32_t>(0), Scales(b, r, 1, 0.05f, 0.5f), out_zp},
                    rq);
  b.Output(out);
  auto graph = b.Finish();
  EXPECT_TRUE(graph.ok()) << graph.status();
  absl::StrAppend(&description, " ", tensor::DTypeName(data_dtype), "x",
                  tensor::DTypeName(weight_dtype), per_channel ? " per-channel" : "",
                  symmetric ? " symmetric" : "");
  return {*std::move(graph), r.Fill(data_dtype, data_shape), description};
}

// A random case with its workload and its reference output, made once per
// process and shared by every (target, implementation) pair.
struct Prepared {
  Case c;
  target::Workload workload;
  Tensor expected;
};

const std::vector<Prepared>& Cases(const std::string& op) {
  static const auto* cases = new std::map<std::string, std::vector<Prepared>>([] {
    std::map<std::string, std::vector<Prepared>> m;
    for (const char* name : {"qnn.conv2d", "qnn.dense"}) {
      const bool dense = std::string(name) == "qnn.dense";
      for (uint32_t seed = dense ? 1000 : 0; seed < (dense ? 1100u : 300u); ++seed) {
        Prepared p{RandomCase(seed, dense), {}, {}};
        const ir::Node* node = nullptr;
        for (const ir::Node* n : p.c.graph->nodes()) {
          if (n->op() == name) node = n;
        }
        auto workload = target::ExtractWorkload(*p.c.graph, *node);
        EXPECT_TRUE(workload.ok()) << p.c.description << ": " << workload.status();
        auto exec = runtime::Executor::Create(p.c.graph->Clone());
        EXPECT_TRUE(exec.ok()) << exec.status();
        auto out = (*exec)->Run({p.c.input});
        EXPECT_TRUE(out.ok()) << p.c.description << ": " << out.status();
        if (!workload.ok() || !out.ok()) continue;
        p.workload = *workload;
        p.expected = (*out)[0];
        m[name].push_back(std::move(p));
      }
    }
    return m;
  }());
  return cases->at(op);
}

struct Pair {
  std::string op, target, implementation;
};

void PrintTo(const Pair& p, std::ostream* os) {
  *os << p.op << " on " << p.target << " with " << p.implementation;
}

// Every (op, target, implementation) the registry offers that applies to at
// least one random workload (XNNPACK, say, is registered for `generic` but
// applies only on x86 and Arm targets).
std::vector<Pair> AllPairs() {
  std::vector<Pair> pairs;
  for (const char* op : {"qnn.conv2d", "qnn.dense"}) {
    for (const char* t : kTargets) {
      const target::Target target = *target::ParseTarget(t);
      for (const target::Implementation* impl :
           target::GlobalRegistry().Implementations(op, target)) {
        for (const Prepared& p : Cases(op)) {
          if (impl->applicable(p.workload, target).ok()) {
            pairs.push_back({op, t, impl->name});
            break;
          }
        }
      }
    }
  }
  return pairs;
}

std::string PairName(const ::testing::TestParamInfo<Pair>& info) {
  std::string name = absl::StrCat(info.param.op, "_on_", info.param.target, "_with_",
                                  info.param.implementation);
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

class EveryImplementation : public ::testing::TestWithParam<Pair> {};

// For every random workload the implementation applies to: the graph
// legalized, canonicalized and laid out for it, run on the kernels its
// decision binds, equals the original op's reference output bit for bit.
// A case whose kernel needs an instruction set this host may not use is
// skipped and counted as skipped, naming it.
TEST_P(EveryImplementation, LegalizedGraphEqualsTheReference) {
  const Pair& pair = GetParam();
  const target::Target target = *target::ParseTarget(pair.target);
  const target::Implementation* impl = nullptr;
  for (const target::Implementation* i : target::GlobalRegistry().Implementations(pair.op, target)) {
    if (i->name == pair.implementation) impl = i;
  }
  ASSERT_NE(impl, nullptr);
  int tested = 0, skipped = 0;
  std::string skip_reason;
  for (const Prepared& p : Cases(pair.op)) {
    if (!impl->applicable(p.workload, target).ok()) continue;
    SCOPED_TRACE(p.c.description);
    target::InMemoryDispatchContext records;
    records.Add(p.workload.Key(), {impl->name, impl->default_config(p.workload, target)});
    PassContext context;
    context.target = target;
    context.dispatch = &records;
    auto graph = p.c.graph->Clone();
    std::ostringstream log;
    absl::Status s = PassManager().Run(DefaultPipeline(), *graph, context, log);
    ASSERT_TRUE(s.ok()) << s;
    bool decided = false;
    for (const ir::Node* n : graph->nodes()) {
      auto d = ir::DecisionView::Of(*n);
      if (d && d->implementation == impl->name && d->tuned) decided = true;
    }
    ASSERT_TRUE(decided) << impl->name << " was not chosen";
    std::string text = ir::PrintGraph(*graph, {0});
    runtime::ExecutorOptions options;
    options.allow_unrunnable = true;
    auto exec = runtime::Executor::Create(std::move(graph), options);
    ASSERT_TRUE(exec.ok()) << exec.status();
    if (!(*exec)->unrunnable().empty()) {
      if (skip_reason.empty()) skip_reason = (*exec)->unrunnable();
      ++skipped;
      continue;
    }
    auto got = (*exec)->Run({p.c.input});
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE((*got)[0].BitwiseEquals(p.expected)) << text;
    ++tested;
  }
  std::cout << tested << " workloads checked";
  if (skipped > 0) std::cout << ", " << skipped << " skipped, e.g. " << skip_reason;
  std::cout << "\n";
  if (tested == 0 && skipped > 0) GTEST_SKIP() << skipped << " workloads skipped: " << skip_reason;
  EXPECT_GT(tested, 0) << "no random workload applies";
}

INSTANTIATE_TEST_SUITE_P(AllTargets, EveryImplementation, ::testing::ValuesIn(AllPairs()),
                         PairName);

// The pairs cover every implementation qnnc registers for convolutions
// (each applies to some random workload on some target), and the dense
// workloads reach the u8s8 legalization and the reference.
TEST(LegalizeEquivalence, EveryImplementationHasAPair) {
  std::set<std::string> names, dense;
  for (const Pair& p : AllPairs()) {
    (p.op == "qnn.conv2d" ? names : dense).insert(p.implementation);
  }
  EXPECT_TRUE(dense.count("x86.spatial_pack.u8s8.avx512vnni"));
  EXPECT_TRUE(dense.count("reference"));
  for (const char* name : {"reference", "generic.spatial_pack.int16", "xnnpack.qu8", "xnnpack.qs8",
                           "xnnpack.qc8", "x86.spatial_pack.u8s8.avx512vnni", "x86.spatial_pack.u8s8.avx2",
                           "x86.spatial_pack.u8i16.avx2",
                           "arm.spatial_pack.int16"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
}

}  // namespace
}  // namespace qnnc::passes
