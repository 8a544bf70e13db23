#include "kernels/layout/take.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "kernels/cpu_clones.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::Tensor;

absl::Status EnsureOutput(tensor::DType dtype, const tensor::Shape& shape, Tensor* out) {
  if (out->defined() && out->dtype() == dtype && out->shape() == shape) return absl::OkStatus();
  auto t = Tensor::CreateForOverwrite(dtype, shape);
  if (!t.ok()) return t.status();
  *out = *std::move(t);
  return absl::OkStatus();
}

struct TakeTask {
  const uint8_t* in;
  uint8_t* out;
  const int64_t* indices;
  int64_t count, axis_dim, slice_bytes;
  static void Run(void* ctx, size_t row) {
    const TakeTask& t = *static_cast<const TakeTask*>(ctx);
    const int64_t outer = static_cast<int64_t>(row) / t.count, j = static_cast<int64_t>(row) % t.count;
    std::memcpy(t.out + row * t.slice_bytes, t.in + (outer * t.axis_dim + t.indices[j]) * t.slice_bytes,
                static_cast<size_t>(t.slice_bytes));
  }
};

// One output block's pixels [0, pixels) from its sources: in[s] is source
// s's block at the first pixel, lanes[s] its 16 lane bytes (0x80: none).
using GatherFn = void (*)(const uint8_t* const* in, const uint8_t* const* lanes, size_t sources, uint8_t* out,
                          int64_t pixels);

void Gather16Scalar(const uint8_t* const* in, const uint8_t* const* lanes, size_t sources, uint8_t* out,
                    int64_t pixels) {
  for (int64_t p = 0; p < pixels; ++p) {
    for (int l = 0; l < 16; ++l) {
      uint8_t v = 0;
      for (size_t s = 0; s < sources; ++s) {
        if (lanes[s][l] < 16) v = in[s][p * 16 + lanes[s][l]];
      }
      out[p * 16 + l] = v;
    }
  }
}

constexpr size_t kMaxSources = 16;  // one per lane at most

#if QNNC_HAS_CPU_CLONES
QNNC_TARGET_X86_64_V4 void Gather16Avx512(const uint8_t* const* in, const uint8_t* const* lanes, size_t sources,
                                          uint8_t* out, int64_t pixels) {
  __m512i masks[kMaxSources];
  for (size_t s = 0; s < sources; ++s) {
    masks[s] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes[s])));
  }
  int64_t p = 0;
  for (; p + 4 <= pixels; p += 4) {
    __m512i r = _mm512_shuffle_epi8(_mm512_loadu_si512(in[0] + p * 16), masks[0]);
    for (size_t s = 1; s < sources; ++s) {
      r = _mm512_or_si512(r, _mm512_shuffle_epi8(_mm512_loadu_si512(in[s] + p * 16), masks[s]));
    }
    _mm512_storeu_si512(out + p * 16, r);
  }
  if (p == pixels) return;
  const uint8_t* rest[kMaxSources];
  for (size_t s = 0; s < sources; ++s) rest[s] = in[s] + p * 16;
  Gather16Scalar(rest, lanes, sources, out + p * 16, pixels - p);
}

QNNC_TARGET_X86_64_V3 void Gather16Avx2(const uint8_t* const* in, const uint8_t* const* lanes, size_t sources,
                                        uint8_t* out, int64_t pixels) {
  __m256i masks[kMaxSources];
  for (size_t s = 0; s < sources; ++s) {
    masks[s] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes[s])));
  }
  int64_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    __m256i r = _mm256_setzero_si256();
    for (size_t s = 0; s < sources; ++s) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in[s] + p * 16));
      r = _mm256_or_si256(r, _mm256_shuffle_epi8(v, masks[s]));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + p * 16), r);
  }
  if (p == pixels) return;
  const uint8_t* rest[kMaxSources];
  for (size_t s = 0; s < sources; ++s) rest[s] = in[s] + p * 16;
  Gather16Scalar(rest, lanes, sources, out + p * 16, pixels - p);
}
#endif

