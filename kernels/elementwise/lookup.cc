#include "kernels/elementwise/lookup.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "kernels/cpu/isa.h"
#include "kernels/cpu_clones.h"

namespace qnnc::kernels::elementwise {
namespace {

constexpr int64_t kChunk = 16 << 10;

// n bytes through the table. The vector versions split each byte into its
// high nibble (which 16-entry slice of the table) and low nibble (the entry,
// looked up by vpshufb in every slice); the slice matching the high nibble
// is kept. The same table read as the scalar loop, so the same bytes.
void LookupScalar(const uint8_t* in, uint8_t* out, const uint8_t* table, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

#if QNNC_HAS_CPU_CLONES
QNNC_AVX512_BODIES_BEGIN
QNNC_TARGET_X86_64_V4 void LookupAvx512(const uint8_t* in, uint8_t* out, const uint8_t* table, int64_t n) {
  __m512i slices[16];
  for (int c = 0; c < 16; ++c) {
    slices[c] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table + 16 * c)));
  }
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i x = _mm512_loadu_si512(in + i);
    const __m512i lo = _mm512_and_si512(x, nibble);
    const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(x, 4), nibble);
    __m512i r = _mm512_setzero_si512();
    for (int c = 0; c < 16; ++c) {
      const __mmask64 m = _mm512_cmpeq_epi8_mask(hi, _mm512_set1_epi8(static_cast<char>(c)));
      r = _mm512_mask_shuffle_epi8(r, m, slices[c], lo);
    }
    _mm512_storeu_si512(out + i, r);
  }
  LookupScalar(in + i, out + i, table, n - i);
}
QNNC_AVX512_BODIES_END

// AVX-512 VBMI: the table in four zmm, each byte looked up in the low and
// the high 128 entries by vpermi2b (its 7 low bits), the one its top bit
// names kept: 4 instructions per 64 bytes instead of 32.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void LookupVbmi(const uint8_t* in, uint8_t* out,
                                                                         const uint8_t* table, int64_t n) {
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i x = _mm512_loadu_si512(in + i);
    const __m512i lo = _mm512_permutex2var_epi8(t0, x, t1);
    const __m512i hi = _mm512_permutex2var_epi8(t2, x, t3);
    _mm512_storeu_si512(out + i, _mm512_mask_mov_epi8(lo, _mm512_movepi8_mask(x), hi));
  }
  LookupScalar(in + i, out + i, table, n - i);
}

QNNC_TARGET_X86_64_V3 void LookupAvx2(const uint8_t* in, uint8_t* out, const uint8_t* table, int64_t n) {
  __m256i slices[16];
  for (int c = 0; c < 16; ++c) {
    slices[c] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table + 16 * c)));
  }
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i lo = _mm256_and_si256(x, nibble);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    __m256i r = _mm256_setzero_si256();
    for (int c = 0; c < 16; ++c) {
      const __m256i m = _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(static_cast<char>(c)));
      r = _mm256_blendv_epi8(r, _mm256_shuffle_epi8(slices[c], lo), m);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), r);
  }
  LookupScalar(in + i, out + i, table, n - i);
}
#endif

#if defined(__aarch64__)
// NEON: the table as four 64-byte tables, each byte looked up in all four by
// tbl/tbx on the byte minus 0, 64, 128 and 192: an index past a table's 64
// entries leaves the lane as it is (tbx; tbl gives 0), so exactly the table
// that holds the byte's entry writes it.
void LookupNeon(const uint8_t* in, uint8_t* out, const uint8_t* table, int64_t n) {
  uint8x16x4_t t[4];
  for (int k = 0; k < 4; ++k) t[k] = vld1q_u8_x4(table + 64 * k);
  const uint8x16_t step = vdupq_n_u8(64);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    uint8x16_t x = vld1q_u8(in + i);
    uint8x16_t r = vqtbl4q_u8(t[0], x);
    for (int k = 1; k < 4; ++k) {
      x = vsubq_u8(x, step);
      r = vqtbx4q_u8(r, t[k], x);
    }
    vst1q_u8(out + i, r);
  }
  LookupScalar(in + i, out + i, table, n - i);
}
#endif

}  // namespace

LookupBytesFn PickLookupBytes() {
#if QNNC_HAS_CPU_CLONES
  if (cpu::Includes(cpu::HostIsaLevel(), cpu::IsaLevel::kAvx512vnni) && cpu::HostCpuFeatures().avx512vbmi) {
    return &LookupVbmi;
  }
#endif
  return PickForHost<LookupBytesFn>({QNNC_X86_BODY(LookupAvx512), QNNC_X86_BODY(LookupAvx2),
                                     QNNC_NEON_BODY(LookupNeon)},
                                    &LookupScalar);
}

namespace {

struct LookupTask {
  const uint8_t* in;
  uint8_t* out;
  const uint8_t* table;
  int64_t n;
  LookupBytesFn run;
  static void Run(void* ctx, size_t chunk) {
    const LookupTask& t = *static_cast<const LookupTask*>(ctx);
    const int64_t begin = static_cast<int64_t>(chunk) * kChunk;
    const int64_t end = std::min(t.n, begin + kChunk);
    t.run(t.in + begin, t.out + begin, t.table, end - begin);
  }
};

}  // namespace

absl::Status Lookup(const tensor::Tensor& x, const uint8_t* table, tensor::DType out_dtype, tensor::Tensor* out,
                    pthreadpool_t pool) {
  auto byte = [](tensor::DType d) { return d == tensor::DType::kU8 || d == tensor::DType::kI8; };
  if (!x.defined() || !byte(x.dtype()) || !byte(out_dtype) || table == nullptr || out == nullptr) {
    return absl::InvalidArgumentError("Lookup: needs 8-bit data, a 256-entry table and an 8-bit output");
  }
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != x.shape()) {
    auto t = tensor::Tensor::CreateForOverwrite(out_dtype, x.shape());
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  LookupTask task{static_cast<const uint8_t*>(x.raw_data()), static_cast<uint8_t*>(out->raw_data()), table,
                  x.num_elements(), PickLookupBytes()};
  const size_t chunks = static_cast<size_t>((task.n + kChunk - 1) / kChunk);
  pthreadpool_parallelize_1d(pool, &LookupTask::Run, &task, chunks, 0);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
