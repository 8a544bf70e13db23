#include "runtime/output_compare.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace qnnc::runtime {
namespace {

std::vector<int64_t> TopK(const tensor::Tensor& t, int k) {
  std::vector<int64_t> idx(t.num_elements());
  std::iota(idx.begin(), idx.end(), 0);
  k = std::min<int>(k, static_cast<int>(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int64_t a, int64_t b) {
    double va = t.GetAsDouble(a), vb = t.GetAsDouble(b);
    return va != vb ? va > vb : a < b;
  });
  idx.resize(k);
  return idx;
}

std::string Index(const tensor::Shape& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    idx[i] = shape[i] ? flat % shape[i] : 0;
    flat = shape[i] ? flat / shape[i] : 0;
  }
  return absl::StrCat("[", absl::StrJoin(idx, ","), "]");
}

}  // namespace

Tolerance ToleranceFor(const ir::Value& output, const Tolerance& fallback) {
  const ir::Node* n = output.producer();
  if (n != nullptr && n->op() == "qnn.dequantize" && n->input(1)->is_constant() &&
      n->input(1)->data().num_elements() == 1) {
    double step = n->input(1)->data().GetAsDouble(0);
    return {2 * step + 1e-6, 0, absl::StrFormat("2 quantization steps of %g", step)};
  }
  return fallback;
}

Comparison CompareTensors(const tensor::Tensor& actual, const tensor::Tensor& expected,
                          const Tolerance& tol) {
  Comparison c;
  if (actual.dtype() != expected.dtype() || actual.num_elements() != expected.num_elements()) {
    c.message = absl::StrCat("expected ", tensor::DTypeName(expected.dtype()), "[",
                             absl::StrJoin(expected.shape(), ","), "], got ",
                             tensor::DTypeName(actual.dtype()), "[",
                             absl::StrJoin(actual.shape(), ","), "]");
    return c;
  }
  bool exact = !tensor::IsFloat(actual.dtype());
  for (int64_t i = 0; i < actual.num_elements(); ++i) {
    double a = actual.GetAsDouble(i), e = expected.GetAsDouble(i);
    double diff = std::isnan(a) != std::isnan(e) ? INFINITY : (std::isnan(a) ? 0 : std::fabs(a - e));
    if (diff > c.max_abs_diff || (c.worst_index < 0 && diff > 0)) {
      c.max_abs_diff = diff;
      c.worst_index = i;
    }
    bool bad = exact ? diff != 0 : diff > tol.atol + tol.rtol * std::fabs(e);
    if (bad) ++c.mismatches;
  }
  int64_t classes = actual.num_elements();
  if (!exact && (actual.rank() == 1 || (actual.rank() == 2 && actual.dim(0) == 1)) && classes >= 5) {
    c.has_topk = true;
    auto ta = TopK(actual, 5), te = TopK(expected, 5);
    c.top1_equal = ta[0] == te[0];
    c.top5_equal = std::set<int64_t>(ta.begin(), ta.end()) == std::set<int64_t>(te.begin(), te.end());
  }
  c.match = c.mismatches == 0 && (!c.has_topk || (c.top1_equal && c.top5_equal));
  std::string where =
      c.worst_index >= 0
          ? absl::StrFormat(" (worst at %s: got %g, expected %g)", Index(actual.shape(), c.worst_index),
                            actual.GetAsDouble(c.worst_index), expected.GetAsDouble(c.worst_index))
          : "";
  std::string topk = c.has_topk ? absl::StrCat(", top-1 ", c.top1_equal ? "same" : "DIFFERENT",
                                               ", top-5 ", c.top5_equal ? "same" : "DIFFERENT")
                                : "";
  if (exact) {
    c.message = c.match ? "exact match"
                        : absl::StrFormat("%d of %d values differ, max |diff| %g%s", c.mismatches,
                                          actual.num_elements(), c.max_abs_diff, where);
  } else {
    c.message = absl::StrFormat("%s: max |diff| %g%s, tolerance %g (%s)%s",
                                c.match ? "match" : "MISMATCH", c.max_abs_diff, where, tol.atol,
                                tol.why, topk);
    if (c.mismatches) absl::StrAppend(&c.message, absl::StrFormat(", %d values out of tolerance", c.mismatches));
  }
  return c;
}

}  // namespace qnnc::runtime
