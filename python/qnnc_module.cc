// The Python module `qnnc`: compiled models run from Python as ONNX Runtime's
// InferenceSession runs them.
//
//   import qnnc
//   s = qnnc.InferenceSession("model.onnx", threads=2)
//   [y] = s.run(None, {s.get_inputs()[0].name: x})
//
// Errors raise ValueError (bad input: a model, an option, a tensor) or
// RuntimeError, with the messages //tools:compile prints. run() releases the
// GIL: threads may call it at once on one session (qnnc/session.h). Inputs
// are read from the caller's arrays in place where the kernels allow; each
// call returns new output arrays.
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pybind11/numpy.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "qnnc/session.h"

namespace qnnc::python {
namespace {

namespace py = pybind11;

// An error status as the Python exception a caller expects: ValueError for
// what the caller gave, RuntimeError for the rest.
[[noreturn]] void Raise(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kUnimplemented:
      throw py::value_error(std::string(status.message()));
    default:
      throw std::runtime_error(std::string(status.message()));
  }
}

template <typename T>
T OrRaise(absl::StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return *std::move(value);
}

struct DTypeNames {
  tensor::DType dtype;
  const char* numpy;  // numpy's name of the dtype
  const char* onnx;   // as ORT's NodeArg.type spells it
};

constexpr DTypeNames kDTypes[] = {
    {tensor::DType::kU8, "uint8", "tensor(uint8)"},       {tensor::DType::kI8, "int8", "tensor(int8)"},
    {tensor::DType::kU16, "uint16", "tensor(uint16)"},    {tensor::DType::kI16, "int16", "tensor(int16)"},
    {tensor::DType::kI32, "int32", "tensor(int32)"},      {tensor::DType::kI64, "int64", "tensor(int64)"},
    {tensor::DType::kF16, "float16", "tensor(float16)"},  {tensor::DType::kF32, "float32", "tensor(float)"},
    {tensor::DType::kBool, "bool", "tensor(bool)"},
};

const DTypeNames& NamesOf(tensor::DType dtype) {
  for (const DTypeNames& d : kDTypes) {
    if (d.dtype == dtype) return d;
  }
  throw std::runtime_error("a dtype without a numpy type");
}

// numpy's dtype object of `dtype`, made from its name once: run() checks and
// makes arrays with it on every call, and a dtype from a name parses the name.
// Called with the GIL held; kept for the process's life (never destroyed
// after the interpreter).
py::dtype NumpyDType(tensor::DType dtype) {
  static auto* made = new std::vector<std::pair<tensor::DType, py::dtype>>();
  for (const auto& [d, numpy] : *made) {
    if (d == dtype) return numpy;
  }
  made->emplace_back(dtype, py::dtype(NamesOf(dtype).numpy));
  return made->back().second;
}

// What ORT's get_inputs()/get_outputs() give: .name, .shape, .type.
struct NodeArg {
  std::string name;
  std::vector<int64_t> shape;
  std::string type;
};

std::vector<NodeArg> NodeArgs(const std::vector<TensorInfo>& infos) {
  std::vector<NodeArg> args;
  for (const TensorInfo& info : infos) args.push_back({info.name, info.shape, NamesOf(info.dtype).onnx});
  return args;
}

// A numpy array as the input's tensor, converting nothing: the dtype and
// shape must be the input's. A C-contiguous array is borrowed, not copied
// (the executor copies it only for kernels that read past a tensor's end);
// another is made contiguous by numpy first. `keep` holds the array the
// tensor borrows until the run is over.
tensor::Tensor InputTensor(const TensorInfo& info, const py::handle& value, std::vector<py::object>& keep) {
  if (!py::isinstance<py::array>(value)) {
    throw py::value_error("input '" + info.name + "' must be a numpy array");
  }
  py::array array = py::reinterpret_borrow<py::array>(value);
  const DTypeNames& names = NamesOf(info.dtype);
  std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  if (!array.dtype().equal(NumpyDType(info.dtype)) || shape != info.shape) {
    std::string got = py::str(array.dtype()).cast<std::string>() + "[";
    for (size_t i = 0; i < shape.size(); ++i) got += (i ? "," : "") + std::to_string(shape[i]);
    std::string want = std::string(tensor::DTypeName(info.dtype)) + "[";
    for (size_t i = 0; i < info.shape.size(); ++i) want += (i ? "," : "") + std::to_string(info.shape[i]);
    throw py::value_error("input '" + info.name + "' must be " + want + "] (numpy " + names.numpy +
                          "), got " + got + "]");
  }
  if (!(array.flags() & py::array::c_style)) array = py::array::ensure(array, py::array::c_style);
  keep.push_back(array);
  // The data is only read: a read-only array is fine.
  return OrRaise(tensor::Tensor::Borrow(const_cast<void*>(array.data()), info.dtype, info.shape));
}

class InferenceSession {
 public:
  explicit InferenceSession(std::unique_ptr<Session> session) : session_(std::move(session)) {}

