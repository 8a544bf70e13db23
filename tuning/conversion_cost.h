// What a candidate costs beyond its kernel inside a model: converting its
// neighbours' activations into the layout it reads, and its result back.
// A lone op's kernel time ignores that (its transforms cancel against its
// neighbours' only when they run in the same layout), so a candidate whose
// layouts differ from the model's (say XNNPACK's NHWC among NCHW16c
// spatial-pack layers) would win a tune and lose in the model.
#ifndef QNNC_TUNING_CONVERSION_COST_H_
#define QNNC_TUNING_CONVERSION_COST_H_

#include <string>

#include "absl/status/statusor.h"
#include "ir/layout.h"
#include "ir/types.h"

namespace qnnc::tuning {

// The median seconds of the layout transforms the compiled graph runs to
// turn a tensor held in `from` into `to` (through NCHW, as SimplifyLayout
// leaves them: at most two), for a tensor of type `nchw`. 0 when the
// layouts are equal. Measured with the executor at `threads`.
absl::StatusOr<double> ConversionSeconds(const ir::TensorType& nchw, const ir::Layout& from,
                                         const ir::Layout& to, int threads, int warmup,
                                         int repeats);

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_CONVERSION_COST_H_