GatherFn PickGather16() {
#if QNNC_HAS_CPU_CLONES
  const cpu::IsaLevel level = cpu::HostIsaLevel();
  if (level >= cpu::IsaLevel::kAvx512bw) return &Gather16Avx512;
  if (level >= cpu::IsaLevel::kAvx2) return &Gather16Avx2;
#endif
  return &Gather16Scalar;
}

constexpr int64_t kPixelTile = 256;

struct GatherTask {
  const uint8_t* in;
  uint8_t* out;
  int64_t in_blocks, out_blocks, pixels, block, elem;
  const std::vector<std::vector<BlockedChannelGather::Source>>* sources;  // 8-bit, 16 lanes
  const int64_t* indices;                                                  // any other case
  int64_t count;
  GatherFn gather16;

  // Task (image * out_blocks + output block, pixel tile).
  static void Run(void* ctx, size_t image_block, size_t tile) {
    const GatherTask& t = *static_cast<const GatherTask*>(ctx);
    const int64_t n = static_cast<int64_t>(image_block) / t.out_blocks;
    const int64_t ob = static_cast<int64_t>(image_block) % t.out_blocks;
    const int64_t p0 = static_cast<int64_t>(tile) * kPixelTile;
    const int64_t pixels = std::min(kPixelTile, t.pixels - p0);
    const int64_t row = t.pixels * t.block * t.elem;  // bytes of one block
    uint8_t* out = t.out + (n * t.out_blocks + ob) * row + p0 * t.block * t.elem;
    auto in_block = [&](int64_t b) { return t.in + (n * t.in_blocks + b) * row + p0 * t.block * t.elem; };
    if (t.sources != nullptr) {
      const auto& srcs = (*t.sources)[ob];
      const uint8_t* in[kMaxSources];
      const uint8_t* lanes[kMaxSources];
      for (size_t s = 0; s < srcs.size(); ++s) {
        in[s] = in_block(srcs[s].block);
        lanes[s] = srcs[s].lanes.data();
      }
      t.gather16(in, lanes, srcs.size(), out, pixels);
      return;
    }
    for (int64_t l = 0; l < t.block; ++l) {
      const int64_t j = ob * t.block + l;
      uint8_t* o = out + l * t.elem;
      if (j >= t.count) {
        for (int64_t p = 0; p < pixels; ++p) std::memset(o + p * t.block * t.elem, 0, t.elem);
        continue;
      }
      const uint8_t* i = in_block(t.indices[j] / t.block) + (t.indices[j] % t.block) * t.elem;
      for (int64_t p = 0; p < pixels; ++p) std::memcpy(o + p * t.block * t.elem, i + p * t.block * t.elem, t.elem);
    }
  }
};

}  // namespace

absl::Status TakeConstant(const Tensor& x, const std::vector<int64_t>& indices, const tensor::Shape& indices_shape,
                          int64_t axis, Tensor* out, pthreadpool_t pool) {
  const tensor::Shape& s = x.shape();
  const int64_t rank = static_cast<int64_t>(s.size());
  if (!x.defined() || out == nullptr || axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError("TakeConstant: needs a tensor and an axis inside its rank");
  }
  int64_t count = 1;
  for (int64_t d : indices_shape) count *= d;
  if (count != static_cast<int64_t>(indices.size())) {
    return absl::InvalidArgumentError("TakeConstant: indices do not fill their shape");
  }
  for (int64_t i : indices) {
    if (i < 0 || i >= s[axis]) {
      return absl::InvalidArgumentError(absl::StrCat("TakeConstant: index ", i, " outside [0, ", s[axis], ")"));
    }
  }
  tensor::Shape shape(s.begin(), s.begin() + axis);
  shape.insert(shape.end(), indices_shape.begin(), indices_shape.end());
  shape.insert(shape.end(), s.begin() + axis + 1, s.end());
  if (absl::Status st = EnsureOutput(x.dtype(), shape, out); !st.ok()) return st;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= s[d];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= s[d];
  TakeTask task{static_cast<const uint8_t*>(x.raw_data()), static_cast<uint8_t*>(out->raw_data()), indices.data(),
                count, s[axis], inner * static_cast<int64_t>(tensor::DTypeSize(x.dtype()))};
  if (outer * count > 0 && task.slice_bytes > 0) {
    pthreadpool_parallelize_1d(pool, &TakeTask::Run, &task, static_cast<size_t>(outer * count), 0);
  }
  return absl::OkStatus();
}

