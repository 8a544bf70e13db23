#include "ir/layout.h"

#include <cctype>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::ir {

absl::StatusOr<std::vector<LayoutAxis>> ParseLayout(absl::string_view layout) {
  std::vector<LayoutAxis> axes;
  std::map<char, int> primal, sub;
  for (size_t i = 0; i < layout.size();) {
    char c = layout[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (primal[c]++) return absl::InvalidArgumentError(absl::StrCat("layout '", layout, "' repeats ", std::string(1, c)));
      axes.push_back({c, 0});
      ++i;
      continue;
    }
    int64_t block = 0;
    size_t j = i;
    while (j < layout.size() && std::isdigit(static_cast<unsigned char>(layout[j])) && block < 1 << 20) {
      block = block * 10 + (layout[j++] - '0');
    }
    if (j == i || j >= layout.size() || !std::islower(static_cast<unsigned char>(layout[j])) ||
        block <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad layout '", layout, "' at ", i, ": expected an axis letter or a block like 16c"));
    }
    char axis = static_cast<char>(std::toupper(static_cast<unsigned char>(layout[j])));
    if (sub[axis]++) return absl::InvalidArgumentError(absl::StrCat("layout '", layout, "' splits ", std::string(1, axis), " twice"));
    axes.push_back({axis, block});
    i = j + 1;
  }
  for (const auto& [axis, count] : sub) {
    if (!primal.count(axis)) {
      return absl::InvalidArgumentError(
          absl::StrCat("layout '", layout, "' has a block of ", std::string(1, axis), " but no axis ", std::string(1, axis)));
    }
  }
  return axes;
}

namespace {

// k of "NCHW{k}c", else 0.
int64_t ChannelBlockOf(const std::vector<LayoutAxis>& axes) {
  if (axes.size() != 5 || axes[4].name != 'C' || axes[4].block == 0) return 0;
  const char primal[] = {'N', 'C', 'H', 'W'};
  for (int i = 0; i < 4; ++i) {
    if (axes[i].name != primal[i] || axes[i].block != 0) return 0;
  }
  return axes[4].block;
}

}  // namespace

Layout::Layout() : Layout(Nchw()) {}

Layout::Layout(std::string text, std::vector<LayoutAxis> axes)
    : text_(std::move(text)), axes_(std::move(axes)), channel_block_(ChannelBlockOf(axes_)) {}

absl::StatusOr<Layout> Layout::Parse(absl::string_view text) {
  if (text.empty()) return absl::InvalidArgumentError("empty layout");
  ASSIGN_OR_RETURN(std::vector<LayoutAxis> axes, ParseLayout(text));
  return Layout(std::string(text), std::move(axes));
}

Layout Layout::Nchw() { return Layout("NCHW", {{'N', 0}, {'C', 0}, {'H', 0}, {'W', 0}}); }
Layout Layout::Nhwc() { return Layout("NHWC", {{'N', 0}, {'H', 0}, {'W', 0}, {'C', 0}}); }
Layout Layout::Oihw() { return Layout("OIHW", {{'O', 0}, {'I', 0}, {'H', 0}, {'W', 0}}); }
Layout Layout::Nc() { return Layout("NC", {{'N', 0}, {'C', 0}}); }

Layout Layout::ChannelBlocked(int64_t block) {
  return Layout(absl::StrCat("NCHW", block, "c"), {{'N', 0}, {'C', 0}, {'H', 0}, {'W', 0}, {'C', block}});
}

absl::StatusOr<Layout> LayoutAttr(const Attrs& attrs, absl::string_view name, const Layout& fallback) {
  if (!attrs.Has(name)) return fallback;
  return LayoutAttr(attrs, name);
}

absl::StatusOr<Layout> LayoutAttr(const Attrs& attrs, absl::string_view name) {
  ASSIGN_OR_RETURN(std::string text, attrs.GetString(name));
  absl::StatusOr<Layout> layout = Layout::Parse(text);
  if (!layout.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", layout.status().message()));
  return layout;
}

absl::StatusOr<Shape> TransformLayoutShape(const Shape& shape, const Layout& src_layout,
                                           const Layout& dst_layout) {
  const std::vector<LayoutAxis>& s = src_layout.axes();
  const std::vector<LayoutAxis>& d = dst_layout.axes();
  const std::string& src = src_layout.str();
  const std::string& dst = dst_layout.str();
  if (s.size() != shape.size()) {
    return absl::InvalidArgumentError(absl::StrCat("layout '", src, "' has ", s.size(),
                                                   " axes but the data has rank ", shape.size()));
  }
  // Logical extent of each primal axis (a split axis may carry padding).
  std::map<char, int64_t> extent;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i].block == 0) {
      extent[s[i].name] = extent.count(s[i].name) ? extent[s[i].name] * shape[i] : shape[i];
    } else {
      if (shape[i] != s[i].block) {
        return absl::InvalidArgumentError(absl::StrCat("block axis ", i, " of layout '", src,
                                                       "' must be ", s[i].block, ", got ", shape[i]));
      }
      extent[s[i].name] = extent.count(s[i].name) ? extent[s[i].name] * shape[i] : shape[i];
    }
  }
  std::map<char, bool> dst_primal;
  for (const auto& a : d) {
    if (a.block == 0) dst_primal[a.name] = true;
  }
  if (dst_primal.size() != extent.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("layouts '", src, "' and '", dst, "' have different axes"));
  }
  for (const auto& [axis, unused] : dst_primal) {
    if (!extent.count(axis)) {
      return absl::InvalidArgumentError(
          absl::StrCat("layouts '", src, "' and '", dst, "' have different axes"));
    }
  }
  std::map<char, int64_t> block;
  for (const auto& a : d) {
    if (a.block) block[a.name] = a.block;
  }
  Shape out;
  for (const auto& a : d) {
    if (a.block) {
      out.push_back(a.block);
    } else {
      int64_t b = block.count(a.name) ? block[a.name] : 1;
      out.push_back((extent[a.name] + b - 1) / b);
    }
  }
  return out;
}

Attrs LayoutTransformAttrs(const Layout& src, const Layout& dst, int64_t channels) {
  Attrs a;
  a.Set("src_layout", src.str());
  a.Set("dst_layout", dst.str());
  if (channels > 0 && src.blocked()) a.Set("channels", channels);
  return a;
}

}  // namespace qnnc::ir
