// Bad models: every error is a clear InvalidArgumentError (NotFoundError for
// a missing file), never a crash.
#include <random>
#include <string>

#include "frontend/onnx/import.h"
#include "frontend/onnx/test_model_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qnnc::frontend::onnx {
namespace {

using ::onnx::TensorProto;
using ::testing::HasSubstr;
using testing::AttrI;
using testing::AttrInts;
using testing::AttrS;
using testing::ModelBuilder;
using tensor::Tensor;

// A small QDQ conv model (with weights, so it has some size).
ModelBuilder QdqConvModel() {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 3, 8, 8});
  b.Initializer("s", Tensor::Scalar<float>(0.05f));
  b.Initializer("z", Tensor::Scalar<uint8_t>(128));
  b.Initializer("w", Tensor::FromVector<int8_t>({4, 3, 3, 3}, std::vector<int8_t>(108, 3)));
  b.Initializer("ws", Tensor::Scalar<float>(0.01f));
  b.Initializer("wz", Tensor::Scalar<int8_t>(0));
  b.Node("QuantizeLinear", {"x", "s", "z"}, {"q"}, "quant");
  b.Node("DequantizeLinear", {"q", "s", "z"}, {"dq"}, "dequant");
  b.Node("DequantizeLinear", {"w", "ws", "wz"}, {"dw"}, "dequant_w");
  AttrInts(b.Node("Conv", {"dq", "dw"}, {"c"}, "conv"), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c"}, {"r"}, "relu");
  b.Node("QuantizeLinear", {"r", "s", "z"}, {"y"}, "quant_out");
  b.Output("y");
  return b;
}

absl::Status ImportStatus(const ModelBuilder& b, const ImportOptions& options = {}) {
  return ImportOnnxBytes(b.Bytes(), options).status();
}

void ExpectInvalid(const absl::Status& s, const std::string& substr) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(substr));
}

TEST(ImporterTest, ValidModelImports) {
  auto g = ImportOnnxBytes(QdqConvModel().Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g.value()->outputs()[0]->type()->ToString(), "u8[1,4,8,8]");
}

TEST(ImporterTest, TruncatedBytes) {
  const std::string bytes = QdqConvModel().Bytes();
  ExpectInvalid(ImportOnnxBytes(bytes.substr(0, bytes.size() / 2)).status(),
                "not a valid ONNX model");
  ExpectInvalid(ImportOnnxBytes("").status(), "not a valid ONNX model");
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto g = ImportOnnxBytes(absl::string_view(bytes.data(), n));
    EXPECT_FALSE(g.ok() && g.value() == nullptr);
    if (!g.ok()) {
      EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument) << n;
    }
  }
}

TEST(ImporterTest, GarbageAndCorruptedBytesNeverCrash) {
  ExpectInvalid(ImportOnnxBytes("\xff\xff\xff\xff garbage").status(), "not a valid ONNX model");
  std::mt19937 rng(42);
  for (int i = 0; i < 300; ++i) {
    std::string junk(rng() % 200, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    (void)ImportOnnxBytes(junk);
  }
  const std::string bytes = QdqConvModel().Bytes();
  for (int i = 0; i < 2000; ++i) {
    std::string corrupt = bytes;
    for (int k = 0; k < 3; ++k) corrupt[rng() % corrupt.size()] ^= static_cast<char>(1 << (rng() % 8));
    auto g = ImportOnnxBytes(corrupt);
    if (g.ok()) {
      EXPECT_TRUE(g.value()->Verify().ok());
    }
  }
}

TEST(ImporterTest, MissingFile) {
  EXPECT_EQ(ImportOnnxFile("testdata/onnx/no_such_model.onnx").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ImporterTest, ListsEveryUnsupportedNode) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 2, 4, 4});
  b.Node("Foo", {"x"}, {"f"}, "first_foo");
  b.Node("Relu", {"f"}, {"r"}, "relu_after_foo");     // skipped: its input is unsupported
  b.Node("Bar", {"r"}, {"bar"}, "bar_after_foo");     // unknown too: listed
  b.Initializer("scales", Tensor::FromVector<float>({4}, {1, 1, 2, 2}));
  AttrS(b.Node("Resize", {"x", "", "scales"}, {"rz"}, "cubic_resize"), "mode", "cubic");
  b.Node("Gelu", {"x"}, {"g"}, "ms_gelu").set_domain("com.microsoft");
  b.Node("Relu", {"x"}, {"ok"}, "fine_relu");
  b.Output("bar").Output("rz").Output("g").Output("ok");
  absl::Status s = ImportStatus(b);
  ExpectInvalid(s, "4 unsupported ONNX node(s)");
  for (const char* part : {"node 'first_foo' (Foo)", "node 'bar_after_foo' (Bar)",
                           "node 'cubic_resize' (Resize): mode 'cubic'",
                           "node 'ms_gelu' (Gelu): op 'Gelu' of domain 'com.microsoft' is not supported"}) {
    EXPECT_THAT(std::string(s.message()), HasSubstr(part));
  }
  EXPECT_THAT(std::string(s.message()), ::testing::Not(HasSubstr("fine_relu")));
}

