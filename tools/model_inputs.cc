#include "tools/model_inputs.h"

#include <filesystem>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "io/tensor_files.h"
#include "tools/tool_paths.h"
#include "util/status_macros.h"

namespace qnnc::tools {

// A deterministic pseudo-random tensor (the same on every machine).
tensor::Tensor SyntheticInput(const ir::TensorType& type) {
  tensor::Tensor t = tensor::Tensor::Zeros(type.dtype, type.shape);
  uint32_t state = 12345;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    state = state * 1664525u + 1013904223u;
    uint32_t r = state >> 8;
    switch (type.dtype) {
      case tensor::DType::kF32: t.data<float>()[i] = static_cast<float>(r % 2001) / 1000.0f - 1.0f; break;
      case tensor::DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(r); break;
      case tensor::DType::kI8: t.data<int8_t>()[i] = static_cast<int8_t>(r); break;
      case tensor::DType::kI32: t.data<int32_t>()[i] = static_cast<int32_t>(r % 256) - 128; break;
      case tensor::DType::kI64: t.data<int64_t>()[i] = static_cast<int64_t>(r % 256) - 128; break;
      default: static_cast<uint8_t*>(t.raw_data())[i * tensor::DTypeSize(type.dtype)] = r & 1; break;
    }
  }
  return t;
}

// --input=PATH or --input=NAME=PATH, repeatable: taken out of argv before
// absl parses the rest (absl keeps only the last value of a repeated flag).
std::vector<std::string> ExtractRepeated(int& argc, char** argv, const std::string& flag) {
  std::vector<std::string> values;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, flag + "=")) {
      values.push_back(arg.substr(flag.size() + 1));
    } else if (arg == flag && i + 1 < argc) {
      values.push_back(argv[++i]);
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return values;
}

absl::StatusOr<std::vector<tensor::Tensor>> ReadInputs(const ir::Graph& g,
                                                       const std::vector<std::string>& specs) {
  std::vector<std::string> paths(g.inputs().size());
  size_t positional = 0;
  for (const std::string& spec : specs) {
    std::pair<std::string, std::string> kv = absl::StrSplit(spec, absl::MaxSplits('=', 1));
    size_t index = g.inputs().size();
    if (!kv.second.empty()) {
      for (size_t i = 0; i < g.inputs().size(); ++i) {
        if (g.inputs()[i]->name() == kv.first) index = i;
      }
      if (index == g.inputs().size()) {
        std::string names;
        for (const ir::Value* in : g.inputs()) absl::StrAppend(&names, names.empty() ? "" : ", ", in->name());
        return absl::InvalidArgumentError(
            absl::StrCat("--input: the model has no input '", kv.first, "' (inputs: ", names, ")"));
      }
    } else {
      index = positional++;
      if (index >= g.inputs().size()) {
        return absl::InvalidArgumentError(absl::StrCat("--input: the model takes ", g.inputs().size(),
                                                       " inputs, got more"));
      }
    }
    paths[index] = ResolveUserPath(kv.second.empty() ? kv.first : kv.second);
  }
  std::vector<tensor::Tensor> inputs;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ir::Value* in = g.inputs()[i];
    if (paths[i].empty()) {
      inputs.push_back(SyntheticInput(*in->type()));
    } else {
      ASSIGN_OR_RETURN(tensor::Tensor t, io::ReadTensorFile(paths[i], *in->type()));
      inputs.push_back(std::move(t));
    }
  }
  return inputs;
}

// Files of an ONNX test_data_set folder: input_0.pb, input_1.pb, ...
std::vector<std::string> NumberedFiles(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    std::string p = absl::StrCat(dir, "/", prefix, "_", i, ".pb");
    if (!std::filesystem::exists(p)) break;
    files.push_back(p);
  }
  return files;
}

absl::StatusOr<RunFiles> ResolveRunFiles(std::vector<std::string> input_specs,
                                         const std::string& test_data_flag,
                                         const std::string& expect_flag, bool default_model) {
  RunFiles files;
  files.input_specs = std::move(input_specs);
  const std::string test_data = test_data_flag.empty() ? "" : ResolveUserPath(test_data_flag);
  const std::string expect = expect_flag.empty() ? "" : ResolveUserPath(expect_flag);
  if (!test_data.empty()) {
    if (!files.input_specs.empty() || !expect.empty()) {
      return absl::InvalidArgumentError("--test-data replaces --input and --expect");
    }
    if (!std::filesystem::is_directory(test_data)) {
      return absl::NotFoundError(absl::StrCat("--test-data: no folder '", test_data, "'"));
    }
    files.input_specs = NumberedFiles(test_data, "input");
    files.expect_files = NumberedFiles(test_data, "output");
    if (files.expect_files.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--test-data: '", test_data, "' has no output_0.pb"));
    }
  } else if (!expect.empty()) {
    if (files.input_specs.empty()) {
      // Without --input a model runs on synthetic inputs: comparing their
      // outputs with a reference file would report a meaningless mismatch.
      if (!default_model) {
        return absl::InvalidArgumentError(
            "--expect needs --input: without it the model runs on synthetic inputs, whose "
            "outputs cannot match a reference file");
      }
      files.input_specs.push_back(BundledPath(kDefaultInput));
    }
    files.expect_files.push_back(expect);
  } else if (default_model && files.input_specs.empty()) {
    // The bundled model comes with its input and ONNX Runtime's output.
    files.input_specs.push_back(BundledPath(kDefaultInput));
    files.expect_files.push_back(BundledPath(kDefaultExpect));
  }
  return files;
}

}  // namespace qnnc::tools
