// The pool family's kernel factories: the pooling ops and reduce_mean.
//
// Kernels of the pooling ops, bound per op: 8-bit nn.max_pool2d, f32
// nn.avg_pool2d and nn.global_avg_pool2d, qnn.global_avg_pool2d, and
// reduce_mean over H and W. Each factory returns nullptr (the reference
// kernel) for the nodes its kernel does not cover.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ops/pool/pool_params.h"
#include "ir/elementwise_views.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "kernels/pool/avg_pool.h"
#include "kernels/pool/global_avg_pool.h"
#include "kernels/pool/max_pool.h"
#include "kernels/pool/quantized_global_avg_pool.h"
#include "runtime/kernel_registry.h"
#include "runtime/node_constants.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

class GlobalAvgPoolKernel : public PreparedKernel {
 public:
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::GlobalAvgPool2DF32(in[0], &out[0], pool);
  }
  std::string description() const override { return "pool global average f32"; }
};

// f32 NCHW or NCHW{k}c; nullptr (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeGlobalAvgPool(const ir::Node& n) {
  auto view = ir::GlobalPoolView::Of(n);
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32 ||
      !view.ok()) {
    return std::unique_ptr<PreparedKernel>();
  }
  const size_t rank = n.input(0)->type()->shape.size();
  if (!(view->layout.is_nchw() && rank == 4) && !(view->layout.blocked() && rank == 5)) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new GlobalAvgPoolKernel());
}

// qnn.global_avg_pool2d of 8-bit NCHW or NCHW{k}c with constant per-tensor
// parameters; nullptr (the reference: the three ops it fuses) otherwise.
class QnnGlobalAvgPoolKernel : public PreparedKernel {
 public:
  explicit QnnGlobalAvgPoolKernel(kernels::pool::GlobalPoolQuantization q) : q_(q) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::QuantizedGlobalAvgPool2D(in[0], q_, &out[0], pool);
  }
  std::string description() const override { return "pool global average 8-bit (float means)"; }

 private:
  kernels::pool::GlobalPoolQuantization q_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnGlobalAvgPool(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  auto view = ir::GlobalPoolView::Of(n);
  if (n.inputs().size() != 5 || !n.input(0)->type() || !n.output()->type() || !view.ok()) return none();
  const size_t rank = n.input(0)->type()->shape.size();
  if (!(view->layout.is_nchw() && rank == 4) && !(view->layout.blocked() && rank == 5)) return none();
  double v[4];
  for (int i = 0; i < 4; ++i) {
    if (!ConstantScalar(n, i + 1, &v[i])) return none();
  }
  for (int i : {1, 3}) {  // scales f32, zero points integers
    if (n.input(i)->data().dtype() != DType::kF32 || !tensor::IsInteger(n.input(i + 1)->data().dtype())) {
      return none();
    }
  }
  for (int i : {1, 3}) {
    if (!(v[i] >= -256.0 && v[i] <= 256.0)) return none();
  }
  kernels::pool::GlobalPoolQuantization q{static_cast<float>(v[0]), static_cast<int32_t>(v[1]),
                                          static_cast<float>(v[2]), static_cast<int32_t>(v[3]),
                                          n.output()->type()->dtype};
  if (!kernels::pool::QuantizedGlobalAvgPoolSupported(n.input(0)->type()->dtype, q)) return none();
  return std::unique_ptr<PreparedKernel>(new QnnGlobalAvgPoolKernel(q));
}

// reduce_mean of f32 NCHW over H and W (ShuffleNet's head) is a global
// average pool: the reference sums each plane in index order in float and
// divides by the count, as the pool kernel does. The result is the pool's
// [N, C, 1, 1], reshaped to the node's shape.
class ReduceMeanHwKernel : public PreparedKernel {
 public:
  explicit ReduceMeanHwKernel(tensor::Shape shape) : shape_(std::move(shape)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    Tensor pooled;
    if (out[0].defined()) {
      ASSIGN_OR_RETURN(pooled, out[0].Reshaped({in[0].dim(0), in[0].dim(1), 1, 1}));
    }
    RETURN_IF_ERROR(kernels::pool::GlobalAvgPool2DF32(in[0], &pooled, pool));
    ASSIGN_OR_RETURN(out[0], pooled.Reshaped(shape_));
    return absl::OkStatus();
  }
  std::string description() const override { return "pool global average f32 (reduce_mean)"; }

