#include "frontend/onnx/op_converters.h"

namespace qnnc::frontend::onnx {

const ConverterTable& OnnxConverters() {
  static const ConverterTable* table = [] {
    auto* t = new ConverterTable();
    RegisterNnConverters(*t);
    RegisterTensorConverters(*t);
    RegisterShapeConverters(*t);
    RegisterQnnConverters(*t);
    return t;
  }();
  return *table;
}

}  // namespace qnnc::frontend::onnx
