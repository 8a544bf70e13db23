#include "kernels/spatial_pack/weight_pairs.h"

#include <algorithm>
#include <vector>

namespace qnnc::kernels::spatial_pack {

int64_t MaxWeightPairSum(const int16_t* w, const tensor::Shape& shape, int64_t groups) {
  const int64_t oc_count = shape[0], cg = shape[1];
  const int64_t kk = shape[2] * shape[3], og = std::max<int64_t>(1, oc_count / groups);
  int64_t worst = 0;
  for (int64_t oc = 0; oc < oc_count; ++oc) {
    const int64_t lo = (oc / og) * cg, hi = lo + cg;  // the group's input channels
    for (int64_t k = 0; k < kk; ++k) {
      for (int64_t m = lo / 2; 2 * m < hi; ++m) {
        int64_t pos = 0, neg = 0;
        for (int64_t ic = 2 * m; ic <= 2 * m + 1; ++ic) {
          if (ic < lo || ic >= hi) continue;
          const int64_t v = w[(oc * cg + (ic - lo)) * kk + k];
          (v > 0 ? pos : neg) += v > 0 ? v : -v;
        }
        worst = std::max({worst, pos, neg});
      }
    }
  }
  return worst;
}

int64_t MaxWeightPairSum(const tensor::Tensor& weight, int64_t groups) {
  std::vector<int16_t> w(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return MaxWeightPairSum(w.data(), weight.shape(), groups);
}

}  // namespace qnnc::kernels::spatial_pack
