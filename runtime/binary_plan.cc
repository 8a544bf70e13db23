// Reads the binary plan (runtime/binary_plan.h).
#include "runtime/binary_plan.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/infer_types.h"
#include "ir/op_registry.h"
#include "runtime/binary_plan_header.h"
#include "runtime/plan_generated.h"
#include "util/status_macros.h"
#define XXH_INLINE_ALL
#include "xxhash.h"

namespace qnnc::runtime {

uint64_t PlanChecksum(const void* plan, uint64_t size) {
  const char* bytes = static_cast<const char*>(plan);
  return PlanChecksumOfPieces([&](const PlanPieceSink& sink) {
    sink(bytes + kBinaryPlanHeaderBytes, size - kBinaryPlanHeaderBytes);
  });
}

uint64_t PlanChecksumOfPieces(const std::function<void(const PlanPieceSink&)>& pieces) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  pieces([state](const char* bytes, size_t size) { XXH3_64bits_update(state, bytes, size); });
  const uint64_t digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return digest;
}

bool IsBinaryPlan(absl::string_view first_bytes) {
  return first_bytes.substr(0, 8) == absl::string_view(kBinaryPlanMagic, 8);
}

namespace {

// A vector of 8-byte scalars, copied bytewise: the Verifier checks a
// vector's length field, 4-byte aligned, not that its elements are aligned
// (the builder aligns them; a crafted file need not). The host is
// little-endian, as the file.
template <typename T>
std::vector<T> CopyOf(const flatbuffers::Vector<T>* v) {
  std::vector<T> out(v == nullptr ? 0 : v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

// Builds the graph from a verified FlatBuffer; every error names the plan.
class GraphReader {
 public:
  GraphReader(absl::string_view name, const tensor::Tensor& data) : name_(name), data_(data) {}

  absl::StatusOr<LoadedPlan> Read(const fb::Plan& plan, int64_t max_bytes) {
    LoadedPlan out;
    out.graph = std::make_unique<ir::Graph>();
    graph_ = out.graph.get();
    if (plan.target() == nullptr || plan.target()->size() == 0) return Bad("no target");
    out.target = plan.target()->str();
    if (plan.graph_name() != nullptr) graph_->set_name(plan.graph_name()->str());
    if (plan.inputs() != nullptr) {
      for (const fb::Input* in : *plan.inputs()) {
        ASSIGN_OR_RETURN(ir::TensorType type, TypeOf(in->type(), "an input"));
        ASSIGN_OR_RETURN(std::string name, NameOf(in->name()));
        RETURN_IF_ERROR(Define(graph_->AddInput(name, type), name));
      }
    }
    packed_ = &out.packed;
    RETURN_IF_ERROR(CheckDataBytes(plan, max_bytes));
    if (plan.constants() != nullptr) RETURN_IF_ERROR(ReadConstants(*plan.constants()));
    if (plan.nodes() != nullptr) {
      for (const fb::Node* node : *plan.nodes()) RETURN_IF_ERROR(ReadNode(*node));
    }
    std::vector<ir::Value*> outputs;
    if (plan.outputs() != nullptr) {
      for (uint32_t i : *plan.outputs()) {
        if (i >= values_.size()) return Bad(absl::StrCat("graph output ", i, " is not a value"));
        outputs.push_back(values_[i]);
      }
    }
    graph_->SetOutputs(std::move(outputs));
    RETURN_IF_ERROR(Check(graph_->Verify()));
    RETURN_IF_ERROR(Check(ir::InferTypes(*graph_)));
    for (const auto& [value, type] : declared_) {
      if (*value->type() != type) {
        return Bad(absl::StrCat(value->producer()->Describe(), ": result %", value->name(),
                                " is declared ", type.ToString(), " but the op gives ",
                                value->type()->ToString()));
      }
    }
    return out;
  }

 private:
  absl::Status Bad(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("'", name_, "': ", what));
  }
  absl::Status Check(const absl::Status& s) const {
    return s.ok() ? s : absl::Status(s.code(), absl::StrCat("'", name_, "': ", s.message()));
  }

  absl::StatusOr<std::string> NameOf(const flatbuffers::String* s) const {
    if (s == nullptr || s->size() == 0) return Bad("a value has no name");
    return s->str();
  }

  absl::StatusOr<ir::TensorType> TypeOf(const fb::TensorType* t, absl::string_view what) const {
    if (t == nullptr || t->dtype() == nullptr) return Bad(absl::StrCat(what, " has no type"));
    ir::TensorType type;
    absl::StatusOr<tensor::DType> dtype = tensor::ParseDType(t->dtype()->str());
    if (!dtype.ok()) return Bad(dtype.status().message());
    type.dtype = *dtype;
    type.shape = CopyOf(t->shape());
    absl::StatusOr<int64_t> n = tensor::NumElements(type.shape, type.dtype);
    if (!n.ok()) return Bad(absl::StrCat(what, " of type ", type.ToString(), ": ", n.status().message()));
    return type;
  }

  // The loader keeps the file's names: a name the graph had to change was
  // given twice.
  absl::Status Define(ir::Value* v, const std::string& wanted) {
    if (v->name() != wanted) return Bad(absl::StrCat("value %", wanted, " is defined twice"));
    values_.push_back(v);
    return absl::OkStatus();
  }

  // The bytes of the data section the plan's constants and packed states
  // take, refused over `max_bytes` before any is touched.
  absl::Status CheckDataBytes(const fb::Plan& plan, int64_t max_bytes) const {
    uint64_t total = 0;
    if (plan.constants() != nullptr) {
      for (const fb::Constant* c : *plan.constants()) total += c->size();
    }
    if (plan.nodes() != nullptr) {
      for (const fb::Node* node : *plan.nodes()) {
        if (node->packed() == nullptr || node->packed()->blobs() == nullptr) continue;
        for (const fb::Blob* blob : *node->packed()->blobs()) total += blob->size();
      }
    }
    if (total > static_cast<uint64_t>(max_bytes)) {
      return Check(tensor::MemoryLimitError("the model's constants", static_cast<int64_t>(total), max_bytes));
    }
    return absl::OkStatus();
  }

  // `what`'s bytes in the data section, used in place.
  absl::StatusOr<tensor::Tensor> DataOf(const ir::TensorType& type, uint64_t offset, uint64_t size,
                                        const std::string& what) const {
    // The room: the data section less the padding after the last tensor.
    const uint64_t room = static_cast<uint64_t>(data_.byte_size());
    const uint64_t bytes = static_cast<uint64_t>(*tensor::NumElements(type.shape, type.dtype)) *
                           tensor::DTypeSize(type.dtype);
    if (size != bytes || offset % tensor::Tensor::kAlignment != 0 || offset > room || bytes > room - offset) {
      return Bad(absl::StrCat(what, " (", type.ToString(), ", ", bytes,
                              " bytes) does not fit the data section at offset ", offset, " (", size,
                              " bytes given, ", room, " in the section)"));
    }
    return tensor::Tensor::View(data_, static_cast<int64_t>(offset), type.dtype, type.shape,
                                /*zero_padding=*/false);
  }

  absl::Status ReadConstants(const flatbuffers::Vector<flatbuffers::Offset<fb::Constant>>& constants) {
    for (const fb::Constant* c : constants) {
      ASSIGN_OR_RETURN(std::string name, NameOf(c->name()));
      ASSIGN_OR_RETURN(ir::TensorType type, TypeOf(c->type(), absl::StrCat("constant %", name)));
      if (c->packed()) {
        if (c->offset() != 0 || c->size() != 0) {
          return Bad(absl::StrCat("constant %", name, " is packed but has bytes in the data section"));
        }
        ASSIGN_OR_RETURN(tensor::Tensor t, AbsentConstantData(type));
        ir::Value* v = graph_->AddConstant(name, std::move(t));
        RETURN_IF_ERROR(Define(v, name));
        packed_->absent.insert(v);
        continue;
      }
      ASSIGN_OR_RETURN(tensor::Tensor t, DataOf(type, c->offset(), c->size(), absl::StrCat("constant %", name)));
      RETURN_IF_ERROR(Define(graph_->AddConstant(name, std::move(t)), name));
    }
    return absl::OkStatus();
  }

  // A node's packed state: its blobs in place; the inputs it stands for are
  // constants of the node.
  absl::Status ReadPackedState(const fb::PackedState& state, const ir::Node* n) {
    PackedState out;
    out.packing = state.packing() ? state.packing()->str() : "";
    if (state.inputs() != nullptr) {
      for (uint32_t i : *state.inputs()) {
        if (i >= n->inputs().size() || !n->input(i)->is_constant()) {
          return Bad(absl::StrCat(n->Describe(), ": its packed state stands for input ", i,
                                  ", which is not a constant of the op"));
        }
        out.inputs.push_back(static_cast<int>(i));
      }
    }
    if (state.blobs() != nullptr) {
      for (const fb::Blob* blob : *state.blobs()) {
        const std::string what = absl::StrCat(n->Describe(), ": packed blob ", out.blobs.size());
        ASSIGN_OR_RETURN(ir::TensorType type, TypeOf(blob->type(), what));
        ASSIGN_OR_RETURN(tensor::Tensor t, DataOf(type, blob->offset(), blob->size(), what));
        out.blobs.push_back(std::move(t));
      }
    }
    packed_->by_node.emplace(n, std::move(out));
    return absl::OkStatus();
  }

  absl::Status ReadNode(const fb::Node& node) {
    if (node.op() == nullptr || ir::OpRegistry::Global().Find(node.op()->str()) == nullptr) {
      return Bad(absl::StrCat("unknown op '", node.op() ? node.op()->str() : "", "'"));
    }
    const std::string op = node.op()->str();
    std::vector<ir::Value*> inputs;
    if (node.inputs() != nullptr) {
      for (uint32_t i : *node.inputs()) {
        if (i >= values_.size()) {
          return Bad(absl::StrCat("op '", op, "' reads value ", i, ", not defined before it"));
        }
        inputs.push_back(values_[i]);
      }
    }
    ir::Attrs attrs;
    if (node.attrs() != nullptr) {
      for (const fb::Attr* a : *node.attrs()) RETURN_IF_ERROR(ReadAttr(*a, op, &attrs));
    }
    std::vector<std::string> names;
    if (node.results() == nullptr || node.results()->size() == 0) {
      return Bad(absl::StrCat("op '", op, "' has no result"));
    }
    for (const fb::Result* r : *node.results()) {
      ASSIGN_OR_RETURN(std::string name, NameOf(r->name()));
      names.push_back(std::move(name));
    }
    ir::Node* n = graph_->AddNode(op, std::move(inputs), std::move(attrs),
                                  static_cast<int>(names.size()),
                                  node.name() ? node.name()->str() : "", names);
    for (size_t i = 0; i < names.size(); ++i) {
      RETURN_IF_ERROR(Define(n->output(i), names[i]));
      if (const fb::TensorType* t = node.results()->Get(i)->type()) {
        ASSIGN_OR_RETURN(ir::TensorType type, TypeOf(t, absl::StrCat("result %", names[i])));
        declared_.emplace_back(n->output(i), std::move(type));
      }
    }
    if (node.packed() != nullptr) RETURN_IF_ERROR(ReadPackedState(*node.packed(), n));
    return absl::OkStatus();
  }

  absl::Status ReadAttr(const fb::Attr& a, const std::string& op, ir::Attrs* attrs) const {
    if (a.name() == nullptr) return Bad(absl::StrCat("op '", op, "' has an attribute without a name"));
    const std::string name = a.name()->str();
    if (attrs->Has(name)) return Bad(absl::StrCat("op '", op, "': duplicate attribute '", name, "'"));
    switch (a.kind()) {
      case fb::AttrKind::Int: attrs->Set(name, a.i()); return absl::OkStatus();
      case fb::AttrKind::Float: attrs->Set(name, a.f()); return absl::OkStatus();
      case fb::AttrKind::String:
        attrs->Set(name, a.s() ? a.s()->str() : std::string());
        return absl::OkStatus();
      case fb::AttrKind::Ints: attrs->Set(name, CopyOf(a.ints())); return absl::OkStatus();
      case fb::AttrKind::Floats: attrs->Set(name, CopyOf(a.floats())); return absl::OkStatus();
    }
    return Bad(absl::StrCat("op '", op, "': attribute '", name, "' of unknown kind ",
                            static_cast<int>(a.kind())));
  }

  const std::string name_;
  const tensor::Tensor& data_;
  ir::Graph* graph_ = nullptr;
  std::vector<ir::Value*> values_;
  PackedStates* packed_ = nullptr;  // the LoadedPlan's  // by the plan's value numbers
  std::vector<std::pair<ir::Value*, ir::TensorType>> declared_;
};

absl::Status NotAPlan(absl::string_view name) {
  return absl::InvalidArgumentError(absl::StrCat(
      "'", name, "' is not a qnnc plan (no 'qnncplan' header; write plans with --out)"));
}

// The header's checks that need no more than the header and the file size.
absl::StatusOr<PlanHeader> CheckHeader(const uint8_t* bytes, uint64_t size, absl::string_view name) {
  if (size < static_cast<uint64_t>(kBinaryPlanHeaderBytes) ||
      !IsBinaryPlan(absl::string_view(reinterpret_cast<const char*>(bytes), 8))) {
    return NotAPlan(name);
  }
  PlanHeader h = ReadPlanHeader(bytes);
  if (h.version < kOldestBinaryPlanVersion || h.version > kBinaryPlanVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", name, "' is a qnnc plan of format version ", h.version, "; this build reads versions ",
        kOldestBinaryPlanVersion, " to ", kBinaryPlanVersion, " (compile the model again)"));
  }
  const uint64_t align = tensor::Tensor::kAlignment;
  const bool fits = h.graph_offset >= static_cast<uint64_t>(kBinaryPlanHeaderBytes) &&
                    h.graph_offset <= h.data_offset && h.graph_size <= h.data_offset - h.graph_offset &&
                    h.data_offset % align == 0 &&
                    h.data_size >= static_cast<uint64_t>(tensor::Tensor::kPaddingBytes);
  if (!fits) return absl::InvalidArgumentError(absl::StrCat("'", name, "': the header's sections are malformed"));
  if (h.data_offset > size || h.data_size != size - h.data_offset) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", name, "' is truncated or has trailing bytes: ", size, " bytes, the header says ",
        h.data_offset, " + ", h.data_size));
  }
  return h;
}

