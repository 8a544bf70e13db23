#include "kernels/layout/concat.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qnnc::kernels::layout {
namespace {

constexpr size_t kPiece = 64 << 10;

// One copy: `bytes` from `from` to `to`, through `table` when there is one.
struct Piece {
  const uint8_t* from;
  uint8_t* to;
  size_t bytes;
  const uint8_t* table;
};

void CopyPiece(void* ctx, size_t i) {
  const Piece& p = (*static_cast<const std::vector<Piece>*>(ctx))[i];
  if (p.table == nullptr) {
    std::memcpy(p.to, p.from, p.bytes);
  } else {
    for (size_t b = 0; b < p.bytes; ++b) p.to[b] = p.table[p.from[b]];
  }
}

}  // namespace

absl::Status Concat(const std::vector<tensor::Tensor>& inputs, int64_t axis, tensor::Tensor* out,
                    pthreadpool_t pool) {
  return ConcatWithTables(inputs, std::vector<const uint8_t*>(inputs.size(), nullptr), axis, out, pool);
}

absl::Status ConcatWithTables(const std::vector<tensor::Tensor>& inputs,
                              const std::vector<const uint8_t*>& tables, int64_t axis,
                              tensor::Tensor* out, pthreadpool_t pool) {
  if (tables.size() != inputs.size()) return absl::InvalidArgumentError("Concat: one table per input");
  if (inputs.empty() || out == nullptr) return absl::InvalidArgumentError("Concat: no inputs or no output");
  const tensor::Tensor& first = inputs[0];
  if (!first.defined() || axis < 0 || axis >= first.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("Concat: axis ", axis, " outside the rank"));
  }
  tensor::Shape shape = first.shape();
  shape[axis] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const tensor::Tensor& t = inputs[i];
    bool match = t.defined() && t.dtype() == first.dtype() && t.rank() == first.rank();
    for (int64_t d = 0; match && d < t.rank(); ++d) match = d == axis || t.dim(d) == first.dim(d);
    if (!match) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Concat: input ", i, " [", t.defined() ? absl::StrJoin(t.shape(), ",") : "undefined",
          "] does not match input 0 [", absl::StrJoin(first.shape(), ","), "] outside axis ", axis));
    }
    shape[axis] += t.dim(axis);
  }
  if (!out->defined() || out->dtype() != first.dtype() || out->shape() != shape) {
    auto t = tensor::Tensor::CreateForOverwrite(first.dtype(), shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  if (out->num_elements() == 0) return absl::OkStatus();
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  const size_t out_row = out->byte_size() / static_cast<size_t>(outer);
  auto* to = static_cast<uint8_t*>(out->raw_data());
  std::vector<Piece> pieces;
  size_t offset = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const tensor::Tensor& t = inputs[i];
    if (tables[i] != nullptr && tensor::DTypeSize(t.dtype()) != 1) {
      return absl::InvalidArgumentError("Concat: tables map 1-byte dtypes only");
    }
    if (t.num_elements() == 0) continue;
    const size_t row = t.byte_size() / static_cast<size_t>(outer);
    const auto* from = static_cast<const uint8_t*>(t.raw_data());
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t b = 0; b < row; b += kPiece) {
        pieces.push_back(
            {from + o * row + b, to + o * out_row + offset + b, std::min(kPiece, row - b), tables[i]});
      }
    }
    offset += row;
  }
  if (pool == nullptr || pieces.size() < 2) {
    for (size_t i = 0; i < pieces.size(); ++i) CopyPiece(&pieces, i);
  } else {
    pthreadpool_parallelize_1d(pool, &CopyPiece, &pieces, pieces.size(), 0);
  }
  return absl::OkStatus();
}

