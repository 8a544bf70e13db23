#include "kernels/spatial_pack/driver.h"

#include <atomic>
#include <cmath>

#include "tensor/window.h"
#include "util/status_macros.h"

namespace qnnc::kernels::spatial_pack {

// A per-thread, 64-byte aligned scratch buffer (slot 0: padded input, slot 1:
// expanded depthwise input, slot 2: a tile for a tile epilogue). Reused
// across runs: no allocation per call.
uint8_t* Scratch(int slot, size_t bytes) {
  thread_local std::vector<uint8_t> buffers[5];
  std::vector<uint8_t>& b = buffers[slot];
  if (b.size() < bytes + 64) b.resize(bytes + 64);
  const uintptr_t p = reinterpret_cast<uintptr_t>(b.data());
  return b.data() + ((64 - (p & 63)) & 63);
}

absl::Status CheckPaddedBytes(int64_t bytes) {
  if (bytes > kMaxPaddedBytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "spatial_pack conv2d: the padded input needs ", bytes, " bytes, over the limit of ",
        kMaxPaddedBytes));
  }
  return absl::OkStatus();
}

bool IsDepthwise(const QuantizedConvParams& p) {
  return p.groups > 1 && p.groups == p.in_channels && p.out_channels % p.groups == 0;
}

// The weights w - zw as int16 values, from an i8 tensor or an i16 one (8-bit
// weights minus a zero point, in [-255, 255]).
absl::StatusOr<std::vector<int16_t>> WeightValues(const Tensor& w) {
  std::vector<int16_t> v(static_cast<size_t>(w.num_elements()));
  if (w.dtype() == DType::kI8) {
    std::copy(w.data<int8_t>(), w.data<int8_t>() + v.size(), v.begin());
    return v;
  }
  std::copy(w.data<int16_t>(), w.data<int16_t>() + v.size(), v.begin());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < -255 || v[i] > 255) {
      return Invalid("i16 weight ", v[i], " at index ", i, " is outside [-255, 255]");
    }
  }
  return v;
}

bool FitsS8(const std::vector<int16_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int16_t x) { return x >= -128 && x <= 127; });
}

absl::Status ValidateParams(const QuantizedConvParams& p, const tensor::Tensor& weight,
                            DType weight_dtype) {
  if (!weight.defined() || weight.dtype() != weight_dtype) {
    return Invalid("weight must be ", tensor::DTypeName(weight_dtype), ", got ",
                   weight.defined() ? tensor::DTypeName(weight.dtype()) : "undefined");
  }
  return ValidateParams(p, weight.shape());
}

absl::Status ValidateParams(const QuantizedConvParams& p, const Shape& weight_shape) {
  if (p.in_channels <= 0 || p.out_channels <= 0 || p.groups <= 0) {
    return Invalid("channels and groups must be positive, got in_channels=", p.in_channels,
                   " out_channels=", p.out_channels, " groups=", p.groups);
  }
  if (p.in_channels % p.groups != 0 || p.out_channels % p.groups != 0) {
    return Invalid("groups=", p.groups, " must divide in_channels=", p.in_channels,
                   " and out_channels=", p.out_channels);
  }
  if (p.kernel_h <= 0 || p.kernel_w <= 0) {
    return Invalid("kernel must be positive, got ", p.kernel_h, "x", p.kernel_w);
  }
  for (int i = 0; i < 2; ++i) {
    if (p.strides[i] <= 0 || p.dilation[i] <= 0) {
      return Invalid("strides and dilation must be positive, got strides=", p.strides[0], ",",
                     p.strides[1], " dilation=", p.dilation[0], ",", p.dilation[1]);
    }
  }
  for (int64_t pad : p.pads) {
    if (pad < 0) return Invalid("pads must be non-negative, got ", pad);
  }
  // Bounds that keep every size the kernels derive (padded planes, window
  // offsets) far from int64 overflow; real layers are orders below them.
  for (int64_t v : {p.kernel_h, p.kernel_w, p.strides[0], p.strides[1], p.dilation[0],
                    p.dilation[1], p.pads[0], p.pads[1], p.pads[2], p.pads[3]}) {
    if (v > kMaxExtent) {
      return Invalid("kernel, strides, dilation and pads must be at most ", kMaxExtent,
                     ", got ", v);
    }
  }
  const Shape want = {p.out_channels, p.in_channels / p.groups, p.kernel_h, p.kernel_w};
  if (weight_shape != want) {
    return Invalid("weight shape ", tensor::ShapeToString(weight_shape), " should be ",
                   tensor::ShapeToString(want));
  }
  if (!p.bias.empty() && static_cast<int64_t>(p.bias.size()) != p.out_channels) {
    return Invalid("bias has ", p.bias.size(), " values for ", p.out_channels, " output channels");
  }
  const int64_t nm = static_cast<int64_t>(p.requant_multiplier.size());
  if (nm != 1 && nm != p.out_channels) {
    return Invalid("requant_multiplier has ", nm, " values; want 1 or ", p.out_channels);
  }
  if (p.out_dtype != DType::kU8 && p.out_dtype != DType::kI8 && p.out_dtype != DType::kI32) {
    return Invalid("out_dtype must be u8, i8 or i32 (raw accumulators), got ",
                   tensor::DTypeName(p.out_dtype));
  }
  const int64_t lo = std::max<int64_t>(p.clamp_min, tensor::DTypeMin(p.out_dtype));
  const int64_t hi = std::min<int64_t>(p.clamp_max, tensor::DTypeMax(p.out_dtype));
  if (lo > hi) return Invalid("empty clamp range [", lo, ", ", hi, "]");
  return absl::OkStatus();
}

