// Helpers shared by the convolution kernel factories (ops/conv/conv_kernels.cc,
// ops/conv/dynamic_conv_kernels.cc). Not a public API.
#ifndef QNNC_OPS_CONV_CONV_KERNEL_UTIL_H_
#define QNNC_OPS_CONV_CONV_KERNEL_UTIL_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "kernels/spatial_pack/conv2d.h"
#include "runtime/kernel_registry.h"

namespace qnnc::runtime {

// The decision's `config` attribute as spatial-pack knobs.
absl::StatusOr<kernels::spatial_pack::KnobMap> Knobs(const ir::Node& n);

// A kernel checked and described for a plan, not created: its instruction
// set `isa` is one this host may not use (its Run fails and says so).
std::unique_ptr<PreparedKernel> MakeDescribedKernel(std::string description, std::string isa);

}  // namespace qnnc::runtime

#endif  // QNNC_OPS_CONV_CONV_KERNEL_UTIL_H_