absl::StatusOr<const fb::Plan*> VerifiedGraph(const uint8_t* bytes, const PlanHeader& h,
                                              absl::string_view name) {
  const uint8_t* graph = bytes + h.graph_offset;
  flatbuffers::Verifier verifier(graph, h.graph_size);
  if (!fb::PlanBufferHasIdentifier(graph) || !fb::VerifyPlanBuffer(verifier)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name, "': its graph section fails FlatBuffers verification"));
  }
  return fb::GetPlan(graph);
}

// `file_mapped`: `bytes` is a private read-only mapping of the file, whose
// pages a constant may release (tensor::Tensor::ReleasePages).
absl::StatusOr<LoadedPlan> Parse(std::shared_ptr<uint8_t> bytes, int64_t size, absl::string_view name,
                                 int64_t max_bytes, bool file_mapped) {
  ASSIGN_OR_RETURN(PlanHeader h, CheckHeader(bytes.get(), static_cast<uint64_t>(size), name));
  if (PlanChecksum(bytes.get(), static_cast<uint64_t>(size)) != h.checksum) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name, "' is corrupt: its checksum does not match its contents"));
  }
  ASSIGN_OR_RETURN(const fb::Plan* plan, VerifiedGraph(bytes.get(), h, name));
  // Constants are views of the data section, which keeps the whole plan alive.
  std::shared_ptr<uint8_t> data(bytes, bytes.get() + h.data_offset);
  ASSIGN_OR_RETURN(tensor::Tensor section,
                   tensor::Tensor::Wrap(std::move(data),
                                        static_cast<int64_t>(h.data_size) - tensor::Tensor::kPaddingBytes,
                                        file_mapped));
  return GraphReader(name, section).Read(*plan, max_bytes);
}

}  // namespace

