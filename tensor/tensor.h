// A dense tensor: dtype, static shape and row-major data. Storage is shared
// between copies (copy-on-write is the caller's business: use Clone()).
#ifndef QNNC_TENSOR_TENSOR_H_
#define QNNC_TENSOR_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/dtype.h"

namespace qnnc::tensor {

using Shape = std::vector<int64_t>;

// Number of elements of `shape`; an error if a dimension is negative or the
// product overflows int64 (or the byte size would).
absl::StatusOr<int64_t> NumElements(const Shape& shape, DType dtype = DType::kU8);
std::string ShapeToString(const Shape& shape);  // "1x3x224x224", "scalar" for {}

// The default memory limit of a model's tensors (constants at import and
// folding, all tensors of an executor): 4 GiB (//tools:compile --max-memory-mb).
inline constexpr int64_t kDefaultMaxBytes = int64_t{4} << 30;
// Byte size of a tensor of `shape` and `dtype` (NumElements' checks).
absl::StatusOr<int64_t> ByteSize(const Shape& shape, DType dtype);
// ResourceExhaustedError "<what> needs <bytes> bytes (<MiB>), over the memory
// limit of <limit MiB>".
absl::Status MemoryLimitError(const std::string& what, int64_t bytes, int64_t limit);

// Row-major strides in elements.
std::vector<int64_t> Strides(const Shape& shape);

class Tensor {
 public:
  // Every buffer is readable this many bytes past its end (XNNPACK reads
  // XNN_EXTRA_BYTES = 16 beyond its inputs).
  static constexpr size_t kPaddingBytes = 64;
  static constexpr size_t kAlignment = 64;

  Tensor() = default;
  // Zero-filled tensor. Fails on a bad shape (see NumElements).
  static absl::StatusOr<Tensor> Create(DType dtype, Shape shape);
  // Like Create, but the elements are left unset (only the padding after
  // them is zeroed): for kernels that write every element, saving a pass
  // over memory per output.
  static absl::StatusOr<Tensor> CreateForOverwrite(DType dtype, Shape shape);
  // A kernel's output: `*out` stays as it is when it already has `dtype` and
  // `shape` (planned memory, written in place), else it gets a new buffer of
  // them (CreateForOverwrite). `out` must not be null.
  static absl::Status PrepareForOverwrite(Tensor* out, DType dtype, const Shape& shape);
  // A tensor over `base`'s storage from byte `offset` (sharing it and keeping
  // it alive): planned memory (runtime/memory_plan.h). `base` must hold the
  // view's bytes and kPaddingBytes after them, which are zeroed unless
  // `zero_padding` is false (a slice of a larger tensor, followed by the
  // next slice's data: still readable, not zero); `offset` a multiple of
  // kAlignment.
  static absl::StatusOr<Tensor> View(const Tensor& base, int64_t offset, DType dtype, Shape shape,
                                     bool zero_padding = true);
  // A tensor over `data`, memory the caller owns and keeps alive and
  // unchanged while this tensor or a copy of it is in use. It is not padded
  // (padded() is false): a kernel that reads past a tensor's end must not
  // get it (runtime::Executor copies it for such kernels), and no View is
  // made of it.
  static absl::StatusOr<Tensor> Borrow(void* data, DType dtype, Shape shape);
  // `bytes` u8 elements at `storage` (shared: the tensor keeps it alive),
  // which must be aligned to kAlignment and followed by kPaddingBytes of
  // readable zeros: a mapped file's section (runtime/binary_plan.h). Padded,
  // so views of it can be made. `file_mapped`: the storage is a private
  // read-only mapping of a file, whose pages ReleasePages may drop.
  // The bytes a tensor of `data_bytes` takes in storage it shares with
  // others (the runtime's arena, a binary plan's data section): its data
  // and the padding after it, rounded up to kAlignment.
  static int64_t StorageBytes(int64_t data_bytes) {
    const int64_t bytes = data_bytes + static_cast<int64_t>(kPaddingBytes);
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }
  static absl::StatusOr<Tensor> Wrap(std::shared_ptr<uint8_t> storage, int64_t bytes,
                                     bool file_mapped = false);
  // Like Create, for shapes already validated (aborts on a bad one).
  static Tensor Zeros(DType dtype, Shape shape);
  // Tensor holding a copy of `values`.
  template <typename T>
  static Tensor FromVector(Shape shape, const std::vector<T>& values);
  template <typename T>
  static Tensor Scalar(T value) { return FromVector<T>({}, {value}); }
  // A copy of the elements, FromVector's inverse; T is the dtype's type.
  template <typename T>
  std::vector<T> ToVector() const {
    return std::vector<T>(data<T>(), data<T>() + num_elements_);
  }

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i]; }
  int64_t num_elements() const { return num_elements_; }
  size_t byte_size() const { return num_elements_ * DTypeSize(dtype_); }
  bool defined() const { return data_ != nullptr; }
  // Whether kPaddingBytes past the data are readable: every tensor but a
  // borrowed one (and its reshapes).
  bool padded() const { return padded_; }

  void* raw_data() { return data_.get(); }
  const void* raw_data() const { return data_.get(); }
  template <typename T> T* data() { return static_cast<T*>(raw_data()); }
  template <typename T> const T* data() const { return static_cast<const T*>(raw_data()); }
  template <typename T> absl::Span<T> span() { return {data<T>(), static_cast<size_t>(num_elements_)}; }
  template <typename T> absl::Span<const T> span() const {
    return {data<T>(), static_cast<size_t>(num_elements_)};
  }

  // Element i converted to double / int64 whatever the dtype.
  double GetAsDouble(int64_t i) const;
  int64_t GetAsInt(int64_t i) const;

  // Same data, new shape with the same element count.
  absl::StatusOr<Tensor> Reshaped(Shape shape) const;
  // Deep copy.
  Tensor Clone() const;
  // Bitwise equality of dtype, shape and data.
  bool BitwiseEquals(const Tensor& other) const;
  // A hint that these bytes will not be read for a while (a constant a
  // kernel packed a copy of): over a file mapping (Wrap), the whole pages
  // within them leave memory, to be read back from the file if touched
  // again; any other tensor is left as it is.
  void ReleasePages() const;

 private:
  DType dtype_ = DType::kF32;
  Shape shape_;
  int64_t num_elements_ = 0;
  std::shared_ptr<uint8_t> data_;
  bool padded_ = true;
  bool file_mapped_ = false;
};

template <typename T>
Tensor Tensor::FromVector(Shape shape, const std::vector<T>& values) {
  Tensor t = Zeros(DTypeOf<T>::value, std::move(shape));
  T* out = t.data<T>();
  for (int64_t i = 0; i < t.num_elements() && i < static_cast<int64_t>(values.size()); ++i) out[i] = values[i];
  return t;
}

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_TENSOR_H_
