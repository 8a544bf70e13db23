// Per-converter tests on small models built with the ONNX protobuf API,
// imported raw (no folding, no fusion) so each converter's output is visible.
#include <memory>
#include <string>

#include "frontend/onnx/import.h"
#include "frontend/onnx/test_model_builder.h"
#include "gtest/gtest.h"

namespace qnnc::frontend::onnx {
namespace {

using ::onnx::TensorProto;
using testing::AttrF;
using testing::AttrI;
using testing::AttrInts;
using testing::AttrS;
using testing::ModelBuilder;
using tensor::Tensor;

std::unique_ptr<ir::Graph> RawImport(const ModelBuilder& b) {
  ImportOptions options;
  options.fold_constants = false;
  options.fuse_qdq = false;
  auto g = ImportOnnxBytes(b.Bytes(), options);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : nullptr;
}

std::string Ops(const ir::Graph& g) {
  std::string s;
  for (const ir::Node* n : g.nodes()) s += (s.empty() ? "" : ",") + n->op();
  return s;
}

const ir::Node* Find(const ir::Graph& g, const std::string& op) {
  for (const ir::Node* n : g.nodes()) {
    if (n->op() == op) return n;
  }
  return nullptr;
}

std::vector<int64_t> Ints(const ir::Node* n, const char* name) { return *n->attrs().GetInts(name); }
std::string OutType(const ir::Graph& g, int i = 0) { return g.outputs()[i]->type()->ToString(); }

struct AutoPadCase {
  const char* auto_pad;
  std::vector<int64_t> padding;
  std::string out;
};

class ConvAutoPadTest : public ::testing::TestWithParam<AutoPadCase> {};

TEST_P(ConvAutoPadTest, ResolvesPadsStatically) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 2, 4, 4});
  b.Initializer("w", Tensor::Zeros(tensor::DType::kF32, {3, 2, 3, 3}));
  b.Initializer("b", Tensor::Zeros(tensor::DType::kF32, {3}));
  auto& n = b.Node("Conv", {"x", "w", "b"}, {"y"});
  AttrS(n, "auto_pad", GetParam().auto_pad);
  AttrInts(n, "strides", {2, 2});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "nn.conv2d,nn.bias_add");
  EXPECT_EQ(Ints(Find(*g, "nn.conv2d"), "padding"), GetParam().padding);
  EXPECT_EQ(*Find(*g, "nn.bias_add")->attrs().GetInt("axis"), 1);
  EXPECT_EQ(OutType(*g), GetParam().out);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, ConvAutoPadTest,
    ::testing::Values(AutoPadCase{"SAME_UPPER", {0, 0, 1, 1}, "f32[1,3,2,2]"},
                      AutoPadCase{"SAME_LOWER", {1, 1, 0, 0}, "f32[1,3,2,2]"},
                      AutoPadCase{"VALID", {0, 0, 0, 0}, "f32[1,3,1,1]"}));

