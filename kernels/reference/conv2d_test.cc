#include "kernels/reference/conv2d.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}


// The ONNX Conv examples: x = 0..24 (or 0..34), 3x3 kernel of ones.
TEST(Conv2DTest, OnnxExampleWithPadding) {
  Tensor x = Tensor::FromVector<float>({1, 1, 5, 5}, Iota(25));
  Tensor w = Tensor::FromVector<float>({1, 1, 3, 3}, std::vector<float>(9, 1.0f));
  Conv2DParams p;
  p.pads = {1, 1, 1, 1};
  auto y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (tensor::Shape{1, 1, 5, 5}));
  EXPECT_EQ(y->ToVector<float>(),
            (std::vector<float>{12,  21, 27, 33,  24,  33,  54,  63, 72,  51,  63,  99, 108,
                                117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84}));
  p.pads = {0, 0, 0, 0};
  y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{54, 63, 72, 99, 108, 117, 144, 153, 162}));
}

TEST(Conv2DTest, OnnxExampleStridesAndAsymmetricPadding) {
  Tensor x = Tensor::FromVector<float>({1, 1, 7, 5}, Iota(35));
  Tensor w = Tensor::FromVector<float>({1, 1, 3, 3}, std::vector<float>(9, 1.0f));
  Conv2DParams p;
  p.strides = {2, 2};
  p.pads = {1, 1, 1, 1};
  auto y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (tensor::Shape{1, 1, 4, 3}));
  EXPECT_EQ(y->ToVector<float>(),
            (std::vector<float>{12, 27, 24, 63, 108, 81, 123, 198, 141, 112, 177, 124}));
  p.pads = {1, 0, 1, 0};  // top, left, bottom, right
  y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (tensor::Shape{1, 1, 4, 2}));
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{21, 33, 99, 117, 189, 207, 171, 183}));
}

TEST(Conv2DTest, DilationHandComputed) {
  // 4x4 input 0..15, 2x2 kernel [1, 2; 3, 4] dilated by 2 -> 2x2 output.
  Tensor x = Tensor::FromVector<int32_t>({1, 1, 4, 4},
                                         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  Tensor w = Tensor::FromVector<int8_t>({1, 1, 2, 2}, {1, 2, 3, 4});
  Conv2DParams p;
  p.dilation = {2, 2};
  p.out_dtype = DType::kI32;
  auto y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  // (0,0): 0*1 + 2*2 + 8*3 + 10*4 = 68; each step right adds 10, down adds 40.
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{68, 78, 108, 118}));
}

TEST(Conv2DTest, IntegerAccumulatorWraps) {
  Tensor x = Tensor::FromVector<int32_t>({1, 2, 1, 1}, {2000000000, 2000000000});
  Tensor w = Tensor::FromVector<int32_t>({1, 2, 1, 1}, {1, 1});
  Conv2DParams p;
  p.out_dtype = DType::kI32;
  auto y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->data<int32_t>()[0], static_cast<int32_t>(4000000000LL - 4294967296LL));
  p.out_dtype = DType::kI64;
  y = Conv2D(x, w, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->data<int64_t>()[0], 4000000000LL);
}

// Independent naive convolution: one output at a time, explicit padding test.
struct Naive {
  int64_t n, c, h, w, o, kh, kw, groups;
  Conv2DParams p;
  int64_t OutH() const {
    return (h + p.pads[0] + p.pads[2] - (kh - 1) * p.dilation[0] - 1) / p.strides[0] + 1;
  }
  int64_t OutW() const {
    return (w + p.pads[1] + p.pads[3] - (kw - 1) * p.dilation[1] - 1) / p.strides[1] + 1;
  }
  // xv(n, c, y, x) returns the (shifted) input or nullopt-like `pad`; wv(o, i, ky, kx).
  template <typename T, typename X, typename W>
  std::vector<T> Run(X xv, W wv) const {
    std::vector<T> out;
    const int64_t ipg = c / groups, opg = o / groups;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oc = 0; oc < o; ++oc)
        for (int64_t oy = 0; oy < OutH(); ++oy)
          for (int64_t ox = 0; ox < OutW(); ++ox) {
            T acc = 0;
            for (int64_t i = 0; i < ipg; ++i)
              for (int64_t ky = 0; ky < kh; ++ky)
                for (int64_t kx = 0; kx < kw; ++kx) {
                  const int64_t iy = oy * p.strides[0] - p.pads[0] + ky * p.dilation[0];
                  const int64_t ix = ox * p.strides[1] - p.pads[1] + kx * p.dilation[1];
                  if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                  acc += xv(b, (oc / opg) * ipg + i, iy, ix) * wv(oc, i, ky, kx);
                }
            out.push_back(acc);
          }
    return out;
  }
};