namespace {

// One input block of one image, copied into the output's lanes.
struct BlockCopy {
  const uint8_t* from;      // the input block: [pixels][k]
  const uint8_t* table;     // nullptr: copy
  int64_t lanes;            // real lanes in this input block
  int64_t first_channel;    // the output channel of its lane 0
  uint8_t* image;           // the output image: [blocks][pixels][k]
};

struct BlockedTask {
  std::vector<BlockCopy> copies;
  int64_t pixels, k;
  static void Run(void* ctx, size_t i) {
    const BlockedTask& t = *static_cast<const BlockedTask*>(ctx);
    const BlockCopy& c = t.copies[i];
    const int64_t k = t.k, plane = t.pixels * k;
    const int64_t ob = c.first_channel / k, ol = c.first_channel % k;
    if (ol == 0 && c.lanes == k && c.table == nullptr) {
      std::memcpy(c.image + ob * plane, c.from, static_cast<size_t>(plane));
      return;
    }
    for (int64_t l = 0; l < c.lanes; ++l) {
      const int64_t lane = ol + l;
      uint8_t* to = c.image + (ob + lane / k) * plane + lane % k;
      const uint8_t* from = c.from + l;
      if (c.table == nullptr) {
        for (int64_t p = 0; p < t.pixels; ++p) to[p * k] = from[p * k];
      } else {
        for (int64_t p = 0; p < t.pixels; ++p) to[p * k] = c.table[from[p * k]];
      }
    }
  }
};

}  // namespace

absl::Status ConcatBlockedChannels(const std::vector<tensor::Tensor>& inputs,
                                   const std::vector<int64_t>& channels,
                                   const std::vector<const uint8_t*>& tables, tensor::Tensor* out,
                                   pthreadpool_t pool) {
  if (inputs.empty() || channels.size() != inputs.size() || tables.size() != inputs.size() || out == nullptr ||
      !inputs[0].defined() || inputs[0].rank() != 5 || tensor::DTypeSize(inputs[0].dtype()) != 1) {
    return absl::InvalidArgumentError("ConcatBlockedChannels: needs 8-bit NCHW{k}c inputs, a channel count and a table each");
  }
  const tensor::Tensor& first = inputs[0];
  const int64_t n = first.dim(0), h = first.dim(2), w = first.dim(3), k = first.dim(4);
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const tensor::Tensor& t = inputs[i];
    if (!t.defined() || t.dtype() != first.dtype() || t.rank() != 5 || t.dim(0) != n || t.dim(2) != h ||
        t.dim(3) != w || t.dim(4) != k || channels[i] < 1 || channels[i] > t.dim(1) * k) {
      return absl::InvalidArgumentError(absl::StrCat("ConcatBlockedChannels: input ", i, " does not match"));
    }
    total += channels[i];
  }
  const tensor::Shape shape = {n, (total + k - 1) / k, h, w, k};
  if (!out->defined() || out->dtype() != first.dtype() || out->shape() != shape) {
    auto t = tensor::Tensor::CreateForOverwrite(first.dtype(), shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  auto* to = static_cast<uint8_t*>(out->raw_data());
  // Padding lanes of the last block are 0.
  if (total % k != 0) {
    for (int64_t img = 0; img < n; ++img) {
      uint8_t* last = to + ((img * shape[1] + shape[1] - 1) * h * w) * k;
      for (int64_t p = 0; p < h * w; ++p) std::memset(last + p * k + total % k, 0, static_cast<size_t>(k - total % k));
    }
  }
  BlockedTask task;
  task.pixels = h * w;
  task.k = k;
  for (int64_t img = 0; img < n; ++img) {
    int64_t offset = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto* from = static_cast<const uint8_t*>(inputs[i].raw_data()) + img * inputs[i].dim(1) * h * w * k;
      for (int64_t b = 0; b * k < channels[i]; ++b) {
        task.copies.push_back({from + b * h * w * k, tables[i], std::min(k, channels[i] - b * k), offset + b * k,
                               to + img * shape[1] * h * w * k});
      }
      offset += channels[i];
    }
  }
  // Copies into one output block from two inputs write different lanes of
  // the same bytes' cache lines: correct in parallel (distinct bytes).
  pthreadpool_parallelize_1d(pool, &BlockedTask::Run, &task, task.copies.size(), 0);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::layout
