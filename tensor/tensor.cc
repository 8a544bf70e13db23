#include "tensor/tensor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tensor/buffer_cache.h"

namespace qnnc::tensor {

absl::StatusOr<int64_t> NumElements(const Shape& shape, DType dtype) {
  // Keep byte sizes well inside what size_t and allocators handle.
  constexpr int64_t kMaxBytes = int64_t{1} << 46;
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("negative dimension ", d, " in shape [", absl::StrJoin(shape, ","), "]"));
    }
    if (d != 0 && n > kMaxBytes / d) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape [", absl::StrJoin(shape, ","), "] has too many elements (overflow)"));
    }
    n *= d;
  }
  if (n > kMaxBytes / static_cast<int64_t>(DTypeSize(dtype))) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape [", absl::StrJoin(shape, ","), "] is too large"));
  }
  return n;
}

absl::StatusOr<int64_t> ByteSize(const Shape& shape, DType dtype) {
  auto n = NumElements(shape, dtype);
  if (!n.ok()) return n.status();
  return *n * static_cast<int64_t>(DTypeSize(dtype));
}

absl::Status MemoryLimitError(const std::string& what, int64_t bytes, int64_t limit) {
  auto mib = [](int64_t b) { return absl::StrFormat("%.1f MiB", static_cast<double>(b) / (1 << 20)); };
  return absl::ResourceExhaustedError(absl::StrCat(what, " needs ", bytes, " bytes (", mib(bytes),
                                                   "), over the memory limit of ", mib(limit),
                                                   " (--max-memory-mb)"));
}

std::string ShapeToString(const Shape& shape) {
  if (shape.empty()) return "scalar";
  return absl::StrJoin(shape, "x");
}

std::vector<int64_t> Strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

absl::StatusOr<Tensor> Tensor::Create(DType dtype, Shape shape) {
  absl::StatusOr<Tensor> t = CreateForOverwrite(dtype, std::move(shape));
  if (t.ok()) std::memset(t->raw_data(), 0, t->num_elements() * DTypeSize(dtype));
  return t;
}

absl::Status Tensor::PrepareForOverwrite(Tensor* out, DType dtype, const Shape& shape) {
  if (out->defined() && out->dtype() == dtype && out->shape() == shape) return absl::OkStatus();
  absl::StatusOr<Tensor> created = CreateForOverwrite(dtype, shape);
  if (!created.ok()) return created.status();
  *out = *std::move(created);
  return absl::OkStatus();
}

absl::StatusOr<Tensor> Tensor::CreateForOverwrite(DType dtype, Shape shape) {
  auto n = NumElements(shape, dtype);
  if (!n.ok()) return n.status();
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.num_elements_ = *n;
  size_t bytes = (*n * DTypeSize(dtype) + kPaddingBytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = AllocateBuffer(kAlignment, bytes);
  if (p == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", bytes, " bytes"));
  }
  const size_t used = *n * DTypeSize(dtype);
  std::memset(static_cast<uint8_t*>(p) + used, 0, bytes - used);
  t.data_ = std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p),
                                     [bytes](uint8_t* q) { ReleaseBuffer(q, bytes); });
  return t;
}

absl::StatusOr<Tensor> Tensor::Borrow(void* data, DType dtype, Shape shape) {
  auto n = NumElements(shape, dtype);
  if (!n.ok()) return n.status();
  if (data == nullptr && *n > 0) return absl::InvalidArgumentError("a borrowed tensor needs its data");
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.num_elements_ = *n;
  // Never freed here: the caller owns the memory. (A null data with no
  // elements still makes a defined tensor.)
  static uint8_t empty[1];
  t.data_ = std::shared_ptr<uint8_t>(data ? static_cast<uint8_t*>(data) : empty, [](uint8_t*) {});
  t.padded_ = false;
  return t;
}