TEST(ConvTest, AttributesAndGroups) {
  ModelBuilder b(11);
  b.Input("x", TensorProto::FLOAT, {1, 4, 9, 9});
  b.Initializer("w", Tensor::Zeros(tensor::DType::kF32, {4, 1, 3, 3}));
  auto& n = b.Node("Conv", {"x", "w"}, {"y"});
  AttrInts(n, "pads", {1, 2, 3, 4});
  AttrInts(n, "dilations", {2, 1});
  AttrI(n, "group", 4);
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  const ir::Node* conv = Find(*g, "nn.conv2d");
  EXPECT_EQ(Ints(conv, "padding"), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(Ints(conv, "dilation"), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(*conv->attrs().GetInt("groups"), 4);
  EXPECT_EQ(OutType(*g), "f32[1,4,9,13]");
}

TEST(GemmTest, TransposesAlphaBetaAndVectorBias) {
  ModelBuilder b(13);
  b.Input("a", TensorProto::FLOAT, {4, 2});  // transposed: M=2, K=4
  b.Initializer("bw", Tensor::Zeros(tensor::DType::kF32, {3, 4}));  // transB: N=3
  b.Initializer("c", Tensor::Zeros(tensor::DType::kF32, {3}));
  auto& n = b.Node("Gemm", {"a", "bw", "c"}, {"y"});
  AttrI(n, "transA", 1);
  AttrI(n, "transB", 1);
  AttrF(n, "alpha", 2.0f);
  AttrF(n, "beta", 0.5f);
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "transpose,nn.dense,multiply,multiply,nn.bias_add");
  EXPECT_EQ(OutType(*g), "f32[2,3]");
}

TEST(GemmTest, PlainBIsMatMulAndMatrixBiasIsAdd) {
  ModelBuilder b(13);
  b.Input("a", TensorProto::FLOAT, {2, 4});
  b.Input("bw", TensorProto::FLOAT, {4, 3});
  b.Input("c", TensorProto::FLOAT, {2, 3});
  b.Node("Gemm", {"a", "bw", "c"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "nn.matmul,add");
  EXPECT_EQ(OutType(*g), "f32[2,3]");
}

struct ReshapeCase {
  std::vector<int64_t> shape;
  int64_t allowzero;
  std::string out;
};

class ReshapeTest : public ::testing::TestWithParam<ReshapeCase> {};

TEST_P(ReshapeTest, ResolvesZeroAndMinusOne) {
  ModelBuilder b(14);
  b.Input("x", TensorProto::FLOAT, {2, 3, 4});
  b.Initializer("s", Tensor::FromVector<int64_t>({static_cast<int64_t>(GetParam().shape.size())},
                                                 GetParam().shape));
  AttrI(b.Node("Reshape", {"x", "s"}, {"y"}), "allowzero", GetParam().allowzero);
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(OutType(*g), GetParam().out);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReshapeTest,
                         ::testing::Values(ReshapeCase{{0, -1}, 0, "f32[2,12]"},
                                           ReshapeCase{{-1}, 0, "f32[24]"},
                                           ReshapeCase{{0, 0, -1, 1}, 0, "f32[2,3,4,1]"},
                                           ReshapeCase{{4, -1, 3}, 1, "f32[4,2,3]"}));

TEST(GemmTest, ConstantBIsTransposedForDense) {
  ModelBuilder b(13);
  b.Input("a", TensorProto::FLOAT, {2, 4});
  b.Initializer("bw", Tensor::Zeros(tensor::DType::kF32, {4, 3}));
  b.Node("Gemm", {"a", "bw"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "transpose,nn.dense");
  EXPECT_EQ(OutType(*g), "f32[2,3]");
  auto folded = ImportOnnxBytes(b.Bytes());
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(Ops(**folded), "nn.dense");
}

TEST(ReshapeTest, BadShapesAreErrors) {
  for (std::vector<int64_t> shape : std::vector<std::vector<int64_t>>{{-1, -1}, {5, -1}, {0, 0, 0, 0}}) {
    ModelBuilder b(13);
    b.Input("x", TensorProto::FLOAT, {2, 3, 4});
    b.Initializer("s", Tensor::FromVector<int64_t>({static_cast<int64_t>(shape.size())}, shape));
    b.Node("Reshape", {"x", "s"}, {"y"}, "r");
    b.Output("y");
    auto g = ImportOnnxBytes(b.Bytes());
    EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(g.status().message().find("node 'r' (Reshape)"), std::string::npos) << g.status();
  }
}

TEST(ClipTest, Opset10AttributesAndOpset13Inputs) {
  ModelBuilder b10(10);
  b10.Input("x", TensorProto::FLOAT, {4});
  auto& n = b10.Node("Clip", {"x"}, {"y"});
  AttrF(n, "min", 0.0f);
  AttrF(n, "max", 6.0f);
  b10.Output("y");
  ModelBuilder b13(13);
  b13.Input("x", TensorProto::FLOAT, {4});
  b13.Initializer("lo", Tensor::Scalar<float>(0.0f));
  b13.Initializer("hi", Tensor::Scalar<float>(6.0f));
  b13.Node("Clip", {"x", "lo", "hi"}, {"y"});
  b13.Output("y");
  for (ModelBuilder* b : {&b10, &b13}) {
    auto g = RawImport(*b);
    ASSERT_NE(g, nullptr);
    const ir::Node* clip = Find(*g, "clip");
    ASSERT_NE(clip, nullptr);
    EXPECT_EQ(*clip->attrs().GetFloat("min"), 0.0);
    EXPECT_EQ(*clip->attrs().GetFloat("max"), 6.0);
  }
  // Only a max (min is an absent optional input).
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {4});
  b.Initializer("hi", Tensor::Scalar<float>(6.0f));
  b.Node("Clip", {"x", "", "hi"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_FALSE(Find(*g, "clip")->attrs().Has("min"));
}

TEST(QLinearConvTest, PerChannel) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::UINT8, {1, 2, 4, 4});
  b.Initializer("xs", Tensor::Scalar<float>(0.5f));
  b.Initializer("xz", Tensor::Scalar<uint8_t>(128));
  b.Initializer("w", Tensor::Zeros(tensor::DType::kI8, {3, 2, 1, 1}));
  b.Initializer("ws", Tensor::FromVector<float>({3}, {0.1f, 0.2f, 0.3f}));
  b.Initializer("wz", Tensor::FromVector<int8_t>({3}, {0, 0, 0}));
  b.Initializer("ys", Tensor::Scalar<float>(0.25f));
  b.Initializer("yz", Tensor::Scalar<uint8_t>(3));
  b.Initializer("bias", Tensor::FromVector<int32_t>({3}, {1, 2, 3}));
  b.Node("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "qnn.conv2d,nn.bias_add,qnn.requantize");
  const ir::Node* req = Find(*g, "qnn.requantize");
  EXPECT_EQ(*req->attrs().GetInt("axis"), 1);
  EXPECT_EQ(*req->attrs().GetString("out_dtype"), "u8");
  const ir::Value* in_scale = req->input(1);
  ASSERT_TRUE(in_scale->is_constant());
  ASSERT_EQ(in_scale->data().num_elements(), 3);
  EXPECT_EQ(in_scale->data().data<float>()[0], 0.5f * 0.1f);
  EXPECT_EQ(in_scale->data().data<float>()[2], 0.5f * 0.3f);
  EXPECT_EQ(req->input(2)->data().dtype(), tensor::DType::kI32);
  EXPECT_EQ(OutType(*g), "u8[1,3,4,4]");
}

TEST(QLinearConvTest, RuntimeScalesBecomeMultiply) {
  ModelBuilder b(10);
  b.Input("x", TensorProto::UINT8, {1, 1, 3, 3});
  b.Input("xs", TensorProto::FLOAT, {});
  b.Input("xz", TensorProto::UINT8, {});
  b.Input("w", TensorProto::UINT8, {1, 1, 1, 1});
  b.Input("ws", TensorProto::FLOAT, {});
  b.Input("wz", TensorProto::UINT8, {});
  b.Input("ys", TensorProto::FLOAT, {});
  b.Input("yz", TensorProto::UINT8, {});
  b.Node("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "qnn.conv2d,multiply,qnn.requantize");
}

TEST(QLinearMatMulTest, MatMulAndRequantizeOnLastAxis) {
  ModelBuilder b(10);
  b.Input("a", TensorProto::UINT8, {2, 4});
  b.Initializer("as", Tensor::Scalar<float>(0.5f));
  b.Initializer("az", Tensor::Scalar<uint8_t>(1));
  b.Initializer("b", Tensor::Zeros(tensor::DType::kU8, {4, 3}));
  b.Initializer("bs", Tensor::Scalar<float>(0.25f));
  b.Initializer("bz", Tensor::Scalar<uint8_t>(2));
  b.Initializer("ys", Tensor::Scalar<float>(1.0f));
  b.Initializer("yz", Tensor::Scalar<int8_t>(0));
  b.Node("QLinearMatMul", {"a", "as", "az", "b", "bs", "bz", "ys", "yz"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "qnn.matmul,qnn.requantize");
  EXPECT_EQ(*Find(*g, "qnn.requantize")->attrs().GetInt("axis"), -1);
  EXPECT_EQ(OutType(*g), "i8[2,3]");
}

TEST(IntegerOpsTest, ConvIntegerAndMatMulIntegerDefaultZeroPoints) {
  ModelBuilder b(10);
  b.Input("x", TensorProto::UINT8, {1, 1, 3, 3});
  b.Initializer("w", Tensor::Zeros(tensor::DType::kU8, {2, 1, 2, 2}));
  b.Node("ConvInteger", {"x", "w"}, {"y"});
  b.Input("a", TensorProto::INT8, {2, 3});
  b.Initializer("m", Tensor::Zeros(tensor::DType::kI8, {3, 5}));
  b.Initializer("mz", Tensor::Scalar<int8_t>(4));
  b.Node("MatMulInteger", {"a", "m", "", "mz"}, {"z"});
  b.Output("y").Output("z");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  // [M, K] x constant [K, N]: a dense layer with the transposed weight.
  EXPECT_EQ(Ops(*g), "qnn.conv2d,qnn.dense");
  EXPECT_EQ(Find(*g, "qnn.dense")->input(1)->type()->ToString(), "i8[5,3]");
  const ir::Node* conv = Find(*g, "qnn.conv2d");
  EXPECT_EQ(conv->input(2)->data().GetAsInt(0), 0);
  EXPECT_EQ(conv->input(4)->data().GetAsDouble(0), 1.0);
  EXPECT_EQ(OutType(*g, 0), "i32[1,2,2,2]");
  EXPECT_EQ(OutType(*g, 1), "i32[2,5]");
}

TEST(DynamicQuantizeLinearTest, ThreeOutputs) {
  ModelBuilder b(11);
  b.Input("x", TensorProto::FLOAT, {2, 5});
  b.Node("DynamicQuantizeLinear", {"x"}, {"y", "s", "z"});
  b.Output("y").Output("s").Output("z");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "qnn.dynamic_quantize");
  EXPECT_EQ(OutType(*g, 0), "u8[2,5]");
  EXPECT_EQ(OutType(*g, 1), "f32[]");
  EXPECT_EQ(OutType(*g, 2), "u8[]");
}

TEST(QuantizeLinearTest, MissingZeroPointIsU8Zero) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 3});
  b.Initializer("s", Tensor::Scalar<float>(0.1f));
  b.Node("QuantizeLinear", {"x", "s"}, {"q"});
  b.Initializer("s8", Tensor::FromVector<float>({3}, {1, 2, 3}));
  b.Initializer("z8", Tensor::FromVector<int8_t>({3}, {0, 1, 2}));
  b.Node("QuantizeLinear", {"x", "s8", "z8"}, {"q8"});
  b.Node("DequantizeLinear", {"q8", "s8", "z8"}, {"d"});
  b.Output("q").Output("q8").Output("d");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(OutType(*g, 0), "u8[1,3]");
  EXPECT_EQ(OutType(*g, 1), "i8[1,3]");
  EXPECT_EQ(OutType(*g, 2), "f32[1,3]");
  EXPECT_EQ(g->nodes()[0]->input(2)->data().GetAsInt(0), 0);
}

TEST(TensorOpsTest, CastIdentityAndConstants) {
  ModelBuilder b(15);
  b.Input("x", TensorProto::FLOAT, {2, 3, 4});
  AttrI(b.Node("Cast", {"x"}, {"same"}), "to", TensorProto::FLOAT);
  AttrI(b.Node("Cast", {"same"}, {"i"}), "to", TensorProto::INT32);
  b.Node("Identity", {"i"}, {"id"});
  auto& shape = b.Node("Shape", {"x"}, {"shape"});
  AttrI(shape, "start", 1);
  AttrI(shape, "end", -1);
  b.Initializer("dims", Tensor::FromVector<int64_t>({2}, {2, 2}));
  AttrInts(b.Node("Constant", {}, {"ints"}), "value_ints", {1, 2, 3});
  b.Node("ConstantOfShape", {"dims"}, {"zeros"});
  b.Output("same").Output("id").Output("shape").Output("ints").Output("zeros");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "cast");
  EXPECT_EQ(g->outputs()[0], g->inputs()[0]);  // Cast to the same dtype is an alias
  EXPECT_EQ(OutType(*g, 1), "i32[2,3,4]");
  ASSERT_TRUE(g->outputs()[2]->is_constant());
  EXPECT_EQ(g->outputs()[2]->data().GetAsInt(0), 3);
  EXPECT_EQ(OutType(*g, 2), "i64[1]");
  EXPECT_EQ(OutType(*g, 3), "i64[3]");
  EXPECT_EQ(OutType(*g, 4), "f32[2,2]");
}

