#include "kernels/layout/nhwc.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::Tensor;

// Tiles of kTile x kTile elements: both the rows read and the rows written
// of one tile stay in L1 whatever the element size.
constexpr int64_t kTile = 32;

// Transposes each of `images` [rows, cols] matrices into [cols, rows].
template <typename T>
struct TransposeTask {
  const T* src;
  T* dst;
  int64_t rows, cols;

  // One tile of one image.
  static void Run(void* ctx, size_t image, size_t row_tile, size_t col_tile) {
    const TransposeTask& t = *static_cast<const TransposeTask*>(ctx);
    const int64_t plane = t.rows * t.cols;
    const T* src = t.src + static_cast<int64_t>(image) * plane;
    T* dst = t.dst + static_cast<int64_t>(image) * plane;
    const int64_t r0 = static_cast<int64_t>(row_tile) * kTile, r1 = std::min(r0 + kTile, t.rows);
    const int64_t c0 = static_cast<int64_t>(col_tile) * kTile, c1 = std::min(c0 + kTile, t.cols);
    for (int64_t c = c0; c < c1; ++c) {
      T* out = dst + c * t.rows;
      for (int64_t r = r0; r < r1; ++r) out[r] = src[r * t.cols + c];
    }
  }
};

template <typename T>
void Transpose(const void* src, void* dst, int64_t images, int64_t rows, int64_t cols,
               pthreadpool_t pool) {
  TransposeTask<T> task{static_cast<const T*>(src), static_cast<T*>(dst), rows, cols};
  pthreadpool_parallelize_3d(pool, &TransposeTask<T>::Run, &task, static_cast<size_t>(images),
                             static_cast<size_t>((rows + kTile - 1) / kTile),
                             static_cast<size_t>((cols + kTile - 1) / kTile), 0);
}

// src viewed as `images` matrices [rows, cols], written transposed to a new
// tensor of `out_shape`.
absl::StatusOr<Tensor> TransposeImages(const Tensor& src, const tensor::Shape& out_shape,
                                       int64_t rows, int64_t cols, pthreadpool_t pool) {
  auto out = Tensor::CreateForOverwrite(src.dtype(), out_shape);
  if (!out.ok()) return out.status();
  const int64_t images = out_shape[0];
  if (src.num_elements() == 0) return out;
  switch (tensor::DTypeSize(src.dtype())) {
    case 1: Transpose<uint8_t>(src.raw_data(), out->raw_data(), images, rows, cols, pool); break;
    case 2: Transpose<uint16_t>(src.raw_data(), out->raw_data(), images, rows, cols, pool); break;
    case 4: Transpose<uint32_t>(src.raw_data(), out->raw_data(), images, rows, cols, pool); break;
    case 8: Transpose<uint64_t>(src.raw_data(), out->raw_data(), images, rows, cols, pool); break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("layout transform: unsupported dtype ", tensor::DTypeName(src.dtype())));
  }
  return out;
}

absl::Status NeedRank4(const Tensor& x, const char* layout) {
  if (x.rank() == 4) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("layout transform: a ", layout, " tensor has rank 4, got rank ", x.rank()));
}

}  // namespace

absl::StatusOr<Tensor> NchwToNhwc(const Tensor& nchw, pthreadpool_t pool) {
  if (auto s = NeedRank4(nchw, "NCHW"); !s.ok()) return s;
  const int64_t n = nchw.dim(0), c = nchw.dim(1), h = nchw.dim(2), w = nchw.dim(3);
  return TransposeImages(nchw, {n, h, w, c}, c, h * w, pool);
}

absl::StatusOr<Tensor> NhwcToNchw(const Tensor& nhwc, pthreadpool_t pool) {
  if (auto s = NeedRank4(nhwc, "NHWC"); !s.ok()) return s;
  const int64_t n = nhwc.dim(0), h = nhwc.dim(1), w = nhwc.dim(2), c = nhwc.dim(3);
  return TransposeImages(nhwc, {n, c, h, w}, h * w, c, pool);
}

}  // namespace qnnc::kernels::layout
