// The window attributes shared by Conv, QLinearConv, ConvInteger, MaxPool and
// AveragePool: kernel, strides, pads (with auto_pad resolved against the
// static input shape) and dilations, as IR attributes.
#ifndef QNNC_FRONTEND_ONNX_WINDOW_ATTRS_H_
#define QNNC_FRONTEND_ONNX_WINDOW_ATTRS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "frontend/onnx/converter.h"
#include "ir/types.h"

namespace qnnc::frontend::onnx {

struct Window {
  std::vector<int64_t> kernel;    // [kh, kw]
  std::vector<int64_t> strides;   // [sh, sw]
  std::vector<int64_t> padding;   // [top, left, bottom, right]
  std::vector<int64_t> dilation;  // [dh, dw]
};

// `kernel` is the spatial size from the weight (conv) or empty to read the
// kernel_shape attribute (pool). Only 2-D windows over NCHW data are
// supported (anything else is UnimplementedError).
absl::StatusOr<Window> ReadWindow(const NodeContext& ctx, const ir::TensorType& data,
                                  std::vector<int64_t> kernel);

// Conv attributes of the IR (strides, padding, dilation, groups) from the
// ONNX node and the data and weight types.
absl::StatusOr<ir::Attrs> ConvAttrs(const NodeContext& ctx, const ir::TensorType& data,
                                    const ir::TensorType& weight);

// Pool attributes of the IR (pool_size, strides, padding, ceil_mode and
// dilation when not 1) of MaxPool/AveragePool's data, input 0.
absl::StatusOr<ir::Attrs> PoolAttrs(const NodeContext& ctx);
// PoolAttrs plus count_include_pad, for AveragePool and QLinearAveragePool
// (dilation refused).
absl::StatusOr<ir::Attrs> AveragePoolAttrs(const NodeContext& ctx);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_WINDOW_ATTRS_H_
