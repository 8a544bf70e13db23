// Data layouts such as "NCHW", "NHWC", "NCHW16c" or "OIHW4o": upper case
// letters are axes, a number and a lower case letter split that axis into
// blocks (the inner block). Shapes convert between any two layouts of the
// same axes; a split axis is padded up to a multiple of its block. A Layout
// is parsed and validated once, from an attribute or a named constructor;
// its text (str()) is its one spelling, in attributes, plans and records.
#ifndef QNNC_IR_LAYOUT_H_
#define QNNC_IR_LAYOUT_H_

#include <cstdint>
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

class Layout {
 public:
  // NCHW.
  Layout();
  // Fails on text that is not a layout (InvalidArgument, naming it).
  static absl::StatusOr<Layout> Parse(absl::string_view text);
  static Layout Nchw();
  static Layout Nhwc();
  static Layout Oihw();
  // A dense op's operands: rows by features.
  static Layout Nc();
  // The channel-blocked activation layout NCHW{block}c (block >= 1).
  static Layout ChannelBlocked(int64_t block);

  const std::string& str() const { return text_; }
  const std::vector<LayoutAxis>& axes() const { return axes_; }
  // The block k of NCHW{k}c (16 for NCHW16c), 0 for any other layout.
  int64_t channel_block() const { return channel_block_; }
  bool blocked() const { return channel_block_ > 0; }
  bool is_nchw() const { return text_ == "NCHW"; }
  bool is_nhwc() const { return text_ == "NHWC"; }
  // A layout the kernels may run activations in other than NCHW: NHWC or
  // NCHW{k}c.
  bool altered() const { return blocked() || is_nhwc(); }

  bool operator==(const Layout& other) const { return text_ == other.text_; }
  bool operator!=(const Layout& other) const { return text_ != other.text_; }

 private:
  Layout(std::string text, std::vector<LayoutAxis> axes);

  std::string text_;
  std::vector<LayoutAxis> axes_;
  int64_t channel_block_ = 0;
};

// The layout attribute `name` of `attrs`, `fallback` when not given; an
// error names the attribute.
absl::StatusOr<Layout> LayoutAttr(const Attrs& attrs, absl::string_view name, const Layout& fallback);
absl::StatusOr<Layout> LayoutAttr(const Attrs& attrs, absl::string_view name);

// The attributes of a layout_transform op from `src` to `dst` (activations
// of `channels` channels): `channels` is set only when leaving a blocked
// layout, where it drops the last block's padding.
Attrs LayoutTransformAttrs(const Layout& src, const Layout& dst, int64_t channels);

absl::StatusOr<Shape> TransformLayoutShape(const Shape& shape, const Layout& src, const Layout& dst);

}  // namespace qnnc::ir

#endif  // QNNC_IR_LAYOUT_H_
