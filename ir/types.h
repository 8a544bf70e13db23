// Tensor types of IR values: a dtype and a static shape.
#ifndef QNNC_IR_TYPES_H_
#define QNNC_IR_TYPES_H_

#include <string>

#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace qnnc::ir {

using tensor::DType;
using tensor::Shape;

struct TensorType {
  DType dtype = DType::kF32;
  Shape shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  bool operator==(const TensorType& o) const { return dtype == o.dtype && shape == o.shape; }
  bool operator!=(const TensorType& o) const { return !(*this == o); }
  // Text form, e.g. "u8[1,3,224,224]"; a scalar is "f32[]".
  std::string ToString() const;
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_TYPES_H_
