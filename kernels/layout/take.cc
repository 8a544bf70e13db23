#include "kernels/layout/take.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "kernels/cpu/isa.h"
#include "kernels/cpu_clones.h"
#include "kernels/elementwise/lookup.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::Tensor;

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
QNNC_AVX512_BODIES_BEGIN
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
QNNC_AVX512_BODIES_END

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

#if defined(__aarch64__)
// NEON, a pixel a step: tbl gives 0 for a lane byte of 0x80, as vpshufb.
void Gather16Neon(const uint8_t* const* in, const uint8_t* const* lanes, size_t sources, uint8_t* out,
                  int64_t pixels) {
  uint8x16_t masks[kMaxSources];
  for (size_t s = 0; s < sources; ++s) masks[s] = vld1q_u8(lanes[s]);
  for (int64_t p = 0; p < pixels; ++p) {
    uint8x16_t r = vqtbl1q_u8(vld1q_u8(in[0] + p * 16), masks[0]);
    for (size_t s = 1; s < sources; ++s) r = vorrq_u8(r, vqtbl1q_u8(vld1q_u8(in[s] + p * 16), masks[s]));
    vst1q_u8(out + p * 16, r);
  }
}
#endif

GatherFn PickGather16() {
  return PickForHost<GatherFn>({QNNC_X86_BODY(Gather16Avx512), QNNC_X86_BODY(Gather16Avx2),
                                QNNC_NEON_BODY(Gather16Neon)},
                               &Gather16Scalar);
}

constexpr int64_t kPixelTile = 128;
constexpr std::array<uint8_t, 16> kIdentityLanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

struct GatherTask {
  const std::vector<const uint8_t*>* in;      // per input: its data
  const std::vector<int64_t>* in_blocks;      // per input: its blocks
  const std::vector<const uint8_t*>* tables;  // per input: its table or nullptr
  uint8_t* out;
  int64_t out_blocks, pixels, block, elem;
  const std::vector<std::vector<BlockedChannelGather::Source>>* sources;  // 8-bit, 16 lanes
  const std::vector<std::pair<int64_t, int64_t>>* picks;                 // any other case
  GatherFn gather16;
  elementwise::LookupBytesFn lookup;

  // Task (image * out_blocks + output block, pixel tile).
  static void Run(void* ctx, size_t image_block, size_t tile) {
    const GatherTask& t = *static_cast<const GatherTask*>(ctx);
    const int64_t n = static_cast<int64_t>(image_block) / t.out_blocks;
    const int64_t ob = static_cast<int64_t>(image_block) % t.out_blocks;
    const int64_t p0 = static_cast<int64_t>(tile) * kPixelTile;
    const int64_t pixels = std::min(kPixelTile, t.pixels - p0);
    const int64_t row = t.pixels * t.block * t.elem;  // bytes of one block
    uint8_t* out = t.out + (n * t.out_blocks + ob) * row + p0 * t.block * t.elem;
    auto in_block = [&](int64_t input, int64_t b) {
      return (*t.in)[input] + (n * (*t.in_blocks)[input] + b) * row + p0 * t.block * t.elem;
    };
    if (t.sources != nullptr) {
      const auto& srcs = (*t.sources)[ob];
      // A whole input block in order (a concat of inputs with multiples of
      // 16 channels): a copy of the block, or its lookup straight into the
      // output.
      if (srcs.size() == 1 && srcs[0].lanes == kIdentityLanes) {
        const uint8_t* from = in_block(srcs[0].input, srcs[0].block);
        if (const uint8_t* table = (*t.tables)[srcs[0].input]) {
          t.lookup(from, out, table, pixels * 16);
        } else {
          std::memcpy(out, from, static_cast<size_t>(pixels * 16));
        }
        return;
      }
      const uint8_t* in[kMaxSources];
      const uint8_t* lanes[kMaxSources];
      alignas(64) uint8_t mapped[kMaxSources][kPixelTile * 16];
      for (size_t s = 0; s < srcs.size(); ++s) {
        in[s] = in_block(srcs[s].input, srcs[s].block);
        if (const uint8_t* table = (*t.tables)[srcs[s].input]) {
          t.lookup(in[s], mapped[s], table, pixels * 16);
          in[s] = mapped[s];
        }
        lanes[s] = srcs[s].lanes.data();
      }
      t.gather16(in, lanes, srcs.size(), out, pixels);
      return;
    }
    const int64_t stride = t.block * t.elem;
    for (int64_t l = 0; l < t.block; ++l) {
      const int64_t j = ob * t.block + l;
      uint8_t* o = out + l * t.elem;
      if (j >= static_cast<int64_t>(t.picks->size())) {
        for (int64_t p = 0; p < pixels; ++p) std::memset(o + p * stride, 0, t.elem);
        continue;
      }
      const auto [input, c] = (*t.picks)[j];
      const uint8_t* i = in_block(input, c / t.block) + (c % t.block) * t.elem;
      if (const uint8_t* table = (*t.tables)[input]) {
        for (int64_t p = 0; p < pixels; ++p) o[p * stride] = table[i[p * stride]];
      } else {
        for (int64_t p = 0; p < pixels; ++p) std::memcpy(o + p * stride, i + p * stride, t.elem);
      }
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
  if (absl::Status st = Tensor::PrepareForOverwrite(out, x.dtype(), shape); !st.ok()) return st;
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

absl::StatusOr<BlockedChannelGather> BlockedChannelGather::Make(std::vector<Input> inputs,
                                                                const std::vector<int64_t>& indices, int64_t block) {
  if (block < 1 || inputs.empty() || indices.empty()) {
    return absl::InvalidArgumentError("BlockedChannelGather: needs a block, inputs and indices");
  }
  BlockedChannelGather g;
  g.block_ = block;
  std::vector<std::pair<int64_t, int64_t>> channels;  // laid end to end: (input, channel)
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].channels < 1 || (!inputs[i].table.empty() && inputs[i].table.size() != 256)) {
      return absl::InvalidArgumentError(absl::StrCat("BlockedChannelGather: input ", i, " needs channels and a 256-entry table or none"));
    }
    for (int64_t c = 0; c < inputs[i].channels; ++c) channels.emplace_back(static_cast<int64_t>(i), c);
  }
  const int64_t total = static_cast<int64_t>(channels.size());
  for (int64_t i : indices) {
    const int64_t c = i < 0 ? i + total : i;
    if (c < 0 || c >= total) {
      return absl::InvalidArgumentError(
          absl::StrCat("BlockedChannelGather: index ", i, " outside [-", total, ", ", total, ")"));
    }
    g.picks_.push_back(channels[c]);
  }
  g.inputs_ = std::move(inputs);
  if (block != 16) return g;
  const int64_t out_blocks = (static_cast<int64_t>(g.picks_.size()) + 15) / 16;
  g.sources_.resize(out_blocks);
  for (int64_t ob = 0; ob < out_blocks; ++ob) {
    auto& srcs = g.sources_[ob];
    for (int64_t l = 0; l < 16 && ob * 16 + l < static_cast<int64_t>(g.picks_.size()); ++l) {
      // Plain locals: clang (the fuzz build) cannot capture structured bindings.
      const int64_t input = g.picks_[ob * 16 + l].first, c = g.picks_[ob * 16 + l].second;
      auto it = std::find_if(srcs.begin(), srcs.end(),
                             [&](const Source& s) { return s.input == input && s.block == c / 16; });
      if (it == srcs.end()) {
        Source s{input, c / 16, {}};
        s.lanes.fill(0x80);
        srcs.push_back(s);
        it = srcs.end() - 1;
      }
      it->lanes[l] = static_cast<uint8_t>(c % 16);
    }
  }
  return g;
}