  std::vector<NodeArg> get_inputs() const { return NodeArgs(session_->inputs()); }
  std::vector<NodeArg> get_outputs() const { return NodeArgs(session_->outputs()); }
  std::string target() const { return session_->target(); }

  py::list run(const py::object& output_names, const py::dict& feed) const {
    std::vector<py::object> keep;  // the arrays the inputs borrow
    const NamedTensors inputs = Inputs(feed, keep);
    std::vector<std::string> names;
    if (!output_names.is_none()) names = output_names.cast<std::vector<std::string>>();
    // The output arrays are made before the run and the run writes into
    // them: made after it, on caches the model has just swept, wrapping and
    // freeing the run's own tensors cost more than the copy saved (a few
    // kilobytes for a classifier).
    py::list result;
    std::vector<tensor::Tensor> outputs;
    for (const TensorInfo* info : OutputInfos(names)) {
      py::array array(NumpyDType(info->dtype), std::vector<py::ssize_t>(info->shape.begin(), info->shape.end()));
      outputs.push_back(OrRaise(tensor::Tensor::Borrow(array.mutable_data(), info->dtype, info->shape)));
      result.append(std::move(array));
    }
    absl::Status status;
    {
      py::gil_scoped_release release;
      const auto start = std::chrono::steady_clock::now();
      status = session_->Run(inputs, names, &outputs);
      last_run_ms_.store(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
                         std::memory_order_relaxed);
    }
    if (!status.ok()) Raise(status);
    return result;
  }

  // For bench/python_session.py: the milliseconds the C++ Session::Run
  // took inside the run() that finished last, so that what Python adds is
  // measured on one call, free of the run-to-run spread of the model.
  double last_run_ms() const { return last_run_ms_.load(std::memory_order_relaxed); }

  void save_plan(const std::string& path, const std::string& format) const {
    absl::StatusOr<qnnc::runtime::PlanFormat> f = qnnc::runtime::ParsePlanFormat(format);
    if (!f.ok()) Raise(absl::InvalidArgumentError(absl::StrCat("format: ", f.status().message())));
    absl::Status status = session_->SavePlan(path, *f);
    if (!status.ok()) Raise(status);
  }

 private:
  NamedTensors Inputs(const py::dict& feed, std::vector<py::object>& keep) const {
    NamedTensors inputs;
    for (const auto& [key, value] : feed) {
      const std::string name = py::str(key);
      const TensorInfo* info = nullptr;
      for (const TensorInfo& in : session_->inputs()) {
        if (in.name == name) info = &in;
      }
      if (info == nullptr) {
        // The session's message names the model's inputs.
        inputs.push_back({name, tensor::Tensor()});
        continue;
      }
      inputs.push_back({name, InputTensor(*info, value, keep)});
    }
    return inputs;
  }

