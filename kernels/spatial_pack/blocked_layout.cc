#include "kernels/spatial_pack/blocked_layout.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat("spatial_pack layout: ", args...));
}

absl::Status PrepareOutput(Tensor* output, DType dtype, const Shape& shape) {
  if (output == nullptr) return Invalid("output is null");
  return Tensor::PrepareForOverwrite(output, dtype, shape);
}

void Parallel2D(pthreadpool_t pool, pthreadpool_task_2d_t fn, void* ctx, size_t i, size_t j) {
  pthreadpool_parallelize_2d(pool, fn, ctx, i, j, 0);
}

// Pixels per tile of the layout loops: a tile of one channel block (4 KB)
// stays in L1 while its channels are gathered or scattered one plane at a
// time, and is large enough that the thread pool's cost per item (tens of
// ns at two threads) stays small.
int64_t TilePix(int64_t block, size_t elem) {
  return std::max<int64_t>(64, 4096 / (block * static_cast<int64_t>(elem)));
}

// PackWords builds little-endian words; big-endian machines take the
// generic byte loop.
constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// out[x] = the bytes lane[0..3][x] (little-endian), a null lane giving
// `pad`, for x in [x0, x1). Lanes are whole planes, so x indexes them directly.
void PackWords(const uint8_t* const lane[4], uint8_t pad, int64_t x0, int64_t x1,
               uint32_t* __restrict out) {
  const uint8_t* __restrict l0 = lane[0];
  const uint8_t* __restrict l1 = lane[1];
  const uint8_t* __restrict l2 = lane[2];
  const uint8_t* __restrict l3 = lane[3];
  if (l0 && l1 && l2 && !l3) {  // three channels: RGB images
    const uint32_t p = static_cast<uint32_t>(pad) << 24;
    for (int64_t x = x0; x < x1; ++x) {
      out[x] = l0[x] | (static_cast<uint32_t>(l1[x]) << 8) | (static_cast<uint32_t>(l2[x]) << 16) |
               p;
    }
    return;
  }
  for (int64_t x = x0; x < x1; ++x) {
    uint32_t v = 0;
    for (int l = 0; l < 4; ++l) {
      v |= static_cast<uint32_t>(lane[l] ? lane[l][x] : pad) << (8 * l);
    }
    out[x] = v;
  }
}

// One pixel tile of one (image, channel block): items run tile-major, so
// with threads each takes a band of rows of every block (as the kernels do).
template <typename T>
struct BlockTask {
  const T* s;
  T* d;
  int64_t c, cb, plane, block;
  T pad;
  int64_t tile;  // pixels per item: TilePix(block, sizeof(T))

  static void To(void* ctx, size_t tile, size_t ib) {
    const BlockTask& t = *static_cast<const BlockTask*>(ctx);
    const int64_t i = static_cast<int64_t>(ib) / t.cb, b = static_cast<int64_t>(ib) % t.cb;
    const int64_t x0 = static_cast<int64_t>(tile) * t.tile, x1 = std::min(t.plane, x0 + t.tile);
    T* dst = t.d + (i * t.cb + b) * t.plane * t.block;
    if constexpr (sizeof(T) == 1 && kLittleEndian) {
      // Bytes into blocks of 4 (the image stem's input): one 32-bit word per
      // pixel instead of four strided byte stores; the loop vectorizes.
      if (t.block == 4) {
        const uint8_t* lane[4];
        const uint8_t pad = static_cast<uint8_t>(t.pad);
        for (int64_t l = 0; l < 4; ++l) {
          const int64_t ch = b * 4 + l;
          lane[l] = ch < t.c ? reinterpret_cast<const uint8_t*>(t.s) + (i * t.c + ch) * t.plane
                             : nullptr;
        }
        uint32_t* out = reinterpret_cast<uint32_t*>(dst);
        PackWords(lane, pad, x0, x1, out);
        return;
      }
    }
    for (int64_t l = 0; l < t.block; ++l) {
      const int64_t ch = b * t.block + l;
      T* dp = dst + l;
      if (ch < t.c) {
        const T* sp = t.s + (i * t.c + ch) * t.plane;
        for (int64_t x = x0; x < x1; ++x) dp[x * t.block] = sp[x];
      } else {
        for (int64_t x = x0; x < x1; ++x) dp[x * t.block] = t.pad;
      }
    }
  }