TEST(ShapeOpsTest, SqueezeUnsqueezeFlattenTransposeConcat) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 3, 1, 4});
  b.Initializer("ax", Tensor::FromVector<int64_t>({2}, {0, 2}));
  b.Initializer("ux", Tensor::FromVector<int64_t>({2}, {0, -1}));
  b.Node("Squeeze", {"x", "ax"}, {"sq"});
  b.Node("Unsqueeze", {"sq", "ux"}, {"un"});
  AttrI(b.Node("Flatten", {"x"}, {"fl"}), "axis", 2);
  AttrInts(b.Node("Transpose", {"x"}, {"tr"}), "perm", {3, 1, 0, 2});
  AttrI(b.Node("Concat", {"x", "x"}, {"cat"}), "axis", -1);
  b.Output("un").Output("fl").Output("tr").Output("cat");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "reshape,reshape,flatten,transpose,concat");
  EXPECT_EQ(OutType(*g, 0), "f32[1,3,4,1]");
  EXPECT_EQ(OutType(*g, 1), "f32[3,4]");
  EXPECT_EQ(OutType(*g, 2), "f32[4,3,1,1]");
  EXPECT_EQ(OutType(*g, 3), "f32[1,3,1,8]");
}

TEST(PoolTest, MaxAndAveragePool) {
  ModelBuilder b(12);
  b.Input("x", TensorProto::FLOAT, {1, 2, 7, 7});
  auto& mp = b.Node("MaxPool", {"x"}, {"m"});
  AttrInts(mp, "kernel_shape", {3, 3});
  AttrInts(mp, "strides", {2, 2});
  AttrS(mp, "auto_pad", "SAME_UPPER");
  auto& ap = b.Node("AveragePool", {"x"}, {"a"});
  AttrInts(ap, "kernel_shape", {2, 2});
  AttrInts(ap, "strides", {2, 2});
  AttrI(ap, "ceil_mode", 1);
  AttrI(ap, "count_include_pad", 1);
  b.Node("GlobalAveragePool", {"x"}, {"gap"});
  b.Output("m").Output("a").Output("gap");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(OutType(*g, 0), "f32[1,2,4,4]");
  EXPECT_EQ(Ints(Find(*g, "nn.max_pool2d"), "padding"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(OutType(*g, 1), "f32[1,2,4,4]");
  EXPECT_EQ(*Find(*g, "nn.avg_pool2d")->attrs().GetInt("count_include_pad"), 1);
  EXPECT_EQ(OutType(*g, 2), "f32[1,2,1,1]");
}

TEST(ResizeTest, ScalesAndSizes) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {1, 2, 3, 4});
  b.Initializer("scales", Tensor::FromVector<float>({4}, {1, 1, 2, 0.5f}));
  b.Initializer("sizes", Tensor::FromVector<int64_t>({4}, {1, 2, 5, 7}));
  auto& r1 = b.Node("Resize", {"x", "", "scales"}, {"a"});
  AttrS(r1, "mode", "nearest");
  AttrS(r1, "nearest_mode", "floor");
  auto& r2 = b.Node("Resize", {"x", "", "", "sizes"}, {"b"});
  AttrS(r2, "mode", "linear");
  AttrS(r2, "coordinate_transformation_mode", "align_corners");
  b.Output("a").Output("b");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(OutType(*g, 0), "f32[1,2,6,2]");
  EXPECT_EQ(OutType(*g, 1), "f32[1,2,5,7]");
  const ir::Node* first = g->nodes()[0];
  EXPECT_EQ(*first->attrs().GetString("nearest_mode"), "floor");
  EXPECT_EQ(*g->nodes()[1]->attrs().GetString("coordinate_transformation_mode"), "align_corners");
}