  // The outputs `names` asks for (all for none), in order; an unknown name
  // is left for Session::Run to report.
  std::vector<const TensorInfo*> OutputInfos(const std::vector<std::string>& names) const {
    std::vector<const TensorInfo*> infos;
    if (names.empty()) {
      for (const TensorInfo& out : session_->outputs()) infos.push_back(&out);
    }
    for (const std::string& name : names) {
      for (const TensorInfo& out : session_->outputs()) {
        if (out.name == name) infos.push_back(&out);
      }
    }
    return infos;
  }

  std::unique_ptr<Session> session_;
  mutable std::atomic<double> last_run_ms_{0};
};

SessionOptions Options(int threads, const py::object& records, const std::string& target,
                       const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  SessionOptions options;
  options.threads = threads;
  options.target = target;
  if (py::isinstance<py::str>(records)) {
    options.records.push_back(records.cast<std::string>());
  } else if (!records.is_none()) {
    options.records = records.cast<std::vector<std::string>>();
  }
  options.input_shapes = input_shapes;
  return options;
}

std::unique_ptr<InferenceSession> Compile(const py::object& model, int threads,
                                          const py::object& records, const std::string& target,
                                          const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  const SessionOptions options = Options(threads, records, target, input_shapes);
  std::unique_ptr<Session> session;
  if (py::isinstance<py::bytes>(model)) {
    const std::string bytes = model.cast<std::string>();
    py::gil_scoped_release release;
    session = OrRaise(Session::CompileOnnx(bytes, options));
  } else {
    const std::string path = py::str(model);  // str or os.PathLike
    py::gil_scoped_release release;
    session = OrRaise(Session::Compile(path, options));
  }
  return std::make_unique<InferenceSession>(std::move(session));
}

std::unique_ptr<InferenceSession> LoadPlan(const std::string& path, int threads) {
  SessionOptions options;
  options.threads = threads;
  py::gil_scoped_release release;
  return std::make_unique<InferenceSession>(OrRaise(Session::LoadPlan(path, options)));
}

}  // namespace
}  // namespace qnnc::python

namespace {
using qnnc::python::InferenceSession;
using qnnc::python::NodeArg;
namespace py = pybind11;
}  // namespace

PYBIND11_MODULE(qnnc, m) {
  m.doc() = "qnnc: a compiler for quantized neural networks on CPUs";
  py::class_<NodeArg>(m, "NodeArg")
      .def_readonly("name", &NodeArg::name)
      .def_readonly("shape", &NodeArg::shape)
      .def_readonly("type", &NodeArg::type)
      .def("__repr__", [](const NodeArg& a) {
        return "NodeArg(name='" + a.name + "', type='" + a.type + "', shape=" +
               py::str(py::cast(a.shape)).cast<std::string>() + ")";
      });
  py::class_<InferenceSession>(m, "InferenceSession")
      .def(py::init(&qnnc::python::Compile), py::arg("model"), py::arg("threads") = 1,
           py::arg("records") = py::none(), py::arg("target") = "host",
           py::arg("input_shapes") = std::map<std::string, std::vector<int64_t>>{},
           "Compiles an ONNX model (a path or its bytes) or text IR for this host.")
      .def("get_inputs", &InferenceSession::get_inputs)
      .def("get_outputs", &InferenceSession::get_outputs)
      .def_property_readonly("target", &InferenceSession::target)
      .def("run", &InferenceSession::run, py::arg("output_names"), py::arg("input_feed"),
           "Runs the model: input_feed maps every input's name to a numpy array of its dtype "
           "and shape; returns the outputs named (all for None) as numpy arrays.")
      .def("save_plan", &InferenceSession::save_plan, py::arg("path"), py::arg("format") = "binary")
      .def("_last_run_ms", &InferenceSession::last_run_ms);
  m.def("compile", &qnnc::python::Compile, py::arg("model"), py::arg("threads") = 1,
        py::arg("records") = py::none(), py::arg("target") = "host",
        py::arg("input_shapes") = std::map<std::string, std::vector<int64_t>>{},
        "Compiles a model; the same as InferenceSession(...).");
  m.def("load_plan", &qnnc::python::LoadPlan, py::arg("path"), py::arg("threads") = 1,
        "Loads a plan written by save_plan or `compile --out`.");
}
