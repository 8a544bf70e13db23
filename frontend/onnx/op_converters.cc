#include "frontend/onnx/op_converters.h"

namespace qnnc::frontend::onnx {

const ConverterTable& OnnxConverters() {
  static const ConverterTable* table = [] {
    auto* t = new ConverterTable();
    RegisterNnConverters(*t);
    RegisterBatchNormConverter(*t);
    RegisterTensorConverters(*t);
    RegisterShapeConverters(*t);
    RegisterSliceConverters(*t);
    RegisterActivationConverters(*t);
    RegisterQnnConverters(*t);
    return t;
  }();
  return *table;
}

const ConverterTable* ConvertersOfDomain(const std::string& domain) {
  if (domain.empty() || domain == "ai.onnx") return &OnnxConverters();
  if (domain == "com.microsoft") {
    static const ConverterTable* table = [] {
      auto* t = new ConverterTable();
      RegisterMicrosoftConverters(*t);
      return t;
    }();
    return table;
  }
  return nullptr;
}

}  // namespace qnnc::frontend::onnx
