// The qnn_elementwise family's kernel factories: qnn.add, qnn.mul and
// qnn.lookup, bound per op whatever the decision (KernelRegistry::RegisterForOp).
// Each factory takes only the nodes its kernel computes exactly like the
// reference and returns nullptr for the rest.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/elementwise/lookup.h"
#include "kernels/elementwise/qnn_add.h"
#include "kernels/elementwise/qnn_mul.h"
#include "runtime/kernel_registry.h"
#include "runtime/node_constants.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;
using kernels::elementwise::QnnBinaryParams;
using Made = absl::StatusOr<std::unique_ptr<PreparedKernel>>;

Made None() { return std::unique_ptr<PreparedKernel>(); }

// qnn.add inputs: a, b, a_scale, a_zero_point, b_scale, b_zero_point,
// output_scale, output_zero_point.
class QnnAddKernel : public PreparedKernel {
 public:
  QnnAddKernel(const QnnBinaryParams& p, DType out_dtype) : p_(p), out_dtype_(out_dtype) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::QnnAddSameShape(in[0], in[1], p_, out_dtype_, &out[0], pool);
  }
  std::string description() const override { return "elementwise qnn_add"; }

 private:
  QnnBinaryParams p_;
  DType out_dtype_;
};

// Same-shape 8-bit adds with constant per-tensor parameters; nullptr (the
// reference kernel) for anything else: broadcasting, wider types, run-time
// parameters.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnAdd(const ir::Node& n) {
  if (n.inputs().size() != 8 || !n.input(0)->type() || !n.input(1)->type() || !n.output()->type()) {
    return std::unique_ptr<PreparedKernel>();
  }
  double v[6];
  for (int i = 0; i < 6; ++i) {
    if (!ConstantScalar(n, i + 2, &v[i])) return std::unique_ptr<PreparedKernel>();
  }
  // Zero points (odd entries) must fit int32 before the cast; the support
  // check then holds them to their dtypes.
  for (int i : {1, 3, 5}) {
    if (!(v[i] >= -2147483648.0 && v[i] <= 2147483647.0)) return std::unique_ptr<PreparedKernel>();
  }
  QnnBinaryParams p;
  p.a_scale = static_cast<float>(v[0]);
  p.a_zero_point = static_cast<int32_t>(v[1]);
  p.b_scale = static_cast<float>(v[2]);
  p.b_zero_point = static_cast<int32_t>(v[3]);
  p.out_scale = static_cast<float>(v[4]);
  p.out_zero_point = static_cast<int32_t>(v[5]);
  const ir::TensorType& a = *n.input(0)->type();
  const ir::TensorType& b = *n.input(1)->type();
  const DType out_dtype = n.output()->type()->dtype;
  // Scales must be f32 as in the reference (a double scale would round).
  for (int i : {2, 4, 6}) {
    if (n.input(i)->data().dtype() != DType::kF32) return std::unique_ptr<PreparedKernel>();
  }
  if (!kernels::elementwise::QnnAddSupported(a.dtype, a.shape, b.dtype, b.shape, p, out_dtype)) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new QnnAddKernel(p, out_dtype));
}

// qnn.mul of 8-bit tensors with constant per-tensor parameters: same shapes
// or a broadcast gate (kernels/elementwise/qnn_mul.h).
class QnnMulKernel : public PreparedKernel {
 public:
  QnnMulKernel(const QnnBinaryParams& p, DType out_dtype) : p_(p), out_dtype_(out_dtype) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::QnnMul(in[0], in[1], p_, out_dtype_, &out[0], pool);
  }
  std::string description() const override { return "elementwise qnn_mul"; }

 private:
  QnnBinaryParams p_;
  DType out_dtype_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnMul(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 8 || !n.input(0)->type() || !n.input(1)->type() || !n.output()->type()) return none();
  double v[6];
  for (int i = 0; i < 6; ++i) {
    if (!ConstantScalar(n, i + 2, &v[i])) return none();
  }
  for (int i : {2, 4, 6}) {
    if (n.input(i)->data().dtype() != DType::kF32) return none();
  }
  for (int i : {1, 3, 5}) {
    if (!(v[i] >= -256.0 && v[i] <= 256.0)) return none();
  }
  QnnBinaryParams p{static_cast<float>(v[0]), static_cast<float>(v[2]), static_cast<float>(v[4]),
                    static_cast<int32_t>(v[1]), static_cast<int32_t>(v[3]), static_cast<int32_t>(v[5])};
  const ir::TensorType& a = *n.input(0)->type();
  const ir::TensorType& b = *n.input(1)->type();
  const DType out_dtype = n.output()->type()->dtype;
  if (!kernels::elementwise::QnnMulSupported(a.dtype, a.shape, b.dtype, b.shape, p, out_dtype)) return none();
  return std::unique_ptr<PreparedKernel>(new QnnMulKernel(p, out_dtype));
}

// qnn.lookup with a constant table.
class LookupKernel : public PreparedKernel {
 public:
  explicit LookupKernel(Tensor table) : table_(std::move(table)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out, pthreadpool_t pool) const override {
    return kernels::elementwise::Lookup(in[0], static_cast<const uint8_t*>(table_.raw_data()), table_.dtype(),
                                        &out[0], pool);
  }
  std::string description() const override { return "elementwise lookup"; }

 private:
  Tensor table_;
};

Made MakeLookup(const ir::Node& n) {
  const ir::Value* table = n.input(1);
  if (!table->is_constant() || table->data().num_elements() != 256 ||
      tensor::DTypeSize(table->data().dtype()) != 1) {
    return None();
  }
  return std::unique_ptr<PreparedKernel>(new LookupKernel(table->data()));
}

}  // namespace

void RegisterQnnElementwiseKernels(KernelRegistry& registry) {
  registry.RegisterForOp("qnn.add", &MakeQnnAdd);
  registry.RegisterForOp("qnn.mul", &MakeQnnMul);
  registry.RegisterForOp("qnn.lookup", &MakeLookup);
}

}  // namespace qnnc::runtime