 private:
  tensor::Shape shape_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeReduceMean(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 1 || !n.input(0)->type() || !n.output()->type() ||
      n.input(0)->type()->dtype != DType::kF32 || n.input(0)->type()->rank() != 4) {
    return none();
  }
  auto view = ir::ReduceView::Of(n);
  if (!view.ok()) return none();
  std::vector<int64_t> a;
  for (int64_t v : view->axes) a.push_back(v < 0 ? v + 4 : v);
  std::sort(a.begin(), a.end());
  if (a != std::vector<int64_t>{2, 3}) return none();
  return std::unique_ptr<PreparedKernel>(new ReduceMeanHwKernel(n.output()->type()->shape));
}

class MaxPoolKernel : public PreparedKernel {
 public:
  MaxPoolKernel(const kernels::reference::Pool2DParams& p, bool nhwc) : p_(p), nhwc_(nhwc) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (!nhwc_) return kernels::pool::MaxPool2D(in[0], p_, &out[0], pool);
    // NHWC [N, H, W, C] is NCHW{C}c with one block: [N, 1, H, W, C].
    const tensor::Shape& s = in[0].shape();
    if (s.size() != 4) return absl::InvalidArgumentError("an NHWC max pool needs a rank-4 input");
    ASSIGN_OR_RETURN(Tensor blocked, in[0].Reshaped({s[0], 1, s[1], s[2], s[3]}));
    // The planned output, seen the same way, is written in place.
    Tensor pooled;
    if (out[0].defined()) {
      const tensor::Shape& o = out[0].shape();
      ASSIGN_OR_RETURN(pooled, out[0].Reshaped({o[0], 1, o[1], o[2], o[3]}));
    }
    RETURN_IF_ERROR(kernels::pool::MaxPool2D(blocked, p_, &pooled, pool));
    const tensor::Shape& o = pooled.shape();
    ASSIGN_OR_RETURN(out[0], pooled.Reshaped({o[0], o[2], o[3], o[4]}));
    return absl::OkStatus();
  }
  std::string description() const override { return nhwc_ ? "pool max NHWC" : "pool max"; }

 private:
  kernels::reference::Pool2DParams p_;
  bool nhwc_;
};

// u8/i8 nn.max_pool2d in NCHW, NHWC or NCHW{k}c; nullptr (the reference)
// otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeMaxPool(const ir::Node& n) {
  if (n.inputs().size() != 1 || !n.input(0)->type()) return std::unique_ptr<PreparedKernel>();
  const DType dt = n.input(0)->type()->dtype;
  auto view = ir::Pool2DView::Of(n);
  if ((dt != DType::kU8 && dt != DType::kI8 && dt != DType::kF32) || !view.ok() ||
      !(view->layout.is_nchw() || view->layout.altered()) ||
      !view->has_pool_size) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new MaxPoolKernel(eval::Pool2DParamsOf(*view), view->layout.is_nhwc()));
}

class AvgPoolKernel : public PreparedKernel {
 public:
  explicit AvgPoolKernel(const kernels::reference::Pool2DParams& p) : p_(p) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::AvgPool2DF32(in[0], p_, &out[0], pool);
  }
  std::string description() const override { return "pool average f32"; }

 private:
  kernels::reference::Pool2DParams p_;
};

// f32 nn.avg_pool2d in NCHW or NCHW{k}c; nullptr (the reference) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeAvgPool(const ir::Node& n) {
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32) {
    return std::unique_ptr<PreparedKernel>();
  }
  auto view = ir::Pool2DView::Of(n);
  if (!view.ok() || !(view->layout.is_nchw() || view->layout.blocked()) || view->dilation[0] != 1 ||
      view->dilation[1] != 1 || !view->has_pool_size) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new AvgPoolKernel(eval::Pool2DParamsOf(*view)));
}

}  // namespace

void RegisterPoolKernels(KernelRegistry& registry) {
  registry.RegisterForOp("nn.avg_pool2d", &MakeAvgPool);
  registry.RegisterForOp("nn.max_pool2d", &MakeMaxPool);
  registry.RegisterForOp("nn.global_avg_pool2d", &MakeGlobalAvgPool);
  registry.RegisterForOp("qnn.global_avg_pool2d", &MakeQnnGlobalAvgPool);
  registry.RegisterForOp("reduce_mean", &MakeReduceMean);
}

}  // namespace qnnc::runtime
