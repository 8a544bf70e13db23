// The files a compile run reads and compares: the model's inputs (given
// by --input, synthetic, or an ONNX test_data_set folder) and the expected
// outputs, chosen from the flags by ResolveRunFiles.
#ifndef QNNC_TOOLS_MODEL_INPUTS_H_
#define QNNC_TOOLS_MODEL_INPUTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "tensor/tensor.h"

namespace qnnc::tools {

// A deterministic pseudo-random tensor (the same on every machine).
tensor::Tensor SyntheticInput(const ir::TensorType& type);

// --input=PATH or --input=NAME=PATH, repeatable: taken out of argv before
// absl parses the rest (absl keeps only the last value of a repeated flag).
std::vector<std::string> ExtractRepeated(int& argc, char** argv, const std::string& flag);

// The graph's inputs from `specs` (PATH by position or NAME=PATH, paths as
// the user gave them); an input no spec names is SyntheticInput.
absl::StatusOr<std::vector<tensor::Tensor>> ReadInputs(const ir::Graph& g,
                                                       const std::vector<std::string>& specs);

// Files of an ONNX test_data_set folder: input_0.pb, input_1.pb, ...
std::vector<std::string> NumberedFiles(const std::string& dir, const std::string& prefix);

// What a run reads and compares, from the flags: --test-data (a folder,
// replacing --input and --expect), --expect (needs --input, except for the
// bundled model), or for the bundled model its input and ONNX Runtime's
// output. Paths are resolved; `input_specs` comes in as --input gave them.
struct RunFiles {
  std::vector<std::string> input_specs;
  std::vector<std::string> expect_files;
};
absl::StatusOr<RunFiles> ResolveRunFiles(std::vector<std::string> input_specs,
                                         const std::string& test_data, const std::string& expect,
                                         bool default_model);

// The bundled default model and its data (testdata/models).
inline constexpr char kDefaultModel[] = "testdata/models/mobilenet_v2_qdq.onnx";
inline constexpr char kDefaultInput[] = "testdata/models/mobilenet_v2_qdq.input.f32";
inline constexpr char kDefaultExpect[] = "testdata/models/mobilenet_v2_qdq.ort_output.f32";

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_MODEL_INPUTS_H_
