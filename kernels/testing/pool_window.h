// Pool2DParams from a window's fields in one call, for tables of test cases
// (the params derive from tensor::ConvGeometry, so brace lists do not fit).
#ifndef QNNC_KERNELS_TESTING_POOL_WINDOW_H_
#define QNNC_KERNELS_TESTING_POOL_WINDOW_H_

#include <array>
#include <cstdint>

#include "kernels/reference/pool.h"

namespace qnnc::kernels::testing {

inline reference::Pool2DParams PoolWindow(std::array<int64_t, 2> kernel, std::array<int64_t, 2> strides,
                                          std::array<int64_t, 4> pads, std::array<int64_t, 2> dilation,
                                          bool ceil_mode, bool count_include_pad = false) {
  reference::Pool2DParams p;
  p.kernel = kernel;
  p.strides = strides;
  p.pads = pads;
  p.dilation = dilation;
  p.ceil_mode = ceil_mode;
  p.count_include_pad = count_include_pad;
  return p;
}

}  // namespace qnnc::kernels::testing

#endif  // QNNC_KERNELS_TESTING_POOL_WINDOW_H_
