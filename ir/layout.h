// Data layout strings such as "NCHW", "NHWC", "NCHW16c" or "OIHW4o": upper
// case letters are axes, a number and a lower case letter split that axis
// into blocks (the inner block). Shapes convert between any two layouts of
// the same axes; a split axis is padded up to a multiple of its block.
#ifndef QNNC_IR_LAYOUT_H_
#define QNNC_IR_LAYOUT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/attributes.h"
#include "ir/types.h"

namespace qnnc::ir {

struct LayoutAxis {
  char name;          // upper case: the primal axis it belongs to
  int64_t block = 0;  // 0 for a primal axis; the block size for a sub-axis
};

absl::StatusOr<std::vector<LayoutAxis>> ParseLayout(absl::string_view layout);
// The block of a channel-blocked activation layout "NCHW{k}c" (16 for
// NCHW16c), 0 for any other layout (NCHW included).
int64_t ChannelBlock(absl::string_view layout);

// The attributes of a layout_transform op from `src` to `dst` (activations
// of `channels` channels): `channels` is set only when leaving a blocked
// layout, where it drops the last block's padding.
Attrs LayoutTransformAttrs(const std::string& src, const std::string& dst, int64_t channels);

absl::StatusOr<Shape> TransformLayoutShape(const Shape& shape, absl::string_view src,
                                           absl::string_view dst);

}  // namespace qnnc::ir

#endif  // QNNC_IR_LAYOUT_H_
