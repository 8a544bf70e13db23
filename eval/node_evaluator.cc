#include "eval/node_evaluator.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "eval/internal/kernel_table.h"
#include "util/status_macros.h"

namespace qnnc::eval {
namespace internal {

absl::StatusOr<tensor::DType> DTypeAttr(const ir::Node& n, const char* name, tensor::DType dflt) {
  ASSIGN_OR_RETURN(std::string s, n.attrs().GetString(name, tensor::DTypeName(dflt)));
  return tensor::ParseDType(s);
}

absl::Status ExpectLayout(const char* attr, const std::string& got, const char* layout) {
  if (got != layout) {
    return absl::UnimplementedError(
        absl::StrCat("the reference kernel needs ", attr, " ", layout, ", got ", got));
  }
  return absl::OkStatus();
}

}  // namespace internal

namespace {

const internal::KernelTable& Kernels() {
  static const internal::KernelTable* const kernels = [] {
    auto* table = new internal::KernelTable;
    internal::AddQuantizeKernels(table);
    internal::AddQnnElementwiseKernels(table);
    internal::AddConvKernels(table);
    internal::AddDenseKernels(table);
    internal::AddPoolKernels(table);
    internal::AddElementwiseKernels(table);
    internal::AddLayoutKernels(table);
    internal::AddDataMovementKernels(table);
    return table;
  }();
  return *kernels;
}

}  // namespace

absl::StatusOr<kernels::reference::Pool2DParams> Pool2DParamsOf(const ir::Node& n) {
  ASSIGN_OR_RETURN(ir::Pool2DView v, ir::Pool2DView::Of(n));
  return Pool2DParamsOf(v);
}

kernels::reference::Pool2DParams Pool2DParamsOf(const ir::Pool2DView& v) {
  kernels::reference::Pool2DParams p;
  p.geometry() = v.geometry();
  p.kernel = v.pool_size;
  p.ceil_mode = v.ceil_mode;
  p.count_include_pad = v.count_include_pad;
  return p;
}

absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool) {
  auto it = Kernels().find(node.op());
  if (it == Kernels().end()) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": no reference kernel"));
  }
  auto result = it->second(node, inputs, pool);
  if (!result.ok()) {
    return absl::Status(result.status().code(),
                        absl::StrCat(node.Describe(), ": ", result.status().message()));
  }
  if (result->size() != node.outputs().size()) {
    return absl::InternalError(absl::StrCat(node.Describe(), ": kernel returned ", result->size(),
                                            " results"));
  }
  return result;
}

}  // namespace qnnc::eval
