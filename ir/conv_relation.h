// Type relation shared by nn.conv2d and qnn.conv2d.
#ifndef QNNC_IR_CONV_RELATION_H_
#define QNNC_IR_CONV_RELATION_H_

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/types.h"

namespace qnnc::ir::internal {

// Attributes: strides [2] (default 1,1), padding [4] top,left,bottom,right
// (default 0), dilation [2] (default 1,1), groups (default 1), data_layout
// "NCHW"|"NHWC", kernel_layout "OIHW"|"OHWI"|"HWIO". Returns the output
// shape; the caller picks the dtype.
absl::StatusOr<Shape> Conv2DOutputShape(const Node& node, const TensorType& data,
                                        const TensorType& weight);

}  // namespace qnnc::ir::internal

#endif  // QNNC_IR_CONV_RELATION_H_