TEST(ElementwiseTest, BinaryUnaryAndReduce) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2, 3});
  b.Input("y", TensorProto::FLOAT, {3});
  b.Node("Add", {"x", "y"}, {"a"});
  b.Node("Sub", {"a", "y"}, {"s"});
  b.Node("Mul", {"s", "x"}, {"m"});
  b.Node("Div", {"m", "x"}, {"d"});
  b.Node("Max", {"d", "x"}, {"mx"});
  b.Node("Min", {"mx", "y"}, {"mn"});
  b.Node("Relu", {"mn"}, {"r"});
  b.Node("Sigmoid", {"r"}, {"sg"});
  b.Node("Round", {"sg"}, {"rd"});
  auto& red = b.Node("ReduceMax", {"rd"}, {"rm"});
  AttrInts(red, "axes", {1});
  AttrI(red, "keepdims", 0);
  AttrInts(b.Node("ReduceMin", {"rd"}, {"rn"}), "axes", {0});
  b.Output("rm").Output("rn");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g),
            "add,subtract,multiply,divide,maximum,minimum,relu,sigmoid,round,reduce_max,reduce_min");
  EXPECT_EQ(OutType(*g, 0), "f32[2]");
  EXPECT_EQ(OutType(*g, 1), "f32[1,3]");
}

