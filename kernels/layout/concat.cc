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

}  // namespace qnnc::kernels::layout
