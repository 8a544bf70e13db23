#include "ir/infer_types.h"

#include "gtest/gtest.h"
#include "ir/builder.h"
#include "ir/op_registry.h"

namespace qnnc::ir {
namespace {

Attrs ConvAttrs(std::vector<int64_t> strides, std::vector<int64_t> padding, int64_t groups) {
  Attrs a;
  a.Set("strides", strides);
  a.Set("padding", padding);
  a.Set("groups", groups);
  return a;
}

TEST(InferTypes, QuantizedConvChain) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 3, 8, 8}});
  Value* q = b.Op("qnn.quantize", {x, b.Scalar<float>(0.1f), b.Scalar<uint8_t>(128)});
  Value* w = b.Constant(tensor::Tensor::Zeros(DType::kI8, {4, 3, 3, 3}));
  Value* conv = b.Op("qnn.conv2d", {q, w, b.Scalar<uint8_t>(128), b.Scalar<int8_t>(0),
                                    b.Scalar<float>(0.1f), b.Vector<float>({1, 1, 1, 1})},
                     ConvAttrs({2, 2}, {1, 1, 1, 1}, 1));
  Attrs rq;
  rq.Set("out_dtype", std::string("u8"));
  Value* out = b.Op("qnn.requantize", {conv, b.Scalar<float>(0.01f), b.Scalar<int32_t>(0),
                                       b.Scalar<float>(0.2f), b.Scalar<uint8_t>(0)},
                    rq);
  b.Output(out);
  auto g = b.Finish();
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(q->type()->ToString(), "u8[1,3,8,8]");
  EXPECT_EQ(conv->type()->ToString(), "i32[1,4,4,4]");
  EXPECT_EQ(out->type()->ToString(), "u8[1,4,4,4]");
}

TEST(InferTypes, ErrorNamesOpAndNode) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {1, 3, 8, 8}});
  Value* w = b.Constant(tensor::Tensor::Zeros(DType::kF32, {4, 2, 3, 3}));
  b.Output(b.Op("nn.conv2d", {x, w}, {}, "bad_conv"));
  auto g = b.Finish();
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("nn.conv2d"), std::string::npos) << g.status();
  EXPECT_NE(g.status().message().find("bad_conv"), std::string::npos);
}

TEST(InferTypes, UnknownOpAndArity) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {2}});
  b.Output(b.Op("no.such_op", {x}));
  EXPECT_FALSE(b.Finish().ok());
  Builder b2;
  Value* y = b2.Input("y", {DType::kF32, {2}});
  b2.Output(b2.Op("add", {y}));
  auto g = b2.Finish();
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("takes 2 inputs, got 1"), std::string::npos) << g.status();
}

TEST(InferTypes, DeclaredTypeMustAgree) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {2, 3}});
  Node* n = g.AddNode("relu", {x});
  n->output()->set_type({DType::kF32, {3, 2}});
  g.SetOutputs({n->output()});
  EXPECT_FALSE(InferTypes(g).ok());
}

struct ShapeCase {
  const char* op;
  std::vector<TensorType> inputs;
  Attrs attrs;
  std::string expected;  // type, or "error"
};

