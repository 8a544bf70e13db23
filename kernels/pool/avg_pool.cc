#include "kernels/pool/avg_pool.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::Tensor;

// One spatial axis: for each output position, the first tap inside the
// input, how many taps are inside, and how many are inside the padded input.
struct Axis {
  int64_t size = 0, out = 0;
  std::vector<int64_t> first, inside, padded;
};

absl::StatusOr<Axis> MakeAxis(int64_t size, int64_t k, int64_t stride, int64_t pad_begin, int64_t pad_end,
                              bool ceil_mode) {
  auto out = reference::PoolOutputSize(size, k, stride, 1, pad_begin, pad_end, ceil_mode);
  if (!out.ok()) return absl::InvalidArgumentError(absl::StrCat("AvgPool2D: ", out.status().message()));
  Axis a;
  a.size = size;
  a.out = *out;
  for (int64_t o = 0; o < a.out; ++o) {
    int64_t first = -1, inside = 0, padded = 0;
    for (int64_t t = 0; t < k; ++t) {
      const int64_t pos = o * stride - pad_begin + t;
      if (pos >= -pad_begin && pos < size + pad_end) ++padded;
      if (pos < 0 || pos >= size) continue;
      if (first < 0) first = pos;
      ++inside;
    }
    a.first.push_back(first < 0 ? 0 : first);
    a.inside.push_back(inside);
    a.padded.push_back(padded);
  }
  return a;
}

template <int Lanes>
struct AvgTask {
  const float* x;
  float* y;
  const Axis* h;
  const Axis* w;
  bool include_pad;

  // One plane, all lanes (an item per output row cost more than
  // Inception's 11x11 rows take).
  static void Run(void* ctx, size_t plane) {
    const AvgTask& t = *static_cast<const AvgTask*>(ctx);
    for (int64_t oy = 0; oy < t.h->out; ++oy) t.Row(static_cast<int64_t>(plane), oy);
  }

  void Row(int64_t plane, int64_t oy) const {
    const AvgTask& t = *this;
    const Axis &h = *t.h, &w = *t.w;
    const float* in = t.x + plane * h.size * w.size * Lanes;
    float* out = t.y + (plane * h.out + oy) * w.out * Lanes;
    const int64_t y0 = h.first[oy], ny = h.inside[oy];
    for (int64_t ox = 0; ox < w.out; ++ox) {
      const int64_t x0 = w.first[ox], nx = w.inside[ox];
      const int64_t count = t.include_pad ? h.padded[oy] * w.padded[ox] : ny * nx;
      float acc[Lanes];
      for (int l = 0; l < Lanes; ++l) acc[l] = 0.0f;
      for (int64_t i = 0; i < ny; ++i) {
        const float* row = in + ((y0 + i) * w.size + x0) * Lanes;
        for (int64_t j = 0; j < nx; ++j) {
          for (int l = 0; l < Lanes; ++l) acc[l] += row[j * Lanes + l];
        }
      }
      const float c = static_cast<float>(count);
      for (int l = 0; l < Lanes; ++l) out[ox * Lanes + l] = count == 0 ? 0.0f : acc[l] / c;
    }
  }
};

}  // namespace

absl::Status AvgPool2DF32(const Tensor& x, const reference::Pool2DParams& p, Tensor* out, pthreadpool_t pool) {
  const int64_t lanes = x.defined() && x.rank() == 5 ? x.dim(4) : 1;
  if (!x.defined() || x.dtype() != tensor::DType::kF32 || (x.rank() != 4 && x.rank() != 5) ||
      (lanes != 1 && lanes != 4 && lanes != 8 && lanes != 16) || p.dilation[0] != 1 || p.dilation[1] != 1) {
    return absl::InvalidArgumentError("AvgPool2D: needs f32 NCHW or NCHW{4,8,16}c data, dilation 1");
  }
  auto h = MakeAxis(x.dim(2), p.kernel[0], p.strides[0], p.pads[0], p.pads[2], p.ceil_mode);
  if (!h.ok()) return h.status();
  auto w = MakeAxis(x.dim(3), p.kernel[1], p.strides[1], p.pads[1], p.pads[3], p.ceil_mode);
  if (!w.ok()) return w.status();
  tensor::Shape shape = x.shape();
  shape[2] = h->out;
  shape[3] = w->out;
  if (out == nullptr) return absl::InvalidArgumentError("AvgPool2D: no output");
  if (!out->defined() || out->dtype() != x.dtype() || out->shape() != shape) {
    auto t = Tensor::CreateForOverwrite(x.dtype(), shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  const size_t planes = static_cast<size_t>(x.dim(0) * x.dim(1));
  auto run = [&](auto task) {
    pthreadpool_parallelize_1d(pool, &decltype(task)::Run, &task, planes, 0);
  };
  const float* in = x.data<float>();
  float* o = out->data<float>();
  switch (lanes) {
    case 1: run(AvgTask<1>{in, o, &*h, &*w, p.count_include_pad}); break;
    case 4: run(AvgTask<4>{in, o, &*h, &*w, p.count_include_pad}); break;
    case 8: run(AvgTask<8>{in, o, &*h, &*w, p.count_include_pad}); break;
    default: run(AvgTask<16>{in, o, &*h, &*w, p.count_include_pad}); break;
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::pool
