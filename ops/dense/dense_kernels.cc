// The dense family's kernel factories: nn.dense, qnn.matmul, qnn.dense with a
// run-time data zero point, and nn.bias_add.
//
// Kernels of the matrix products, bound per op: integer nn.dense
// (kernels/dense/int8_dense.h) and qnn.matmul with a constant right operand
// (kernels/dense/qnn_matmul.h). Each factory returns nullptr (the reference
// kernel) for the nodes its kernel does not cover.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/op_views.h"
#include "kernels/dense/int8_dense.h"
#include "kernels/dense/qnn_matmul.h"
#include "kernels/elementwise/channel_ops.h"
#include "kernels/spatial_pack/variants.h"
#include "runtime/kernel_registry.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

// nn.dense inputs: data, weight.
class DenseKernel : public PreparedKernel {
 public:
  explicit DenseKernel(std::unique_ptr<kernels::dense::Int8Dense> dense)
      : dense_(std::move(dense)) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return dense_->Run(in[0], &out[0], pool);
  }
  std::string description() const override { return "dense int8"; }

 private:
  std::unique_ptr<kernels::dense::Int8Dense> dense_;
};

// Integer nn.dense: u8/i8 data, constant i8 weights [N, K], i32 result;
// nullptr (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeDense(const ir::Node& n) {
  if (n.inputs().size() != 2 || !n.input(0)->type() || !n.output()->type() ||
      !n.input(1)->is_constant() || n.output()->type()->dtype != DType::kI32) {
    return std::unique_ptr<PreparedKernel>();
  }
  const DType data = n.input(0)->type()->dtype;
  const Tensor& w = n.input(1)->data();
  if ((data != DType::kU8 && data != DType::kI8) || w.dtype() != DType::kI8 || w.rank() != 2) {
    return std::unique_ptr<PreparedKernel>();
  }
  ASSIGN_OR_RETURN(auto dense, kernels::dense::Int8Dense::Create(w, data));
  return std::unique_ptr<PreparedKernel>(new DenseKernel(std::move(dense)));
}

// MatMulInteger with a constant 2-D right operand and its zero point
// (dynamically quantized MatMul); a's zero point is read per run.
class QnnMatMulKernel : public PreparedKernel {
 public:
  explicit QnnMatMulKernel(std::unique_ptr<kernels::dense::QnnMatMulConstB> mm) : mm_(std::move(mm)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (in[2].num_elements() != 1) {
      return absl::InvalidArgumentError("qnn.matmul: a's zero point must hold one value");
    }
    return mm_->Run(in[0], static_cast<int32_t>(in[2].GetAsInt(0)), &out[0], pool);
  }
  std::string description() const override { return "dense qnn_matmul const_b"; }

 private:
  std::unique_ptr<kernels::dense::QnnMatMulConstB> mm_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnMatMul(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 6 || !n.input(0)->type() || !n.input(1)->is_constant() ||
      !n.input(3)->is_constant() || n.input(1)->data().rank() != 2) {
    return none();
  }
  auto mm = kernels::dense::QnnMatMulConstB::Create(n.input(1)->data(), n.input(3)->data(),
                                                    n.input(0)->type()->dtype);
  if (!mm.ok()) return none();  // e.g. 16-bit operands: the reference kernel
  return std::unique_ptr<PreparedKernel>(new QnnMatMulKernel(*std::move(mm)));
}

// Inputs of qnn.dense with a run-time data zero point (the first four as
// qnn.conv2d's).
enum Input { kData, kWeight, kInZp, kKernelZp };

// A dense layer with a run-time data zero point (MatMulInteger): the
// weight [N, K] minus its zero point and its row sums at load, the zero
// point's compensation per run (kernels/dense/qnn_matmul.h).
class DynamicDenseKernel : public PreparedKernel {
 public:
  explicit DynamicDenseKernel(std::unique_ptr<kernels::dense::QnnMatMulConstB> mm) : mm_(std::move(mm)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (in[kInZp].num_elements() != 1) {
      return absl::InvalidArgumentError("dynamic dense: the input zero point must hold one value");
    }
    return mm_->Run(in[kData], static_cast<int32_t>(in[kInZp].GetAsInt(0)), &out[0], pool);
  }
  std::string description() const override { return "dense qnn_matmul dynamic"; }

 private:
  std::unique_ptr<kernels::dense::QnnMatMulConstB> mm_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> CreateDense(const ir::Node& n) {
  if (!n.input(kWeight)->is_constant() || !n.input(kKernelZp)->is_constant() || !n.input(kData)->type()) {
    return absl::FailedPreconditionError(
        absl::StrCat(n.Describe(), ": weight and kernel zero point must be constants"));
  }
  auto mm = kernels::dense::QnnMatMulConstB::Create(n.input(kWeight)->data(), n.input(kKernelZp)->data(),
                                                    n.input(kData)->type()->dtype, true);
  if (!mm.ok()) return absl::Status(mm.status().code(), absl::StrCat(n.Describe(), ": ", mm.status().message()));
  return std::unique_ptr<PreparedKernel>(new DynamicDenseKernel(*std::move(mm)));
}

// nn.bias_add of i32 or f32 along its axis (a dense layer's bias).
class BiasAddKernel : public PreparedKernel {
 public:
  explicit BiasAddKernel(int64_t axis) : axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::BiasAdd(in[0], in[1], axis_, &out[0], pool);
  }
  std::string description() const override { return "elementwise bias_add"; }

 private:
  int64_t axis_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeBiasAdd(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 2 || !n.input(0)->type() || !n.input(1)->type()) return none();
  const DType dt = n.input(0)->type()->dtype;
  auto view = ir::AxisView::Of(n);
  if ((dt != DType::kI32 && dt != DType::kF32) || n.input(1)->type()->dtype != dt || !view.ok()) return none();
  const absl::StatusOr<int64_t> axis = view->AxisFor(n.input(0)->type()->rank());
  if (!axis.ok()) return none();
  return std::unique_ptr<PreparedKernel>(new BiasAddKernel(*axis));
}

}  // namespace

void RegisterDenseKernels(KernelRegistry& registry) {
  registry.RegisterForOp("nn.dense", &MakeDense);
  // The integer nn.dense the u8 x s8 legalization leaves, bound by its
  // decision (the int8 dense kernel takes no tiles, so those
  // implementations give dense workloads an empty config space).
  for (const kernels::spatial_pack::U8S8Variant& v : kernels::spatial_pack::kU8S8Variants) {
    if (v.implementation != nullptr && v.dense_op) registry.Register("nn.dense", v.implementation, &MakeDense);
  }
  registry.Register("nn.dense", kernels::spatial_pack::kU8S8DenseAnyCpuImplementation, &MakeDense);
  registry.RegisterForOp("qnn.matmul", &MakeQnnMatMul);
  for (const kernels::spatial_pack::DynamicVariant& v : kernels::spatial_pack::kDynamicVariants) {
    registry.Register("qnn.dense", v.implementation, &CreateDense);
  }
  registry.RegisterForOp("nn.bias_add", &MakeBiasAdd);
}

}  // namespace qnnc::runtime