TEST(ActivationTest, OneOpEach) {
  ModelBuilder b(14);
  b.Input("x", TensorProto::FLOAT, {2, 3, 4});
  b.Node("Tanh", {"x"}, {"t0"});
  b.Node("Erf", {"t0"}, {"t"});
  AttrF(b.Node("LeakyRelu", {"t"}, {"l"}), "alpha", 0.25f);
  auto& hs = b.Node("HardSigmoid", {"l"}, {"h"});
  AttrF(hs, "alpha", 0.5f);
  b.Node("HardSwish", {"h"}, {"w"});
  AttrI(b.Node("Softmax", {"w"}, {"s"}), "axis", 1);
  b.Output("s");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "tanh,erf,leaky_relu,hard_sigmoid,hard_swish,softmax");
  EXPECT_EQ(*Find(*g, "leaky_relu")->attrs().GetFloat("alpha"), 0.25);
  EXPECT_EQ(*Find(*g, "hard_sigmoid")->attrs().GetFloat("alpha"), 0.5);
  EXPECT_EQ(*Find(*g, "hard_sigmoid")->attrs().GetFloat("beta"), 0.5);  // the default
  EXPECT_EQ(*Find(*g, "softmax")->attrs().GetInt("axis"), 1);
  EXPECT_EQ(OutType(*g), "f32[2,3,4]");
}