TEST(ImporterTest, Opsets) {
  for (int opset : {9, 18}) {
    ModelBuilder b(opset);
    b.Input("x", TensorProto::FLOAT, {2});
    b.Node("Relu", {"x"}, {"y"});
    b.Output("y");
    ExpectInvalid(ImportStatus(b), "ONNX opset " + std::to_string(opset) + " is not supported");
  }
  ModelBuilder b(17);
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  auto* ms = b.model().add_opset_import();  // declared but unused: ignored
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  EXPECT_TRUE(ImportStatus(b).ok());
  b.model().mutable_opset_import(0)->set_domain("ai.onnx");
  EXPECT_TRUE(ImportStatus(b).ok());
  b.model().clear_opset_import();
  ExpectInvalid(ImportStatus(b), "no opset_import for the default ONNX domain");
}

TEST(ImporterTest, BadInitializers) {
  ModelBuilder b = QdqConvModel();
  TensorProto* w = b.model().mutable_graph()->mutable_initializer(2);
  w->set_dims(0, -4);
  ExpectInvalid(ImportStatus(b), "initializer tensor 'w': negative dimension -4");
  w->set_dims(0, 5);
  ExpectInvalid(ImportStatus(b), "initializer tensor 'w' of dims [5,3,3,3] needs 135 bytes but raw_data has 108");
  w->set_dims(0, int64_t{1} << 62);
  ExpectInvalid(ImportStatus(b), "initializer tensor 'w'");
  w->set_dims(0, 4);
  w->set_data_location(TensorProto::EXTERNAL);
  ExpectInvalid(ImportStatus(b), "external data is not supported");
}

TEST(ImporterTest, MissingAndDuplicateNames) {
  ModelBuilder b = QdqConvModel();
  b.model().mutable_graph()->mutable_node(3)->set_input(1, "nowhere");
  ExpectInvalid(ImportStatus(b), "node 'conv' (Conv): input 'nowhere' is not defined");
  b = QdqConvModel();
  b.model().mutable_graph()->mutable_node(4)->set_output(0, "q");
  ExpectInvalid(ImportStatus(b), "node 'relu' (Relu): value 'q' is defined twice");
  b = QdqConvModel();
  b.model().mutable_graph()->mutable_output(0)->set_name("nothing");
  ExpectInvalid(ImportStatus(b), "graph output 'nothing' is not produced");
  b = QdqConvModel();
  b.model().mutable_graph()->mutable_node(3)->mutable_input()->RemoveLast();
  ExpectInvalid(ImportStatus(b), "node 'conv' (Conv): required input 1 is missing");
}

TEST(ImporterTest, BadAttributesNameTheNode) {
  ModelBuilder b = QdqConvModel();
  auto* conv = b.model().mutable_graph()->mutable_node(3);
  conv->mutable_attribute(0)->set_type(::onnx::AttributeProto::INT);
  ExpectInvalid(ImportStatus(b), "node 'conv' (Conv): attribute 'pads' must be INTS, got INT");
  b = QdqConvModel();
  AttrInts(*b.model().mutable_graph()->mutable_node(3), "kernel_shape", {5, 5});
  ExpectInvalid(ImportStatus(b), "node 'conv' (Conv): kernel_shape [5,5] does not match the weight's [3,3]");
  b = QdqConvModel();
  AttrI(*b.model().mutable_graph()->mutable_node(3), "group", 2);
  ExpectInvalid(ImportStatus(b), "node 'conv' (Conv)");
}

TEST(ImporterTest, SymbolicInputDims) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {-1, 3});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  ExpectInvalid(ImportStatus(b), "input 'x' dimension 0 is symbolic ('N')");
  ImportOptions options;
  options.input_shapes["x"] = {5, 3};
  auto g = ImportOnnxBytes(b.Bytes(), options);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g.value()->outputs()[0]->type()->ToString(), "f32[5,3]");
  options.input_shapes["x"] = {5};
  ExpectInvalid(ImportStatus(b, options), "has rank 1 but the model gives rank 2");
  options.input_shapes["x"] = {-5, 3};
  ExpectInvalid(ImportStatus(b, options), "negative dimension");
  options.input_shapes.clear();
  options.input_shapes["z"] = {1};
  ExpectInvalid(ImportStatus(b, options), "names 'z', which is not a graph input");
  b.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
  ExpectInvalid(ImportStatus(b), "input 'x' has no shape");
}

TEST(ImporterTest, FrozenInputsBecomeConstants) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2, 6});
  b.Input("starts", TensorProto::INT64, {1});
  b.Input("ends", TensorProto::INT64, {1});
  b.Node("Slice", {"x", "starts", "ends"}, {"y"});
  b.Output("y");
  // As inputs, the starts cannot be resolved.
  ExpectInvalid(ImportStatus(b), "input 1 (starts) must be a constant");
  ImportOptions options;
  options.constant_inputs["starts"] = Tensor::FromVector<int64_t>({1}, {1});
  options.constant_inputs["ends"] = Tensor::FromVector<int64_t>({1}, {2});
  auto g = ImportOnnxBytes(b.Bytes(), options);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->inputs().size(), 1u);
  EXPECT_EQ((*g)->outputs()[0]->type()->ToString(), "f32[1,6]");
  options.constant_inputs["ends"] = Tensor::FromVector<int32_t>({1}, {2});
  ExpectInvalid(ImportOnnxBytes(b.Bytes(), options).status(),
                "input 'ends': the frozen value (i32[1]) does not match");
  options.constant_inputs["nope"] = Tensor::FromVector<int64_t>({1}, {2});
  ExpectInvalid(ImportOnnxBytes(b.Bytes(), options).status(),
                "constant_inputs names 'nope', which is not a graph input");
}

}  // namespace
}  // namespace qnnc::frontend::onnx
