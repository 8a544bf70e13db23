// Walking a constant weight's offsets w - zw (the kernel zero point, one
// per tensor or per output channel), with typed loops for the 8-bit
// weights every quantized model has: workloads and legalizations run this
// over every weight of a model.
#ifndef QNNC_TARGET_WEIGHT_OFFSETS_H_
#define QNNC_TARGET_WEIGHT_OFFSETS_H_

#include <algorithm>
#include <cstdint>

#include "tensor/tensor.h"

namespace qnnc::target {

// The kernel zero point of output channel (row) `o`.
inline int64_t RowZeroPoint(const tensor::Tensor& zt, int64_t o) {
  return zt.GetAsInt(zt.num_elements() == 1 ? 0 : std::min(o, zt.num_elements() - 1));
}

// Calls f(o, i, w[i] - zw) for every weight i, row (output channel) o by
// row.
template <typename F>
void ForEachWeightOffset(const tensor::Tensor& wt, const tensor::Tensor& zt, F&& f) {
  const int64_t rows = wt.rank() > 0 ? wt.dim(0) : 1;
  const int64_t per_row = rows ? wt.num_elements() / rows : 0;
  for (int64_t o = 0; o < rows; ++o) {
    const int64_t z = RowZeroPoint(zt, o);
    const int64_t base = o * per_row;
    if (wt.dtype() == tensor::DType::kI8) {
      const int8_t* row = wt.data<int8_t>() + base;
      for (int64_t k = 0; k < per_row; ++k) f(o, base + k, row[k] - z);
    } else if (wt.dtype() == tensor::DType::kU8) {
      const uint8_t* row = wt.data<uint8_t>() + base;
      for (int64_t k = 0; k < per_row; ++k) f(o, base + k, row[k] - z);
    } else {
      for (int64_t k = 0; k < per_row; ++k) f(o, base + k, wt.GetAsInt(base + k) - z);
    }
  }
}

}  // namespace qnnc::target

#endif  // QNNC_TARGET_WEIGHT_OFFSETS_H_