TEST(ActivationTest, SoftmaxBeforeOpset13FlattensFromTheAxis) {
  ModelBuilder b(11);
  b.Input("x", TensorProto::FLOAT, {2, 3, 4});
  b.Node("Softmax", {"x"}, {"s"});  // axis 1: [2, 12]
  b.Output("s");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "reshape,softmax,reshape");
  EXPECT_EQ(g->nodes()[1]->input(0)->type()->ToString(), "f32[2,12]");
  EXPECT_EQ(OutType(*g), "f32[2,3,4]");
}

TEST(DropoutTest, IdentityWithAllTrueMask) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2, 2});
  b.Node("Dropout", {"x"}, {"y", "mask"});
  b.Output("y").Output("mask");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "");
  EXPECT_EQ(g->outputs()[0], g->inputs()[0]);
  ASSERT_TRUE(g->outputs()[1]->is_constant());
  EXPECT_EQ(OutType(*g, 1), "bool[2,2]");
  EXPECT_EQ(g->outputs()[1]->data().data<uint8_t>()[3], 1);
}

TEST(UpsampleTest, AsResizeTen) {
  ModelBuilder b(10);
  b.Input("x", TensorProto::FLOAT, {1, 2, 3, 4});
  b.Initializer("scales", Tensor::FromVector<float>({4}, {1, 1, 2, 1.5f}));
  b.Node("Upsample", {"x", "scales"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "resize");
  EXPECT_EQ(OutType(*g), "f32[1,2,6,6]");
  EXPECT_EQ(*g->nodes()[0]->attrs().GetString("coordinate_transformation_mode"), "asymmetric");
  EXPECT_EQ(*g->nodes()[0]->attrs().GetString("nearest_mode"), "floor");
}

TEST(SliceTest, ClampsAsOnnxDoes) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {4, 10});
  b.Initializer("starts", Tensor::FromVector<int64_t>({2}, {-1, 20}));
  b.Initializer("ends", Tensor::FromVector<int64_t>({2}, {INT64_MIN, -100}));
  b.Initializer("axes", Tensor::FromVector<int64_t>({2}, {0, -1}));
  b.Initializer("steps", Tensor::FromVector<int64_t>({2}, {-2, -3}));
  b.Node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  const ir::Node* n = Find(*g, "strided_slice");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(Ints(n, "begin"), (std::vector<int64_t>{3, 9}));
  EXPECT_EQ(Ints(n, "end"), (std::vector<int64_t>{-1, -1}));
  EXPECT_EQ(OutType(*g), "f32[2,4]");  // rows 3, 1; columns 9, 6, 3, 0
}

