// Options of the ONNX import.
#ifndef QNNC_FRONTEND_ONNX_IMPORT_OPTIONS_H_
#define QNNC_FRONTEND_ONNX_IMPORT_OPTIONS_H_

#include <map>
#include <string>

#include "tensor/tensor.h"

namespace qnnc::frontend::onnx {

struct ImportOptions {
  // Static shapes of graph inputs by name. Required for inputs whose model
  // shape has symbolic or unknown dimensions; replaces the model's shape
  // (the rank must agree when the model gives one).
  std::map<std::string, tensor::Shape> input_shapes;
  // Graph inputs frozen to these values: they become constants, so that
  // operands the importer must resolve (Slice's starts, Pad's pads, a
  // Reshape's shape) may be given as inputs. Dtype and shape must match the
  // model's declaration where it gives one.
  std::map<std::string, tensor::Tensor> constant_inputs;
  // After the raw conversion, the import clean-up (passes::ImportPipeline):
  // fold constant ops, rewrite QDQ patterns into integer ops (FuseQdq), fold
  // again, remove dead code. Without clean_up the raw, typed conversion comes
  // back, for callers that run passes::ImportPipeline() through their own
  // PassManager (//tools:compile, //tools:opt).
  bool clean_up = true;
  bool fold_constants = true;
  bool fuse_qdq = true;
  // Memory limit of the model's constants (initializers, Constant nodes and
  // folded results): a model needing more is refused before allocation.
  int64_t max_bytes = tensor::kDefaultMaxBytes;
};

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_IMPORT_OPTIONS_H_
