// The session API on the bundled MobileNetV2 and a text IR model with
// three inputs: compile from a path or bytes, describe, run by name into
// returned or caller-owned tensors, save and load the plan, and the errors.
#include "qnnc/session.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "io/tensor_files.h"
#include "runtime/executor.h"

namespace qnnc {
namespace {

constexpr char kModel[] = "testdata/models/mobilenet_v2_qdq";

tensor::Tensor ReadOrDie(const std::string& path, tensor::DType dtype, const tensor::Shape& shape) {
  auto t = io::ReadTensorFile(path, ir::TensorType{dtype, shape});
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : tensor::Tensor();
}

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Session::Compile(std::string(kModel) + ".onnx");
    ASSERT_TRUE(s.ok()) << s.status();
    session_ = std::move(*s);
    ASSERT_EQ(session_->inputs().size(), 1u);
    ASSERT_EQ(session_->outputs().size(), 1u);
    const TensorInfo& in = session_->inputs()[0];
    const TensorInfo& out = session_->outputs()[0];
    input_ = ReadOrDie(std::string(kModel) + ".input.f32", in.dtype, in.shape);
    // Every implementation is exact: the checked-in x86-64 output, bit for bit.
    expected_ = ReadOrDie(std::string(kModel) + ".qnnc_output.f32", out.dtype, out.shape);
  }

  std::unique_ptr<Session> session_;
  tensor::Tensor input_, expected_;
};

TEST_F(SessionTest, DescribesInputsAndOutputs) {
  const TensorInfo& in = session_->inputs()[0];
  EXPECT_EQ(in.name, "input");
  EXPECT_EQ(in.dtype, tensor::DType::kF32);
  EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(session_->outputs()[0].dtype, tensor::DType::kF32);
  EXPECT_EQ(session_->outputs()[0].shape, (std::vector<int64_t>{1, 1000}));
  EXPECT_FALSE(session_->target().empty());
}

TEST_F(SessionTest, RunsByNameExactly) {
  auto out = session_->Run({{"input", input_}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_TRUE((*out)[0].BitwiseEquals(expected_));
}

TEST_F(SessionTest, WritesIntoCallerOwnedOutputs) {
  auto owned = tensor::Tensor::Create(tensor::DType::kF32, {1, 1000});
  ASSERT_TRUE(owned.ok());
  std::vector<tensor::Tensor> outputs = {*owned};
  ASSERT_TRUE(session_->Run({{"input", input_}}, {session_->outputs()[0].name}, &outputs).ok());
  EXPECT_EQ(outputs[0].raw_data(), owned->raw_data()) << "not written in place";
  EXPECT_TRUE(owned->BitwiseEquals(expected_));

  std::vector<tensor::Tensor> wrong = {tensor::Tensor::Zeros(tensor::DType::kU8, {1, 1000})};
  absl::Status bad = session_->Run({{"input", input_}}, {}, &wrong);
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(bad.message(), "f32[1,1000], not u8[1,1000]")) << bad;
}

TEST_F(SessionTest, SavedPlanLoadsAndRunsTheSame) {
  const std::string plan = std::string(getenv("TEST_TMPDIR")) + "/m.plan";
  ASSERT_TRUE(session_->SavePlan(plan).ok());
  auto loaded = Session::LoadPlan(plan);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->target(), session_->target());
  auto out = (*loaded)->Run({{"input", input_}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)[0].BitwiseEquals(expected_));
  // Saved again, the loaded plan (its kernels restored from their packed
  // weights, the weights themselves not held) gives the same file; a text
  // plan, which holds every weight, cannot be written from it.
  const std::string again = std::string(getenv("TEST_TMPDIR")) + "/again.plan";
  ASSERT_TRUE((*loaded)->SavePlan(again).ok());
  EXPECT_EQ(*io::ReadFileToString(again), *io::ReadFileToString(plan));
  absl::Status text = (*loaded)->SavePlan(again + ".txt", runtime::PlanFormat::kText);
  const bool packed = absl::StrContains(*io::ReadFileToString(plan), " packing=");
  EXPECT_EQ(text.ok(), !packed) << text;

  SessionOptions compile_only;
  compile_only.records = {"r.jsonl"};
  auto refused = Session::LoadPlan(plan, compile_only);
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "records does not apply"))
      << refused.status();
  // A failed write leaves no file.
  EXPECT_FALSE(session_->SavePlan(std::string(getenv("TEST_TMPDIR")) + "/no/such/dir/m.plan").ok());
}