Epilogue MakeEpilogue(const QuantizedConvParams& p) {
  Epilogue e;
  const int64_t lo = std::max<int64_t>(p.clamp_min, tensor::DTypeMin(p.out_dtype));
  const int64_t hi = std::min<int64_t>(p.clamp_max, tensor::DTypeMax(p.out_dtype));
  // Clamp bounds relative to the zero point; beyond +-2^24 they only matter
  // as "larger than any in-range result", so saturate them there.
  auto rel = [](int64_t v) {
    return static_cast<float>(std::clamp<int64_t>(v, -(int64_t{1} << 40), int64_t{1} << 40));
  };
  e.lo = rel(lo - p.output_zero_point);
  e.hi = rel(hi - p.output_zero_point);
  e.zp = p.output_zero_point;
  for (float m : p.requant_multiplier) e.nan_check |= !std::isfinite(m);
  e.packed16 = p.output_zero_point >= -255 && p.output_zero_point <= 255;
  for (float m : p.requant_multiplier) e.packed16 &= std::isfinite(m) && std::fabs(m) < 0.5f;
  e.out_signed = p.out_dtype == DType::kI8;
  e.clamp16 = lo != tensor::DTypeMin(p.out_dtype) || hi != tensor::DTypeMax(p.out_dtype);
  e.lo_abs = static_cast<int16_t>(lo);
  e.hi_abs = static_cast<int16_t>(hi);
  e.raw32 = p.out_dtype == DType::kI32;
  if (e.raw32) e.packed16 = e.nan_check = false;
  return e;
}

// Bias and multipliers padded to `channels` (extra channels: 0 and 1).
std::vector<int32_t> PaddedBias(const QuantizedConvParams& p, int64_t channels) {
  std::vector<int32_t> b(channels, 0);
  for (size_t i = 0; i < p.bias.size(); ++i) b[i] = p.bias[i];
  return b;
}
std::vector<float> PaddedMultipliers(const QuantizedConvParams& p, int64_t channels) {
  std::vector<float> m(channels, 1.0f);
  for (int64_t i = 0; i < p.out_channels; ++i) {
    m[i] = p.requant_multiplier.size() == 1 ? p.requant_multiplier[0] : p.requant_multiplier[i];
  }
  return m;
}

// Resolves tile_co/tile_ow from `config` (defaults for missing knobs).
absl::StatusOr<std::pair<int64_t, int64_t>> ResolveTiles(const KnobMap& config,
                                                         const KnobSpace& space,
                                                         const KnobMap& defaults) {
  for (const auto& [name, value] : config) {
    auto it = space.find(name);
    if (it == space.end()) {
      return Invalid("unknown knob '", name, "' (knobs: tile_co, tile_ow)");
    }
    if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) {
      std::string allowed;
      for (int64_t v : it->second) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", v);
      return Invalid("knob ", name, "=", value, " is not in the space {", allowed, "}");
    }
  }
  auto get = [&](const std::string& k) {
    auto it = config.find(k);
    return it != config.end() ? it->second : defaults.at(k);
  };
  return std::make_pair(get("tile_co"), get("tile_ow"));
}

absl::StatusOr<OutGeom> Geometry(const QuantizedConvParams& p, const Shape& in, int64_t block,
                                 DType want_dtype, DType got_dtype) {
  const int64_t want_rank = block ? 5 : 4;
  if (got_dtype != want_dtype || static_cast<int64_t>(in.size()) != want_rank) {
    return Invalid("input must be ", tensor::DTypeName(want_dtype), " of rank ", want_rank,
                   ", got ", tensor::DTypeName(got_dtype), " ", tensor::ShapeToString(in));
  }
  const int64_t c_dim = block ? CeilDiv(p.in_channels, block) : p.in_channels;
  if (in[1] != c_dim || (block && in[4] != block)) {
    return Invalid("input shape ", tensor::ShapeToString(in), " does not hold ", p.in_channels,
                   " channels in layout ", block ? absl::StrCat("NCHW", block, "c") : "NCHW");
  }
  OutGeom g;
  g.n = in[0];
  g.h = in[2];
  g.w = in[3];
  const absl::StatusOr<std::array<int64_t, 2>> out = p.OutputSize(g.h, g.w, p.kernel_h, p.kernel_w);
  if (g.n <= 0 || !out.ok()) {
    return Invalid("input ", tensor::ShapeToString(in), " gives an empty output");
  }
  g.oh = (*out)[0];
  g.ow = (*out)[1];
  return g;
}

absl::Status PrepareOutput(Tensor* output, DType dtype, const Shape& shape) {
  if (output == nullptr) return Invalid("output is null");
  return Tensor::PrepareForOverwrite(output, dtype, shape);
}

uint64_t NextRunId() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

void Parallel2D(pthreadpool_t pool, pthreadpool_task_2d_t fn, void* ctx, size_t i, size_t j) {
  pthreadpool_parallelize_2d(pool, fn, ctx, i, j, 0);
}

}  // namespace qnnc::kernels::spatial_pack