struct Config {
  int64_t n, c, h, w, o, kh, kw, groups;
  std::array<int64_t, 2> strides, dilation;
  std::array<int64_t, 4> pads;
};

const Config kConfigs[] = {
    {1, 3, 9, 11, 4, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}},
    {2, 4, 10, 7, 6, 3, 2, 2, {2, 1}, {1, 2}, {0, 2, 1, 0}},
    {1, 8, 12, 12, 8, 3, 3, 8, {2, 2}, {1, 1}, {1, 1, 1, 1}},  // depthwise
    {1, 6, 8, 9, 12, 3, 3, 6, {1, 2}, {2, 2}, {2, 2, 2, 2}},   // depthwise x2
    {1, 5, 6, 6, 7, 1, 1, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}},
    {3, 2, 5, 5, 2, 5, 5, 1, {3, 3}, {1, 1}, {2, 2, 3, 3}},
};

TEST(Conv2DTest, F32MatchesNaiveLoop) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (const Config& cf : kConfigs) {
    Naive nv{cf.n, cf.c, cf.h, cf.w, cf.o, cf.kh, cf.kw, cf.groups, {}};
    nv.p.strides = cf.strides, nv.p.dilation = cf.dilation, nv.p.pads = cf.pads;
    nv.p.groups = cf.groups;
    std::vector<float> xs(cf.n * cf.c * cf.h * cf.w), ws(cf.o * (cf.c / cf.groups) * cf.kh * cf.kw);
    for (float& v : xs) v = dist(rng);
    for (float& v : ws) v = dist(rng);
    auto xv = [&](int64_t b, int64_t c, int64_t y, int64_t x) {
      return xs[((b * cf.c + c) * cf.h + y) * cf.w + x];
    };
    auto wv = [&](int64_t o, int64_t i, int64_t y, int64_t x) {
      return ws[((o * (cf.c / cf.groups) + i) * cf.kh + y) * cf.kw + x];
    };
    std::vector<float> expected = nv.Run<float>(xv, wv);
    auto y = Conv2D(Tensor::FromVector<float>({cf.n, cf.c, cf.h, cf.w}, xs),
                    Tensor::FromVector<float>({cf.o, cf.c / cf.groups, cf.kh, cf.kw}, ws), nv.p);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(y->shape(), (tensor::Shape{cf.n, cf.o, nv.OutH(), nv.OutW()}));
    EXPECT_EQ(y->ToVector<float>(), expected);  // same summation order: bitwise equal
  }
}

TEST(Conv2DTest, QuantizedPerChannelMatchesNaiveLoop) {
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> u8(0, 255), i8(-128, 127);
  for (const Config& cf : kConfigs) {
    Naive nv{cf.n, cf.c, cf.h, cf.w, cf.o, cf.kh, cf.kw, cf.groups, {}};
    nv.p.strides = cf.strides, nv.p.dilation = cf.dilation, nv.p.pads = cf.pads;
    nv.p.groups = cf.groups;
    nv.p.out_dtype = DType::kI32;
    std::vector<uint8_t> xs(cf.n * cf.c * cf.h * cf.w);
    std::vector<int8_t> ws(cf.o * (cf.c / cf.groups) * cf.kh * cf.kw), zw(cf.o);
    for (auto& v : xs) v = u8(rng);
    for (auto& v : ws) v = i8(rng);
    for (auto& v : zw) v = i8(rng);
    const int64_t zx = 117;
    const int64_t wsize = (cf.c / cf.groups) * cf.kh * cf.kw;
    auto xv = [&](int64_t b, int64_t c, int64_t y, int64_t x) -> int64_t {
      return xs[((b * cf.c + c) * cf.h + y) * cf.w + x] - zx;
    };
    auto wv = [&](int64_t o, int64_t i, int64_t y, int64_t x) -> int64_t {
      return ws[o * wsize + (i * cf.kh + y) * cf.kw + x] - zw[o];
    };
    std::vector<int64_t> expected = nv.Run<int64_t>(xv, wv);
    auto y = QnnConv2D(Tensor::FromVector<uint8_t>({cf.n, cf.c, cf.h, cf.w}, xs),
                       Tensor::FromVector<int8_t>({cf.o, cf.c / cf.groups, cf.kh, cf.kw}, ws),
                       Tensor::Scalar<uint8_t>(zx), Tensor::FromVector<int8_t>({cf.o}, zw), nv.p);
    ASSERT_TRUE(y.ok()) << y.status();
    std::vector<int32_t> got = y->ToVector<int32_t>();
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "at " << i;
  }
}