TEST_F(SessionTest, CompilesFromBytes) {
  auto bytes = io::ReadFileToString(std::string(kModel) + ".onnx");
  ASSERT_TRUE(bytes.ok());
  auto s = Session::CompileOnnx(*bytes);
  ASSERT_TRUE(s.ok()) << s.status();
  auto out = (*s)->Run({{"input", input_}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)[0].BitwiseEquals(expected_));
}

TEST_F(SessionTest, BadInputsAreErrorsNamingWhat) {
  struct Case {
    NamedTensors inputs;
    const char* message;
  } cases[] = {
      {{}, "input 'input' missing"},
      {{{"image", input_}}, "no input 'image' (its inputs: input)"},
      {{{"input", input_}, {"input", input_}}, "'input' given twice"},
      {{{"input", tensor::Tensor::Zeros(tensor::DType::kU8, {1, 3, 224, 224})}},
       "input 'input' must be f32[1,3,224,224], got u8[1,3,224,224]"},
  };
  for (const Case& c : cases) {
    auto out = session_->Run(c.inputs);
    ASSERT_FALSE(out.ok()) << c.message;
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(out.status().message(), c.message)) << out.status();
  }
}

TEST(SessionErrorsTest, NameWhatAndWhereAsTheCliDoes) {
  SessionOptions bad_target;
  bad_target.target = "sparc";
  auto s = Session::Compile(std::string(kModel) + ".onnx", bad_target);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StartsWith(s.status().message(), "--target: ")) << s.status();

  s = Session::Compile("testdata/models/no_such_model.onnx");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.status().message(), "no_such_model.onnx")) << s.status();

  s = Session::CompileOnnx("not a model");
  EXPECT_FALSE(s.ok());

  SessionOptions threads;
  threads.threads = 0;
  s = Session::Compile(std::string(kModel) + ".onnx", threads);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "--threads must be 1..256");

  s = Session::LoadPlan(std::string(kModel) + ".onnx");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StartsWith(s.status().message(), "--plan: ")) << s.status();

  SessionOptions shapes;
  shapes.input_shapes["x"] = {2, 16};
  s = Session::Compile("testdata/ir/dense_matmul.qnnir", shapes);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.status().message(), "input shapes apply to ONNX models"));
}

TEST(SessionInputsTest, TakesInputsByNameInAnyOrder) {
  auto s = Session::Compile("testdata/ir/dense_matmul.qnnir");
  ASSERT_TRUE(s.ok()) << s.status();
  const Session& session = **s;
  ASSERT_EQ(session.inputs().size(), 3u);
  NamedTensors forward, backward;
  for (const TensorInfo& in : session.inputs()) {
    tensor::Tensor t = tensor::Tensor::Zeros(in.dtype, in.shape);
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      if (in.dtype == tensor::DType::kF32) t.data<float>()[i] = 0.05f * static_cast<float>(i % 17);
      if (in.dtype == tensor::DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(i * 37);
    }
    forward.push_back({in.name, t});
  }
  backward.assign(forward.rbegin(), forward.rend());
  auto a = session.Run(forward);
  auto b = session.Run(backward);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(a->size(), session.outputs().size());
  for (size_t i = 0; i < a->size(); ++i) EXPECT_TRUE((*a)[i].BitwiseEquals((*b)[i]));
}

}  // namespace
}  // namespace qnnc
