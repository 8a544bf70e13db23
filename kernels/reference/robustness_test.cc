// Every kernel rejects undefined tensors and absurd parameters with an error
// naming the kernel, instead of crashing.
#include <string>

#include "gtest/gtest.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/dense.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/pool.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/reference/quantize.h"
#include "kernels/reference/reduce.h"
#include "kernels/reference/requantize.h"
#include "kernels/reference/resize.h"
#include "kernels/reference/unary.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;

template <typename T>
void ExpectError(const absl::StatusOr<T>& r, const std::string& kernel) {
  ASSERT_FALSE(r.ok()) << kernel;
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << kernel;
  EXPECT_NE(r.status().message().find(kernel), std::string::npos) << r.status();
}

TEST(RobustnessTest, UndefinedTensors) {
  const Tensor u;
  const Tensor f = Tensor::Zeros(DType::kF32, {1, 1, 2, 2});
  const Tensor s = Tensor::Scalar<float>(1), z = Tensor::Scalar<uint8_t>(0);
  ExpectError(Conv2D(u, f, {}), "Conv2D");
  ExpectError(QnnConv2D(Tensor::Zeros(DType::kU8, {1, 1, 2, 2}),
                        Tensor::Zeros(DType::kU8, {1, 1, 1, 1}), u, z, {}),
              "QnnConv2D");
  ExpectError(DenseF32(u, u), "DenseF32");
  ExpectError(MatMul(u, f), "MatMul");
  ExpectError(Requantize(u, s, z, s, z, 0, DType::kU8), "Requantize");
  ExpectError(Quantize(u, s, z, 0, DType::kU8), "Quantize");
  ExpectError(Dequantize(u, s, z, 0), "Dequantize");
  ExpectError(DynamicQuantize(u), "DynamicQuantize");
  ExpectError(Add(u, f), "Add");
  ExpectError(BiasAdd(f, u, 1), "BiasAdd");
  ExpectError(Relu(u), "Relu");
  ExpectError(Clip(u, 0, 1), "Clip");
  ExpectError(Cast(u, DType::kI8), "Cast");
  ExpectError(Transpose(u, {}), "Transpose");
  ExpectError(Concat({f, u}, 0), "Concat");
  ExpectError(Pad(u, {}), "Pad");
  ExpectError(Reshape(u, {}), "Reshape");
  ExpectError(LayoutTransform(u, "NCHW", "NHWC"), "LayoutTransform");
  ExpectError(QnnAdd(u, s, z, u, s, z, s, z, DType::kU8), "QnnAdd");
  ExpectError(MaxPool2D(u, {}), "MaxPool2D");
  ExpectError(GlobalAvgPool2D(u), "GlobalAvgPool2D");
  ExpectError(ReduceSum(u, {}), "ReduceSum");
  ExpectError(Resize2D(u, 2, 2), "Resize2D");
}

TEST(RobustnessTest, HugeParameters) {
  const Tensor x = Tensor::Zeros(DType::kF32, {1, 1, 2, 2});
  Conv2DParams c;
  c.pads = {int64_t{1} << 31, int64_t{1} << 31, int64_t{1} << 31, int64_t{1} << 31};
  ExpectError(Conv2D(x, Tensor::Zeros(DType::kF32, {1 << 20, 1, 1, 1}), c), "Conv2D");  // too large
  c.pads = {0, 0, 0, 0};
  c.dilation = {int64_t{1} << 31, 1};
  ExpectError(Conv2D(x, Tensor::Zeros(DType::kF32, {1, 1, 3, 1}), c), "Conv2D");
  Pool2DParams p;
  p.kernel = {int64_t{1} << 40, 1};
  ExpectError(MaxPool2D(x, p), "MaxPool2D");
  ExpectError(Pad(x, {0, 0, 0, 0, 0, 0, 0, int64_t{1} << 50}), "Pad");
  ExpectError(Resize2D(x, int64_t{1} << 40, int64_t{1} << 40), "Resize2D");
}

}  // namespace
}  // namespace qnnc::kernels::reference
