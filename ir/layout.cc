#include "ir/layout.h"

#include <cctype>
#include <map>

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

int64_t ChannelBlock(absl::string_view layout) {
  if (layout.size() < 6 || layout.substr(0, 4) != "NCHW" || layout.back() != 'c') return 0;
  int64_t k = 0;
  for (size_t i = 4; i + 1 < layout.size(); ++i) {
    if (layout[i] < '0' || layout[i] > '9' || k > 4096) return 0;
    k = k * 10 + (layout[i] - '0');
  }
  return k;
}

absl::StatusOr<Shape> TransformLayoutShape(const Shape& shape, absl::string_view src,
                                           absl::string_view dst) {
  ASSIGN_OR_RETURN(auto s, ParseLayout(src));
  ASSIGN_OR_RETURN(auto d, ParseLayout(dst));
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

Attrs LayoutTransformAttrs(const std::string& src, const std::string& dst, int64_t channels) {
  Attrs a;
  a.Set("src_layout", src);
  a.Set("dst_layout", dst);
  if (channels > 0 && ChannelBlock(src) > 0) a.Set("channels", channels);
  return a;
}

}  // namespace qnnc::ir
