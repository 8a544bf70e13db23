// Many threads run one compiled model at once: 8 threads x 200 runs (20
// under a sanitizer; fewer with --runs=N, as under qemu) on MobileNetV2 and
// on a model with three inputs, each thread cycling through different
// inputs, and every output must equal, bit for bit, the serial run's on the
// same input. Sessions with threads = 1 (each call on its calling thread)
// and a session whose calls share a two-thread pool. The ThreadSanitizer
// build (--config=tsan) runs it.
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "gtest/gtest.h"
#include "qnnc/session.h"

namespace qnnc {
namespace {

// Under a sanitizer a run takes 15-40 times as long: fewer runs per thread.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
int g_runs = 20;
#else
int g_runs = 200;
#endif
constexpr int kThreads = 8;
constexpr int kVariants = 4;

// Input variant `v` of every model input: deterministic, different per v.
NamedTensors InputsOf(const Session& session, int v) {
  NamedTensors inputs;
  for (const TensorInfo& in : session.inputs()) {
    tensor::Tensor t = tensor::Tensor::Zeros(in.dtype, in.shape);
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      const int64_t x = (i * (7 + 2 * v) + 13 * v) % 251;
      if (in.dtype == tensor::DType::kF32) t.data<float>()[i] = static_cast<float>(x) / 100.0f - 1.2f;
      if (in.dtype == tensor::DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(x);
      if (in.dtype == tensor::DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(x - 125);
    }
    inputs.push_back({in.name, t});
  }
  return inputs;
}

void RunConcurrently(const std::string& model, const SessionOptions& options) {
  auto compiled = Session::Compile(model, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const Session& session = **compiled;
  std::vector<NamedTensors> inputs;
  std::vector<std::vector<tensor::Tensor>> serial;
  for (int v = 0; v < kVariants; ++v) {
    inputs.push_back(InputsOf(session, v));
    auto out = session.Run(inputs.back());
    ASSERT_TRUE(out.ok()) << out.status();
    serial.push_back(*out);
  }
  ASSERT_FALSE(serial[0][0].BitwiseEquals(serial[1][0])) << "the input variants should differ";
  std::vector<int> mismatches(kThreads, 0), failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < g_runs; ++r) {
        const int v = (t + r) % kVariants;
        auto out = session.Run(inputs[v]);
        if (!out.ok()) {
          ++failures[t];
          continue;
        }
        for (size_t i = 0; i < out->size(); ++i) mismatches[t] += !(*out)[i].BitwiseEquals(serial[v][i]);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], 0) << "thread " << t;
    EXPECT_EQ(mismatches[t], 0) << "thread " << t << ": outputs differ from the serial run's";
  }
}

constexpr char kMobileNet[] = "testdata/models/mobilenet_v2_qdq.onnx";
constexpr char kThreeInputs[] = "testdata/ir/dense_matmul.qnnir";

TEST(ConcurrencyTest, MobileNetV2OneThreadPerCall) { RunConcurrently(kMobileNet, {}); }

TEST(ConcurrencyTest, ThreeInputsOneThreadPerCall) { RunConcurrently(kThreeInputs, {}); }

TEST(ConcurrencyTest, MobileNetV2CallsShareATwoThreadPool) {
#if defined(__SANITIZE_THREAD__)
  // pthreadpool (Debian's) is not instrumented: ThreadSanitizer cannot see
  // its workers finish before the caller reads their results, and would
  // report every op split between threads.
  GTEST_SKIP() << "SKIP: under ThreadSanitizer, whose view of the uninstrumented pthreadpool "
                  "misses its synchronization";
#endif
  SessionOptions options;
  options.thread_pool = std::make_shared<runtime::ThreadPool>(2);
  RunConcurrently(kMobileNet, options);
}

}  // namespace
}  // namespace qnnc

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--runs=", 7) == 0 && !absl::SimpleAtoi(argv[i] + 7, &qnnc::g_runs)) {
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
