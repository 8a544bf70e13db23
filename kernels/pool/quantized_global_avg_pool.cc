#include "kernels/pool/quantized_global_avg_pool.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/cpu_clones.h"
#include "kernels/elementwise/quantize.h"
#include "util/status_macros.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

bool Byte(DType d) { return d == DType::kU8 || d == DType::kI8; }

bool FitsZeroPoint(DType d, int32_t zp) { return zp >= tensor::DTypeMin(d) && zp <= tensor::DTypeMax(d); }

// The channel means, in float as the three ops compute them. A group of
// `lanes` channels is summed side by side, so that the adds vectorize across
// channels while each channel keeps its own order: in the blocked layout a
// block (its lanes adjacent, pixel after pixel), in NCHW 8 planes (`pixels`
// apart) and then single planes. A group's values are contiguous.
template <typename Q>
struct MeanTask {
  const Q* x;
  float* means;
  int64_t groups, lanes, pixels;
  bool blocked;
  float scale;
  int32_t zp;

  // kGroups groups from g on, side by side (independent sums hide the add's
  // latency). kLanes 0: `lanes` (at most 64) from the task, blocked.
  template <int kLanes, bool kBlocked, int kGroups>
  QNNC_CLONE_BODY static void Groups(const MeanTask& t, int64_t g) {
    constexpr int kMaxLanes = kLanes > 0 ? kLanes : 64;
    const int64_t lanes = kLanes > 0 ? kLanes : t.lanes;
    const int64_t group_size = lanes * t.pixels;
    float sum[kGroups][kMaxLanes];
    const Q* base = t.x + g * group_size;
    for (int k = 0; k < kGroups; ++k) {
      for (int64_t l = 0; l < lanes; ++l) sum[k][l] = 0.0f;
    }
    for (int64_t p = 0; p < t.pixels; ++p) {
      for (int k = 0; k < kGroups; ++k) {
        const Q* at = base + k * group_size;
        for (int64_t l = 0; l < lanes; ++l) {
          const Q v = kBlocked ? at[p * lanes + l] : at[l * t.pixels + p];
          sum[k][l] += static_cast<float>(static_cast<int32_t>(v) - t.zp) * t.scale;
        }
      }
    }
    const float count = static_cast<float>(t.pixels);
    for (int k = 0; k < kGroups; ++k) {
      for (int64_t l = 0; l < lanes; ++l) t.means[(g + k) * lanes + l] = sum[k][l] / count;
    }
  }

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t first, size_t count) {
    const MeanTask& t = *static_cast<const MeanTask*>(ctx);
    const int64_t end = std::min<int64_t>(t.groups, static_cast<int64_t>(first + count));
    int64_t g = static_cast<int64_t>(first);
    if (t.blocked && t.lanes == 16) {
      for (; g + 4 <= end; g += 4) Groups<16, true, 4>(t, g);
    }
    for (; g < end; ++g) {
      if (!t.blocked) {
        t.lanes == 8 ? Groups<8, false, 1>(t, g) : Groups<1, false, 1>(t, g);
      } else if (t.lanes == 16) {
        Groups<16, true, 1>(t, g);
      } else if (t.lanes == 8) {
        Groups<8, true, 1>(t, g);
      } else {
        Groups<0, true, 1>(t, g);
      }
    }
  }
};

// x's pooled shape, or an error naming what it takes.
absl::StatusOr<tensor::Shape> PooledShape(const Tensor& x, const char* kernel) {
  const bool blocked = x.defined() && x.rank() == 5 && x.dim(4) > 0 && x.dim(4) <= 64;
  if (!x.defined() || !Byte(x.dtype()) || (x.rank() != 4 && !blocked) || x.dim(2) * x.dim(3) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        kernel, ": needs u8 or i8 [N, C, H, W] or [N, C/k, H, W, k] (k <= 64) with H * W > 0, got ",
        x.defined() ? tensor::DTypeName(x.dtype()) : "undefined", "[",
        x.defined() ? absl::StrJoin(x.shape(), ",") : "", "]"));
  }
  tensor::Shape shape = {x.dim(0), x.dim(1), 1, 1};
  if (blocked) shape.push_back(x.dim(4));
  return shape;
}

}  // namespace

