#include "target/implementation.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qnnc::target {

absl::StatusOr<Legalization> ParseLegalization(absl::string_view name) {
  std::vector<std::string> names;
  for (Legalization l : kAllLegalizations) {
    if (name == LegalizationName(l)) return l;
    names.push_back(LegalizationName(l));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown legalization '", name, "' (", absl::StrJoin(names, ", "), ")"));
}

Implementation::IoLayouts KernelIoLayouts(const std::string& data, const std::string& out) {
  absl::StatusOr<ir::Layout> d = ir::Layout::Parse(data), o = ir::Layout::Parse(out);
  if (!d.ok() || !o.ok()) {
    std::fprintf(stderr, "qnnc internal error: a kernel's layouts '%s' and '%s'\n", data.c_str(), out.c_str());
    std::abort();
  }
  return {*std::move(d), *std::move(o)};
}

}  // namespace qnnc::target
