// Compares an output with its expected value: integer outputs exactly,
// float outputs within |a - e| <= atol + rtol * |e|. For classification-like
// float outputs ([1, N] or [N]) the top-1 and top-5 are compared too.
#ifndef QNNC_RUNTIME_OUTPUT_COMPARE_H_
#define QNNC_RUNTIME_OUTPUT_COMPARE_H_

#include <string>

#include "ir/graph.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

struct Tolerance {
  double atol = 1e-5;
  double rtol = 1e-4;
  std::string why = "default float tolerance";
};

// The tolerance of a float graph output: two quantization steps when it is
// the dequantization of a quantized tensor with a constant per-tensor scale
// (results may differ by a rounding step where kernels round differently),
// else `fallback`.
Tolerance ToleranceFor(const ir::Value& output, const Tolerance& fallback);

struct Comparison {
  bool match = false;
  int64_t mismatches = 0;
  double max_abs_diff = 0;
  int64_t worst_index = -1;
  bool has_topk = false;
  bool top1_equal = false;
  bool top5_equal = false;  // same set of five classes
  std::string message;      // one line: where and by how much, or the match
};

Comparison CompareTensors(const tensor::Tensor& actual, const tensor::Tensor& expected,
                          const Tolerance& tolerance);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_OUTPUT_COMPARE_H_