bool QuantizedGlobalAvgPoolSupported(DType input_dtype, const GlobalPoolQuantization& q) {
  return Byte(input_dtype) && Byte(q.output_dtype) && std::isfinite(q.input_scale) &&
         q.input_scale != 0 && FitsZeroPoint(input_dtype, q.input_zero_point) &&
         elementwise::QuantizeSupported(q.output_dtype, q.output_scale, q.output_zero_point);
}

absl::Status DequantizedGlobalAvgPool2D(const Tensor& x, float scale, int32_t zero_point,
                                        Tensor* means, pthreadpool_t pool) {
  ASSIGN_OR_RETURN(tensor::Shape shape, PooledShape(x, "DequantizedGlobalAvgPool2D"));
  if (!FitsZeroPoint(x.dtype(), zero_point)) {
    return absl::InvalidArgumentError(absl::StrCat("DequantizedGlobalAvgPool2D: zero point ", zero_point,
                                                   " is outside ", tensor::DTypeName(x.dtype())));
  }
  if (means == nullptr) return absl::InvalidArgumentError("DequantizedGlobalAvgPool2D: means is null");
  if (!means->defined() || means->dtype() != DType::kF32 || means->shape() != shape) {
    ASSIGN_OR_RETURN(*means, Tensor::CreateForOverwrite(DType::kF32, shape));
  }
  const bool blocked = x.rank() == 5;
  const int64_t pixels = x.dim(2) * x.dim(3);
  const int64_t channels = x.num_elements() / pixels;
  // Blocked: a group is a block, its lanes adjacent, pixels k apart. NCHW:
  // a group is 8 planes (a plane's pixels adjacent, the planes `pixels`
  // apart), then single planes for the rest.
  const int64_t lanes = blocked ? x.dim(4) : 8;
  auto launch = [&](auto* tag) {
    using Q = std::remove_pointer_t<decltype(tag)>;
    MeanTask<Q> t{x.data<Q>(), means->data<float>(), channels / lanes, lanes, pixels, blocked,
                  scale, zero_point};
    const CloneTask body = CpuClones<&MeanTask<Q>::RunBody>::Pick();
    if (pool == nullptr || x.num_elements() < (64 << 10)) {
      body(&t, 0, static_cast<size_t>(t.groups));
    } else {
      pthreadpool_parallelize_1d_tile_1d(pool, body, &t, static_cast<size_t>(t.groups), 4, 0);
    }
    MeanTask<Q> rest = t;  // NCHW planes left over from the groups of 8
    rest.lanes = 1;
    rest.groups = channels;
    for (int64_t c = t.groups * lanes; c < channels; ++c) MeanTask<Q>::RunBody(&rest, c, 1);
  };
  if (x.dtype() == DType::kU8) {
    launch(static_cast<uint8_t*>(nullptr));
  } else {
    launch(static_cast<int8_t*>(nullptr));
  }
  return absl::OkStatus();
}

absl::Status QuantizedGlobalAvgPool2D(const Tensor& x, const GlobalPoolQuantization& q, Tensor* out,
                                      pthreadpool_t pool) {
  ASSIGN_OR_RETURN(tensor::Shape shape, PooledShape(x, "QuantizedGlobalAvgPool2D"));
  if (!QuantizedGlobalAvgPoolSupported(x.dtype(), q)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "QuantizedGlobalAvgPool2D: unsupported quantization (input scale ", q.input_scale,
        ", zero point ", q.input_zero_point, "; output scale ", q.output_scale, ", zero point ",
        q.output_zero_point, " ", tensor::DTypeName(q.output_dtype), ")"));
  }
  if (out == nullptr) return absl::InvalidArgumentError("QuantizedGlobalAvgPool2D: out is null");
  Tensor means;
  RETURN_IF_ERROR(DequantizedGlobalAvgPool2D(x, q.input_scale, q.input_zero_point, &means, pool));
  return elementwise::QuantizePerTensor(means, q.output_scale, q.output_zero_point, q.output_dtype,
                                        out, nullptr);
}

}  // namespace qnnc::kernels::pool