absl::StatusOr<BlockedChannelGather> BlockedChannelGather::Make(const std::vector<int64_t>& indices,
                                                                int64_t channels, int64_t block) {
  return Make({Input{channels, {}}}, indices, block);
}

absl::StatusOr<BlockedChannelGather> BlockedChannelGather::Concat(std::vector<Input> inputs, int64_t block) {
  std::vector<int64_t> all;
  for (const Input& in : inputs) {
    for (int64_t c = 0; c < in.channels; ++c) all.push_back(static_cast<int64_t>(all.size()));
  }
  return Make(std::move(inputs), all, block);
}

absl::Status BlockedChannelGather::Run(const Tensor& x, Tensor* out, pthreadpool_t pool) const {
  return Run(std::vector<Tensor>{x}, out, pool);
}

absl::Status BlockedChannelGather::Run(const std::vector<Tensor>& inputs, Tensor* out, pthreadpool_t pool) const {
  if (inputs.size() != inputs_.size() || out == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("BlockedChannelGather: expected ", inputs_.size(), " inputs"));
  }
  std::vector<const uint8_t*> data, tables;
  std::vector<int64_t> blocks;
  const tensor::Shape& s0 = inputs[0].shape();
  bool any_table = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    const tensor::Shape& s = x.shape();
    const int64_t b = (inputs_[i].channels + block_ - 1) / block_;
    if (!x.defined() || s.size() != 5 || s[1] != b || s[4] != block_ || s[0] != s0[0] || s[2] != s0[2] ||
        s[3] != s0[3] || x.dtype() != inputs[0].dtype()) {
      return absl::InvalidArgumentError(absl::StrCat("BlockedChannelGather: input ", i, " should be [", s0.empty() ? 0 : s0[0],
                                                     ", ", b, ", H, W, ", block_, "] like input 0, got ",
                                                     tensor::ShapeToString(s)));
    }
    data.push_back(static_cast<const uint8_t*>(x.raw_data()));
    blocks.push_back(b);
    tables.push_back(inputs_[i].table.empty() ? nullptr : inputs_[i].table.data());
    any_table = any_table || !inputs_[i].table.empty();
  }
  const int64_t elem = static_cast<int64_t>(tensor::DTypeSize(inputs[0].dtype()));
  if (any_table && elem != 1) return absl::InvalidArgumentError("BlockedChannelGather: tables need 8-bit data");
  const int64_t count = static_cast<int64_t>(picks_.size());
  const int64_t out_blocks = (count + block_ - 1) / block_;
  const tensor::Shape shape = {s0[0], out_blocks, s0[2], s0[3], block_};
  if (absl::Status st = Tensor::PrepareForOverwrite(out, inputs[0].dtype(), shape); !st.ok()) return st;
  const bool bytes16 = elem == 1 && block_ == 16;
  GatherTask task{&data,
                  &blocks,
                  &tables,
                  static_cast<uint8_t*>(out->raw_data()),
                  out_blocks,
                  s0[2] * s0[3],
                  block_,
                  elem,
                  bytes16 ? &sources_ : nullptr,
                  &picks_,
                  bytes16 ? PickGather16() : nullptr,
                  elementwise::PickLookupBytes()};
  const size_t tiles = static_cast<size_t>((task.pixels + kPixelTile - 1) / kPixelTile);
  if (s0[0] * out_blocks > 0 && tiles > 0) {
    pthreadpool_parallelize_2d(pool, &GatherTask::Run, &task, static_cast<size_t>(s0[0] * out_blocks), tiles, 0);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::layout
