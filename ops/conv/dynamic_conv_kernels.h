// Registration of the dynamically quantized convolutions' kernels, the part
// of the conv family's factories that RegisterConvKernels adds. Not a public API.
#ifndef QNNC_OPS_CONV_DYNAMIC_CONV_KERNELS_H_
#define QNNC_OPS_CONV_DYNAMIC_CONV_KERNELS_H_

#include "runtime/kernel_registry.h"

namespace qnnc::runtime {

// Registers the dynamically quantized convolutions' kernels
// (kernels/spatial_pack/dynamic_conv.h): qnn.conv2d with a run-time data zero
// point and qnn.conv2d_dynamic. Defined in ops/conv/dynamic_conv_kernels.cc.
void RegisterDynamicConvKernels(KernelRegistry& registry);

}  // namespace qnnc::runtime

#endif  // QNNC_OPS_CONV_DYNAMIC_CONV_KERNELS_H_