TEST(SplitTest, PartsAndErrors) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2, 6});
  b.Initializer("split", Tensor::FromVector<int64_t>({2}, {2, 4}));
  AttrI(b.Node("Split", {"x", "split"}, {"a", "b"}), "axis", 1);
  AttrI(b.Node("Split", {"x"}, {"c", "d", "e"}), "axis", -1);
  b.Output("a").Output("b").Output("e");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(OutType(*g, 0), "f32[2,2]");
  EXPECT_EQ(OutType(*g, 1), "f32[2,4]");
  EXPECT_EQ(OutType(*g, 2), "f32[2,2]");
  EXPECT_EQ(Ints(g->outputs()[2]->producer(), "begin"), (std::vector<int64_t>{0, 4}));
  ModelBuilder bad(13);
  bad.Input("x", TensorProto::FLOAT, {2, 5});
  AttrI(bad.Node("Split", {"x"}, {"c", "d"}), "axis", 1);
  bad.Output("c");
  auto refused = ImportOnnxBytes(bad.Bytes());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("equal parts"), std::string::npos) << refused.status();
}

TEST(BatchNormTest, FoldsIntoTheConvolutionBeforeIt) {
  ModelBuilder b(15);
  b.Input("x", TensorProto::FLOAT, {1, 1, 3, 3});
  b.Initializer("w", Tensor::FromVector<float>({2, 1, 1, 1}, {1.0f, 2.0f}));
  b.Initializer("bias", Tensor::FromVector<float>({2}, {0.5f, 0.0f}));
  b.Initializer("scale", Tensor::FromVector<float>({2}, {2.0f, 1.0f}));
  b.Initializer("B", Tensor::FromVector<float>({2}, {1.0f, -1.0f}));
  b.Initializer("mean", Tensor::FromVector<float>({2}, {0.5f, 0.0f}));
  b.Initializer("var", Tensor::FromVector<float>({2}, {4.0f, 1.0f}));
  b.Node("Conv", {"x", "w", "bias"}, {"c"});
  AttrF(b.Node("BatchNormalization", {"c", "scale", "B", "mean", "var"}, {"y"}), "epsilon", 0.0f);
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  // The original conv and bias, unused, are gone (dead code elimination).
  EXPECT_EQ(Ops(*g), "nn.conv2d,nn.bias_add");
  const ir::Node* add = g->outputs()[0]->producer();
  const ir::Node* conv = add->input(0)->producer();
  EXPECT_EQ(conv->input(0), g->inputs()[0]);
  // a = scale / sqrt(var) = (1, 1); b = B - mean * a = (0.5, -1).
  const float* w = conv->input(1)->data().data<float>();
  EXPECT_EQ(w[0], 1.0f);
  EXPECT_EQ(w[1], 2.0f);
  const float* bias = add->input(1)->data().data<float>();
  EXPECT_EQ(bias[0], 0.5f * 1.0f + 0.5f);
  EXPECT_EQ(bias[1], -1.0f);
}