TEST(Conv2DTest, QuantizedPaddingActsAsZeroPoint) {
  // 1x1 input 10 with zx 10 padded by 1: every tap sees x - zx == 0 ...
  Tensor x = Tensor::FromVector<uint8_t>({1, 1, 1, 1}, {12});
  Tensor w = Tensor::FromVector<uint8_t>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Conv2DParams p;
  p.pads = {1, 1, 1, 1};
  p.out_dtype = DType::kI32;
  auto y = QnnConv2D(x, w, Tensor::Scalar<uint8_t>(10), Tensor::Scalar<uint8_t>(1), p);
  ASSERT_TRUE(y.ok()) << y.status();
  // ... except the centre: (12 - 10) * (5 - 1) = 8.
  EXPECT_EQ(y->data<int32_t>()[0], 8);
}

TEST(Conv2DTest, SerialAndThreadPoolAgree) {
  pthreadpool_t pool = pthreadpool_create(2);
  Tensor x = Tensor::FromVector<float>({2, 4, 6, 6}, Iota(288));
  Tensor w = Tensor::FromVector<float>({6, 2, 3, 3}, Iota(108));
  Conv2DParams p;
  p.groups = 2;
  p.pads = {1, 1, 1, 1};
  auto serial = Conv2D(x, w, p);
  auto parallel = Conv2D(x, w, p, pool);
  pthreadpool_destroy(pool);
  ASSERT_TRUE(serial.ok() && parallel.ok());
  EXPECT_TRUE(serial->BitwiseEquals(*parallel));
}

TEST(Conv2DTest, RejectsBadInputs) {
  Tensor x = Tensor::Zeros(DType::kF32, {1, 4, 5, 5});
  Conv2DParams p;
  EXPECT_FALSE(Conv2D(x, Tensor::Zeros(DType::kF32, {2, 3, 3, 3}), p).ok());  // C mismatch
  p.groups = 3;
  EXPECT_FALSE(Conv2D(x, Tensor::Zeros(DType::kF32, {3, 1, 3, 3}), p).ok());  // groups
  p.groups = 1;
  EXPECT_FALSE(Conv2D(x, Tensor::Zeros(DType::kF32, {2, 4, 7, 7}), p).ok());  // too large
  EXPECT_FALSE(Conv2D(x, Tensor::Zeros(DType::kI8, {2, 4, 3, 3}), p).ok());   // mixed dtypes
  p.strides = {0, 1};
  auto bad = Conv2D(x, Tensor::Zeros(DType::kF32, {2, 4, 3, 3}), p);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Conv2D"), std::string::npos);
  p.strides = {1, 1};
  p.out_dtype = DType::kI32;
  EXPECT_FALSE(Conv2D(x, Tensor::Zeros(DType::kF32, {2, 4, 3, 3}), p).ok());  // f32 -> i32
  EXPECT_FALSE(
      Conv2D(Tensor::Zeros(DType::kF32, {4, 5, 5}), Tensor::Zeros(DType::kF32, {2, 4, 3, 3}), p)
          .ok());
  // Per-channel kernel zero point of the wrong size.
  Tensor xq = Tensor::Zeros(DType::kU8, {1, 4, 5, 5});
  EXPECT_FALSE(QnnConv2D(xq, Tensor::Zeros(DType::kI8, {2, 4, 3, 3}), Tensor::Scalar<uint8_t>(0),
                         Tensor::Zeros(DType::kI8, {3}), p)
                   .ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