absl::StatusOr<BlockedChannelGather> BlockedChannelGather::Make(const std::vector<int64_t>& indices,
                                                                int64_t channels, int64_t block) {
  if (block < 1 || channels < 1 || indices.empty()) {
    return absl::InvalidArgumentError("BlockedChannelGather: needs a block, channels and indices");
  }
  BlockedChannelGather g;
  g.channels_ = channels;
  g.block_ = block;
  for (int64_t i : indices) {
    const int64_t c = i < 0 ? i + channels : i;
    if (c < 0 || c >= channels) {
      return absl::InvalidArgumentError(
          absl::StrCat("BlockedChannelGather: index ", i, " outside [-", channels, ", ", channels, ")"));
    }
    g.indices_.push_back(c);
  }
  if (block != 16) return g;
  const int64_t out_blocks = (static_cast<int64_t>(g.indices_.size()) + 15) / 16;
  g.sources_.resize(out_blocks);
  for (int64_t ob = 0; ob < out_blocks; ++ob) {
    auto& srcs = g.sources_[ob];
    for (int64_t l = 0; l < 16; ++l) {
      const int64_t j = ob * 16 + l;
      if (j >= static_cast<int64_t>(g.indices_.size())) break;
      const int64_t b = g.indices_[j] / 16;
      auto it = std::find_if(srcs.begin(), srcs.end(), [&](const Source& s) { return s.block == b; });
      if (it == srcs.end()) {
        Source s{b, {}};
        s.lanes.fill(0x80);
        srcs.push_back(s);
        it = srcs.end() - 1;
      }
      it->lanes[l] = static_cast<uint8_t>(g.indices_[j] % 16);
    }
  }
  return g;
}

absl::Status BlockedChannelGather::Run(const Tensor& x, Tensor* out, pthreadpool_t pool) const {
  const tensor::Shape& s = x.shape();
  const int64_t in_blocks = (channels_ + block_ - 1) / block_;
  if (!x.defined() || out == nullptr || s.size() != 5 || s[1] != in_blocks || s[4] != block_) {
    return absl::InvalidArgumentError(absl::StrCat("BlockedChannelGather: expected [N, ", in_blocks, ", H, W, ",
                                                   block_, "], got ", tensor::ShapeToString(s)));
  }
  const int64_t count = static_cast<int64_t>(indices_.size());
  const int64_t out_blocks = (count + block_ - 1) / block_;
  if (absl::Status st = EnsureOutput(x.dtype(), {s[0], out_blocks, s[2], s[3], block_}, out); !st.ok()) return st;
  const int64_t elem = static_cast<int64_t>(tensor::DTypeSize(x.dtype()));
  const bool bytes16 = elem == 1 && block_ == 16;
  GatherTask task{static_cast<const uint8_t*>(x.raw_data()),
                  static_cast<uint8_t*>(out->raw_data()),
                  in_blocks,
                  out_blocks,
                  s[2] * s[3],
                  block_,
                  elem,
                  bytes16 ? &sources_ : nullptr,
                  indices_.data(),
                  count,
                  bytes16 ? PickGather16() : nullptr};
  const size_t tiles = static_cast<size_t>((task.pixels + kPixelTile - 1) / kPixelTile);
  if (s[0] * out_blocks > 0 && tiles > 0) {
    pthreadpool_parallelize_2d(pool, &GatherTask::Run, &task, static_cast<size_t>(s[0] * out_blocks), tiles, 0);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::layout