absl::StatusOr<Tensor> Tensor::Wrap(std::shared_ptr<uint8_t> storage, int64_t bytes,
                                    bool file_mapped) {
  if (storage == nullptr || bytes < 0 ||
      reinterpret_cast<uintptr_t>(storage.get()) % kAlignment != 0) {
    return absl::InvalidArgumentError("wrapped storage must be defined and aligned");
  }
  Tensor t;
  t.dtype_ = DType::kU8;
  t.shape_ = {bytes};
  t.num_elements_ = bytes;
  t.data_ = std::move(storage);
  t.file_mapped_ = file_mapped;
  return t;
}

void Tensor::ReleasePages() const {
  if (!file_mapped_ || byte_size() == 0) return;
  // Whole pages only: a neighbour's bytes on a shared page stay.
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data_.get());
  const uintptr_t first = (begin + page - 1) / page * page, end = (begin + byte_size()) / page * page;
  if (end > first) madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
}

absl::StatusOr<Tensor> Tensor::View(const Tensor& base, int64_t offset, DType dtype, Shape shape,
                                    bool zero_padding) {
  auto n = NumElements(shape, dtype);
  if (!n.ok()) return n.status();
  if (!base.padded_) return absl::InvalidArgumentError("no view is made of a borrowed tensor");
  const int64_t bytes = *n * static_cast<int64_t>(DTypeSize(dtype));
  // base's own padding counts: it is allocated and readable.
  const int64_t room = static_cast<int64_t>(base.byte_size());
  if (!base.defined() || offset < 0 || offset % static_cast<int64_t>(kAlignment) != 0 ||
      offset + bytes > room) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a view of ", bytes, " bytes at offset ", offset, " does not fit a base of ", room,
        " bytes (or is misaligned)"));
  }
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.num_elements_ = *n;
  t.data_ = std::shared_ptr<uint8_t>(base.data_, base.data_.get() + offset);
  t.file_mapped_ = base.file_mapped_;
  if (zero_padding) std::memset(t.data_.get() + bytes, 0, kPaddingBytes);
  return t;
}

Tensor Tensor::Zeros(DType dtype, Shape shape) {
  auto t = Create(dtype, std::move(shape));
  if (!t.ok()) {
    std::fprintf(stderr, "qnnc internal error: %s\n", t.status().ToString().c_str());
    std::abort();
  }
  return *std::move(t);
}

double Tensor::GetAsDouble(int64_t i) const {
  switch (dtype_) {
    case DType::kU8: return data<uint8_t>()[i];
    case DType::kI8: return data<int8_t>()[i];
    case DType::kU16: return data<uint16_t>()[i];
    case DType::kI16: return data<int16_t>()[i];
    case DType::kI32: return data<int32_t>()[i];
    case DType::kI64: return static_cast<double>(data<int64_t>()[i]);
    case DType::kF16: return HalfToFloat(data<uint16_t>()[i]);
    case DType::kF32: return data<float>()[i];
    case DType::kBool: return data<uint8_t>()[i] ? 1 : 0;
  }
  return 0;
}

int64_t Tensor::GetAsInt(int64_t i) const {
  switch (dtype_) {
    case DType::kI64: return data<int64_t>()[i];
    case DType::kF16:
    case DType::kF32: return static_cast<int64_t>(GetAsDouble(i));
    default: return static_cast<int64_t>(GetAsDouble(i));
  }
}

absl::StatusOr<Tensor> Tensor::Reshaped(Shape shape) const {
  auto n = NumElements(shape, dtype_);
  if (!n.ok()) return n.status();
  if (*n != num_elements_) {
    return absl::InvalidArgumentError(absl::StrCat("cannot reshape ", ShapeToString(shape_), " (",
                                                   num_elements_, " elements) to ",
                                                   ShapeToString(shape)));
  }
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::Clone() const {
  Tensor t = Zeros(dtype_, shape_);
  if (byte_size() > 0) std::memcpy(t.raw_data(), raw_data(), byte_size());
  return t;
}

bool Tensor::BitwiseEquals(const Tensor& o) const {
  if (dtype_ != o.dtype_ || shape_ != o.shape_) return false;
  if (byte_size() == 0) return true;
  return std::memcmp(raw_data(), o.raw_data(), byte_size()) == 0;
}

}  // namespace qnnc::tensor
