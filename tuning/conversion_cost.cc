#include "tuning/conversion_cost.h"

#include <algorithm>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/builder.h"
#include "ir/layout.h"
#include "runtime/executor.h"
#include "util/status_macros.h"

namespace qnnc::tuning {
absl::StatusOr<double> ConversionSeconds(const ir::TensorType& nchw, const ir::Layout& from,
                                         const ir::Layout& to, int threads, int warmup,
                                         int repeats) {
  if (from == to) return 0.0;
  repeats = std::max(repeats, 1);
  if (nchw.rank() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("a layout conversion needs a rank-4 NCHW tensor, got ", nchw.ToString()));
  }
  const int64_t channels = nchw.shape[1];
  // x (NCHW) -> `from` (set-up, not timed) -> NCHW -> `to` (timed).
  ir::Builder b;
  ir::Value* v = b.Input("x", nchw);
  auto transform = [&](const ir::Layout& src, const ir::Layout& dst, const char* name) {
    v = b.Op("layout_transform", {v}, ir::LayoutTransformAttrs(src, dst, channels), name);
  };
  const ir::Layout nchw_layout = ir::Layout::Nchw();
  if (!from.is_nchw()) transform(nchw_layout, from, "setup");
  if (!from.is_nchw()) transform(from, nchw_layout, "timed");
  if (!to.is_nchw()) transform(nchw_layout, to, "timed");
  b.Output(v);
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph, b.Finish());
  runtime::ExecutorOptions options;
  options.threads = threads;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> exec,
                   runtime::Executor::Create(std::move(graph), options));
  ASSIGN_OR_RETURN(tensor::Tensor x, tensor::Tensor::Create(nchw.dtype, nchw.shape));
  std::mt19937 rng(1);
  auto* bytes = static_cast<unsigned char*>(x.raw_data());
  for (size_t i = 0; i < x.byte_size(); ++i) bytes[i] = static_cast<unsigned char>(rng());
  std::vector<double> seconds;
  for (int i = 0; i < warmup + repeats; ++i) {
    RETURN_IF_ERROR(exec->Run({x}).status());
    double ms = 0;
    for (const runtime::OpTiming& t : exec->last_timings()) {
      if (t.node_name == "timed") ms += t.ms;
    }
    if (i >= warmup) seconds.push_back(ms / 1000.0);
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace qnnc::tuning