TEST(InferTypes, RelationsTable) {
  Attrs pool;
  pool.Set("pool_size", std::vector<int64_t>{3, 3});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  Attrs pool_ceil = pool;
  pool_ceil.Set("ceil_mode", int64_t{1});
  Attrs flatten;
  Attrs transpose;
  transpose.Set("axes", std::vector<int64_t>{0, 2, 3, 1});
  Attrs bad_transpose;
  bad_transpose.Set("axes", std::vector<int64_t>{0, 0, 1, 2});
  Attrs reshape;
  reshape.Set("newshape", std::vector<int64_t>{6, 4});
  Attrs nchw16c;
  nchw16c.Set("src_layout", std::string("NCHW"));
  nchw16c.Set("dst_layout", std::string("NCHW16c"));
  Attrs concat;
  concat.Set("axis", int64_t{1});
  Attrs reduce;
  reduce.Set("axes", std::vector<int64_t>{-1});
  reduce.Set("keepdims", int64_t{0});
  Attrs resize;
  resize.Set("size", std::vector<int64_t>{16, 16});
  Attrs pad;
  pad.Set("pad_width", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 2, 2});
  Attrs cast;
  cast.Set("dtype", std::string("i32"));
  Attrs take;
  take.Set("axis", int64_t{1});
  Attrs take_blocked = take;
  take_blocked.Set("layout", std::string("NCHW16c"));
  take_blocked.Set("channels", int64_t{20});
  Attrs take_too_many = take_blocked;
  take_too_many.Set("channels", int64_t{33});
  Attrs blocked16;
  blocked16.Set("layout", std::string("NCHW16c"));
  Attrs to_i8;
  to_i8.Set("out_dtype", std::string("i8"));
  const TensorType f32{DType::kF32, {}}, u8{DType::kU8, {}}, f32x4{DType::kF32, {4}};
  std::vector<ShapeCase> cases = {
      {"qnn.global_avg_pool2d", {{DType::kU8, {1, 1280, 7, 7}}, f32, u8, f32, u8}, {}, "u8[1,1280,1,1]"},
      {"qnn.global_avg_pool2d", {{DType::kU8, {1, 80, 7, 7, 16}}, f32, u8, f32, u8}, blocked16, "u8[1,80,1,1,16]"},
      {"qnn.global_avg_pool2d", {{DType::kU8, {1, 8, 7, 7}}, f32, u8, f32, u8}, to_i8, "i8[1,8,1,1]"},
      {"qnn.global_avg_pool2d", {{DType::kF32, {1, 8, 7, 7}}, f32, u8, f32, u8}, {}, "error"},
      {"qnn.global_avg_pool2d", {{DType::kU8, {1, 4, 7, 7}}, f32x4, u8, f32, u8}, {}, "error"},
      {"qnn.global_avg_pool2d", {{DType::kU8, {1, 8, 7, 7}}, f32, u8, f32, u8}, blocked16, "error"},
      {"add", {{DType::kF32, {2, 1, 4}}, {DType::kF32, {3, 1}}}, {}, "f32[2,3,4]"},
      {"add", {{DType::kF32, {2, 3}}, {DType::kF32, {4}}}, {}, "error"},
      {"add", {{DType::kF32, {2}}, {DType::kI32, {2}}}, {}, "error"},
      {"nn.max_pool2d", {{DType::kU8, {1, 8, 112, 112}}}, pool, "u8[1,8,55,55]"},
      {"nn.max_pool2d", {{DType::kU8, {1, 8, 112, 112}}}, pool_ceil, "u8[1,8,56,56]"},
      {"flatten", {{DType::kF32, {1, 512, 1, 1}}}, flatten, "f32[1,512]"},
      {"transpose", {{DType::kF32, {1, 2, 3, 4}}}, transpose, "f32[1,3,4,2]"},
      {"transpose", {{DType::kF32, {1, 2, 3, 4}}}, bad_transpose, "error"},
      {"reshape", {{DType::kF32, {2, 3, 4}}}, reshape, "f32[6,4]"},
      {"layout_transform", {{DType::kU8, {1, 20, 7, 7}}}, nchw16c, "u8[1,2,7,7,16]"},
      {"concat", {{DType::kF32, {1, 2, 3}}, {DType::kF32, {1, 5, 3}}}, concat, "f32[1,7,3]"},
      {"reduce_max", {{DType::kF32, {2, 3}}}, reduce, "f32[2]"},
      {"resize", {{DType::kF32, {1, 3, 8, 8}}}, resize, "f32[1,3,16,16]"},
      {"nn.pad", {{DType::kF32, {1, 3, 8, 8}}}, pad, "f32[1,3,11,11]"},
      {"cast", {{DType::kF32, {3}}}, cast, "i32[3]"},
      {"take", {{DType::kU8, {1, 20, 7, 7}}, {DType::kI32, {2, 3}}}, take, "u8[1,2,3,7,7]"},
      {"take", {{DType::kU8, {1, 2, 7, 7, 16}}, {DType::kI32, {17}}}, take_blocked, "u8[1,2,7,7,16]"},
      {"take", {{DType::kU8, {1, 2, 7, 7, 16}}, {DType::kI32, {16}}}, take_too_many, "error"},
      {"take", {{DType::kU8, {1, 2, 7, 7, 16}}, {DType::kI32, {4, 4}}}, take_blocked, "error"},
      {"nn.matmul", {{DType::kF32, {2, 1, 3, 4}}, {DType::kF32, {5, 4, 6}}}, {}, "f32[2,5,3,6]"},
      {"nn.matmul", {{DType::kI8, {4}}, {DType::kI8, {4, 6}}}, {}, "i32[6]"},
      {"nn.dense", {{DType::kF32, {1, 1280}}, {DType::kF32, {1000, 1280}}}, {}, "f32[1,1000]"},
      {"qnn.dynamic_quantize", {{DType::kF32, {2, 3}}}, {}, "u8[2,3]"},
  };
  const OpRegistry& reg = OpRegistry::Global();
  for (const auto& c : cases) {
    Graph g;
    std::vector<Value*> ins;
    for (const auto& t : c.inputs) ins.push_back(g.AddInput("", t));
    const OpDef* def = reg.Find(c.op);
    ASSERT_NE(def, nullptr) << c.op;
    Node* n = g.AddNode(c.op, ins, c.attrs, def->num_outputs);
    auto types = reg.InferNode(*n, c.inputs);
    if (c.expected == "error") {
      EXPECT_FALSE(types.ok()) << c.op;
    } else {
      ASSERT_TRUE(types.ok()) << c.op << ": " << types.status();
      EXPECT_EQ((*types)[0].ToString(), c.expected) << c.op;
    }
  }
}

TEST(OpRegistry, DuplicateRegistrationIsAnError) {
  OpRegistry r;
  OpDef def{"my.op", 1, 1, 1, nullptr, ""};
  EXPECT_TRUE(r.Register(def).ok());
  EXPECT_FALSE(r.Register(def).ok());
}

}  // namespace
}  // namespace qnnc::ir