absl::StatusOr<LoadedPlan> ParseBinaryPlan(std::shared_ptr<uint8_t> bytes, int64_t size,
                                           absl::string_view name, int64_t max_bytes) {
  return Parse(std::move(bytes), size, name, max_bytes, /*file_mapped=*/false);
}

absl::StatusOr<LoadedPlan> LoadBinaryPlan(const std::string& path, int64_t max_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < kBinaryPlanHeaderBytes) {
    close(fd);
    return NotAPlan(path);
  }
  const size_t size = static_cast<size_t>(st.st_size);
  // Read-only: constants are used in place and never written (a private
  // writable mapping would also copy every page MAP_POPULATE touches).
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    return absl::InternalError(absl::StrCat("cannot map '", path, "': ", std::strerror(errno)));
  }
  std::shared_ptr<uint8_t> bytes(static_cast<uint8_t*>(map), [size](uint8_t* p) { munmap(p, size); });
  return Parse(std::move(bytes), static_cast<int64_t>(size), path, max_bytes, /*file_mapped=*/true);
}

absl::StatusOr<std::string> ReadBinaryPlanTarget(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  struct stat st;
  std::vector<uint8_t> head(kBinaryPlanHeaderBytes);
  if (fstat(fd, &st) != 0 || pread(fd, head.data(), head.size(), 0) != kBinaryPlanHeaderBytes) {
    close(fd);
    return NotAPlan(path);
  }
  absl::StatusOr<PlanHeader> h = CheckHeader(head.data(), static_cast<uint64_t>(st.st_size), path);
  if (!h.ok()) {
    close(fd);
    return h.status();
  }
  // The header and the graph section, in one buffer so that offsets hold.
  std::vector<uint8_t> bytes(h->graph_offset + h->graph_size);
  const ssize_t got = pread(fd, bytes.data(), bytes.size(), 0);
  close(fd);
  if (got != static_cast<ssize_t>(bytes.size())) return NotAPlan(path);
  ASSIGN_OR_RETURN(const fb::Plan* plan, VerifiedGraph(bytes.data(), *h, path));
  if (plan->target() == nullptr || plan->target()->size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "': no target"));
  }
  return plan->target()->str();
}

}  // namespace qnnc::runtime
