#include "ops/pool/pool_params.h"

#include "util/status_macros.h"

namespace qnnc::eval {

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

}  // namespace qnnc::eval