  static void From(void* ctx, size_t tile, size_t ib) {
    const BlockTask& t = *static_cast<const BlockTask*>(ctx);
    const int64_t i = static_cast<int64_t>(ib) / t.cb, b = static_cast<int64_t>(ib) % t.cb;
    if (b * t.block >= t.c) return;
    const int64_t x0 = static_cast<int64_t>(tile) * t.tile, x1 = std::min(t.plane, x0 + t.tile);
    const T* src = t.s + (i * t.cb + b) * t.plane * t.block;
    const int64_t lanes = std::min(t.block, t.c - b * t.block);
    for (int64_t l = 0; l < lanes; ++l) {
      T* dp = t.d + (i * t.c + b * t.block + l) * t.plane;
      const T* sp = src + l;
      for (int64_t x = x0; x < x1; ++x) dp[x] = sp[x * t.block];
    }
  }
};

// Calls f with a typed null pointer of the unsigned type of `size` bytes
// (1, 2, 4 or 8): the loops only move bits.
template <typename F>
bool WithElementType(size_t size, F&& f) {
  switch (size) {
    case 1:
      f(static_cast<uint8_t*>(nullptr));
      return true;
    case 2:
      f(static_cast<uint16_t*>(nullptr));
      return true;
    case 4:
      f(static_cast<uint32_t*>(nullptr));
      return true;
    case 8:
      f(static_cast<uint64_t*>(nullptr));
      return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Tensor> ToBlocked(const Tensor& nchw, int64_t block, int64_t pad_value,
                                 pthreadpool_t pool) {
  Tensor out;
  RETURN_IF_ERROR(ToBlockedInto(nchw, block, pad_value, &out, pool));
  return out;
}

absl::Status ToBlockedInto(const Tensor& nchw, int64_t block, int64_t pad_value, Tensor* output,
                           pthreadpool_t pool) {
  if (nchw.rank() != 4 || block <= 0) {
    return Invalid("ToBlocked needs a rank-4 tensor and a positive block, got ",
                   tensor::ShapeToString(nchw.shape()), " block ", block);
  }
  const int64_t n = nchw.dim(0), c = nchw.dim(1), plane = nchw.dim(2) * nchw.dim(3);
  const int64_t cb = CeilDiv(c, block);
  RETURN_IF_ERROR(PrepareOutput(output, nchw.dtype(), {n, cb, nchw.dim(2), nchw.dim(3), block}));
  Tensor& out = *output;
  const size_t es = tensor::DTypeSize(nchw.dtype());
  const bool ok = WithElementType(es, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    // The pad value in the element type (its low bytes: integer dtypes).
    T pad{};
    std::memcpy(&pad, &pad_value, std::min(sizeof(T), sizeof(pad_value)));
    BlockTask<T> t{static_cast<const T*>(nchw.raw_data()), static_cast<T*>(out.raw_data()), c, cb,
                   plane, block, pad, TilePix(block, sizeof(T))};
    Parallel2D(pool, &BlockTask<T>::To, &t, static_cast<size_t>(CeilDiv(plane, t.tile)),
               static_cast<size_t>(n * cb));
  });
  if (!ok) return Invalid("ToBlocked: unsupported element size ", es);
  return absl::OkStatus();
}

absl::StatusOr<Tensor> FromBlocked(const Tensor& blocked, int64_t channels, pthreadpool_t pool) {
  Tensor out;
  RETURN_IF_ERROR(FromBlockedInto(blocked, channels, &out, pool));
  return out;
}

absl::Status FromBlockedInto(const Tensor& blocked, int64_t channels, Tensor* output,
                             pthreadpool_t pool) {
  if (blocked.rank() != 5 || channels <= 0 || channels > blocked.dim(1) * blocked.dim(4)) {
    return Invalid("FromBlocked needs a rank-5 tensor holding ", channels, " channels, got ",
                   tensor::ShapeToString(blocked.shape()));
  }
  const int64_t n = blocked.dim(0), cb = blocked.dim(1), block = blocked.dim(4);
  const int64_t plane = blocked.dim(2) * blocked.dim(3);
  RETURN_IF_ERROR(PrepareOutput(output, blocked.dtype(), {n, channels, blocked.dim(2), blocked.dim(3)}));
  Tensor& out = *output;
  const size_t es = tensor::DTypeSize(blocked.dtype());
  const bool ok = WithElementType(es, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    BlockTask<T> t{static_cast<const T*>(blocked.raw_data()), static_cast<T*>(out.raw_data()),
                   channels, cb, plane, block, T{}, TilePix(block, sizeof(T))};
    Parallel2D(pool, &BlockTask<T>::From, &t, static_cast<size_t>(CeilDiv(plane, t.tile)),
               static_cast<size_t>(n * cb));
  });
  if (!ok) return Invalid("FromBlocked: unsupported element size ", es);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::spatial_pack