TEST(BatchNormTest, ScaleAndShiftElsewhere) {
  ModelBuilder b(15);
  b.Input("x", TensorProto::FLOAT, {1, 2, 3, 3});
  for (const char* name : {"scale", "B", "mean", "var"}) {
    b.Initializer(name, Tensor::FromVector<float>({2}, {1.0f, 3.0f}));
  }
  b.Node("BatchNormalization", {"x", "scale", "B", "mean", "var"}, {"y"});
  b.Output("y");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g), "multiply,add");
  EXPECT_EQ(g->nodes()[0]->input(1)->type()->ToString(), "f32[2,1,1]");
}

::onnx::NodeProto& MicrosoftNode(ModelBuilder& b, const std::string& op,
                                 const std::vector<std::string>& in, const std::string& out) {
  auto& n = b.Node(op, in, {out});
  n.set_domain("com.microsoft");
  return n;
}

TEST(MicrosoftTest, QuantizedContribOps) {
  ModelBuilder b(13);
  auto* ms = b.model().add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  b.Input("a", TensorProto::UINT8, {1, 4, 2, 2});
  b.Input("c", TensorProto::UINT8, {1, 4, 2, 2});
  b.Initializer("s", Tensor::Scalar<float>(0.5f));
  b.Initializer("z", Tensor::Scalar<uint8_t>(128));
  MicrosoftNode(b, "QLinearAdd", {"a", "s", "z", "c", "s", "z", "s", "z"}, "add");
  MicrosoftNode(b, "QLinearMul", {"add", "s", "z", "c", "s", "", "s", "z"}, "mul");
  AttrI(MicrosoftNode(b, "QLinearConcat", {"s", "z", "mul", "s", "z", "a", "s", "z"}, "cat"), "axis", 1);
  MicrosoftNode(b, "QLinearSigmoid", {"cat", "s", "z", "s", "z"}, "sig");
  AttrF(MicrosoftNode(b, "QLinearLeakyRelu", {"sig", "s", "z", "s", "z"}, "lr"), "alpha", 0.1f);
  auto& ap = MicrosoftNode(b, "QLinearAveragePool", {"lr", "s", "z", "s", "z"}, "ap");
  AttrInts(ap, "kernel_shape", {2, 2});
  MicrosoftNode(b, "QLinearGlobalAveragePool", {"lr", "s", "z", "s", "z"}, "gap");
  b.Output("ap").Output("gap");
  auto g = RawImport(b);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Ops(*g),
            "qnn.add,qnn.mul,qnn.concat,qnn.dequantize,sigmoid,qnn.quantize,qnn.dequantize,"
            "leaky_relu,qnn.quantize,qnn.dequantize,nn.avg_pool2d,qnn.quantize,qnn.dequantize,"
            "nn.global_avg_pool2d,qnn.quantize");
  EXPECT_EQ(OutType(*g, 0), "u8[1,8,1,1]");
  EXPECT_EQ(OutType(*g, 1), "u8[1,8,1,1]");
  // QLinearMul's absent B zero point: a zero of B's dtype.
  EXPECT_EQ(Find(*g, "qnn.mul")->input(5)->type()->ToString(), "u8[]");
}

TEST(MicrosoftTest, OtherDomainsAndChannelsLastAreRefused) {
  ModelBuilder b(13);
  b.Input("x", TensorProto::UINT8, {1, 4, 2, 2});
  b.Initializer("s", Tensor::Scalar<float>(0.5f));
  auto& n = MicrosoftNode(b, "QLinearGlobalAveragePool", {"x", "s", "", "s", ""}, "y");
  AttrI(n, "channels_last", 1);
  b.Node("Foo", {"y"}, {"z"}).set_domain("org.example");
  b.Output("z");
  auto g = ImportOnnxBytes(b.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("channels_last is not supported"), std::string::npos) << g.status();
  EXPECT_NE(g.status().message().find("domain 'org.example' is not supported"), std::string::npos)
      << g.status();
}

}  // namespace
}  // namespace qnnc::frontend::onnx
