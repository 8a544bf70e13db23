#include "kernels/reference/layout.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


TEST(TransposeTest, HandComputed) {
  Tensor x = Tensor::FromVector<int16_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto y = Transpose(x, {1, 0});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{3, 2}));
  EXPECT_EQ(y->ToVector<int16_t>(), (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));
  Tensor z = Tensor::FromVector<float>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto t = Transpose(z, {2, 0, 1});  // out[k][i][j] = z[i][j][k]
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->ToVector<float>(), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
  auto rev = Transpose(z, {});
  ASSERT_TRUE(rev.ok()) << rev.status();
  EXPECT_EQ(rev->ToVector<float>(), (std::vector<float>{0, 4, 2, 6, 1, 5, 3, 7}));
  EXPECT_FALSE(Transpose(z, {0, 0, 1}).ok());
  EXPECT_FALSE(Transpose(z, {0, 1}).ok());
  EXPECT_FALSE(Transpose(z, {0, 1, 3}).ok());
}

TEST(ConcatTest, Axes) {
  Tensor a = Tensor::FromVector<uint8_t>({2, 2}, {1, 2, 3, 4});
  Tensor b = Tensor::FromVector<uint8_t>({2, 1}, {5, 6});
  auto y = Concat({a, b}, -1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{2, 3}));
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{1, 2, 5, 3, 4, 6}));
  auto z = Concat(
      {a, Tensor::FromVector<uint8_t>({1, 2}, {7, 8}), Tensor::Zeros(DType::kU8, {0, 2})}, 0);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 7, 8}));
  EXPECT_FALSE(Concat({a, b}, 0).ok());
  EXPECT_FALSE(Concat({a, Tensor::Zeros(DType::kI8, {2, 2})}, 0).ok());
  EXPECT_FALSE(Concat({}, 0).ok());
  EXPECT_FALSE(Concat({a}, 2).ok());
}

TEST(PadTest, Modes) {
  Tensor x = Tensor::FromVector<float>({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f});
  // ONNX Pad examples (pads [0, 2, 0, 0]).
  auto c = Pad(x, {0, 2, 0, 0}, "constant", 0.0);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->ToVector<float>(),
            (std::vector<float>{0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f}));
  auto r = Pad(x, {0, 1, 0, 0}, "reflect");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ToVector<float>(),
            (std::vector<float>{1.2f, 1.0f, 1.2f, 3.4f, 2.3f, 3.4f, 5.7f, 4.5f, 5.7f}));
  auto e = Pad(x, {0, 2, 0, 0}, "edge");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->ToVector<float>(), (std::vector<float>{1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f,
                                                   4.5f, 4.5f, 4.5f, 5.7f}));
  Tensor v = Tensor::FromVector<int8_t>({4}, {1, 2, 3, 4});
  auto r2 = Pad(v, {2, 3}, "reflect");
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_EQ(r2->ToVector<int8_t>(), (std::vector<int8_t>{3, 2, 1, 2, 3, 4, 3, 2, 1}));
  auto c2 = Pad(v, {1, 1}, "constant", 300.7);  // saturates to 127
  ASSERT_TRUE(c2.ok()) << c2.status();
  EXPECT_EQ(c2->ToVector<int8_t>(), (std::vector<int8_t>{127, 1, 2, 3, 4, 127}));
  EXPECT_FALSE(Pad(v, {4, 0}, "reflect").ok());
  EXPECT_FALSE(Pad(v, {-1, 0}).ok());
  EXPECT_FALSE(Pad(v, {1}).ok());
  EXPECT_FALSE(Pad(v, {1, 1}, "wrap").ok());
}

TEST(ReshapeTest, CopiesAndInfers) {
  Tensor x = Tensor::FromVector<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto y = Reshape(x, {3, -1});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{3, 2}));
  EXPECT_EQ(y->ToVector<int32_t>(), x.ToVector<int32_t>());
  EXPECT_NE(y->raw_data(), x.raw_data());
  EXPECT_FALSE(Reshape(x, {4, -1}).ok());
  EXPECT_FALSE(Reshape(x, {-1, -1}).ok());
  EXPECT_FALSE(Reshape(x, {7}).ok());
}

TEST(StridedSliceTest, StepsBothWays) {
  // x = [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
  std::vector<int32_t> v(12);
  for (int i = 0; i < 12; ++i) v[i] = i;
  const Tensor x = Tensor::FromVector<int32_t>({3, 4}, v);
  auto a = StridedSlice(x, {0, 1}, {3, 4}, {2, 2});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->shape(), (tensor::Shape{2, 2}));
  EXPECT_EQ(std::vector<int32_t>(a->data<int32_t>(), a->data<int32_t>() + 4),
            (std::vector<int32_t>{1, 3, 9, 11}));
  // Backwards to the start (end -1 = before element 0).
  auto b = StridedSlice(x, {2, 3}, {-1, 0}, {-1, -2});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->shape(), (tensor::Shape{3, 2}));
  EXPECT_EQ(std::vector<int32_t>(b->data<int32_t>(), b->data<int32_t>() + 6),
            (std::vector<int32_t>{11, 9, 7, 5, 3, 1}));
  auto empty = StridedSlice(x, {2, 0}, {1, 4}, {1, 1});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), (tensor::Shape{0, 4}));
  EXPECT_FALSE(StridedSlice(x, {0, 0}, {4, 4}, {1, 1}).ok());  // end past the dimension
  EXPECT_FALSE(StridedSlice(x, {0, 0}, {3, 4}, {1, 0}).ok());  // zero stride
  EXPECT_FALSE(StridedSlice(x, {0}, {3}, {1}).ok());           // rank
}

TEST(TakeTest, AxesAndNegativeIndices) {
  std::vector<float> v(6);
  for (int i = 0; i < 6; ++i) v[i] = static_cast<float>(i);
  const Tensor x = Tensor::FromVector<float>({2, 3}, v);
  auto cols = Take(x, Tensor::FromVector<int64_t>({2, 2}, {2, 0, -1, 1}), 1);
  ASSERT_TRUE(cols.ok()) << cols.status();
  EXPECT_EQ(cols->shape(), (tensor::Shape{2, 2, 2}));
  EXPECT_EQ(std::vector<float>(cols->data<float>(), cols->data<float>() + 8),
            (std::vector<float>{2, 0, 2, 1, 5, 3, 5, 4}));
  auto row = Take(x, Tensor::Scalar<int32_t>(1), 0);  // a scalar index drops the axis
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->shape(), (tensor::Shape{3}));
  EXPECT_EQ(row->data<float>()[0], 3.0f);
  auto bad = Take(x, Tensor::FromVector<int64_t>({1}, {3}), 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("index 3"), std::string::npos) << bad.status();
  EXPECT_FALSE(Take(x, Tensor::FromVector<float>({1}, {0}), 1).ok());
}

TEST(BroadcastToTest, RepeatsOnes) {
  const Tensor x = Tensor::FromVector<uint8_t>({3, 1}, {1, 2, 3});
  auto y = BroadcastTo(x, {2, 3, 2});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(std::vector<uint8_t>(y->data<uint8_t>(), y->data<uint8_t>() + 12),
            (std::vector<uint8_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_FALSE(BroadcastTo(x, {2, 2}).ok());
  EXPECT_FALSE(BroadcastTo(x, {1}).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
