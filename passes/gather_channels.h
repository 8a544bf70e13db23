// GatherChannels: data movement that only picks channels of a rank-4
// tensor becomes one take(x, indices, axis=1) of the tensor it starts from.
// ShuffleNet's channel shuffle (reshape [N,C,H,W] -> [N,g,C/g,H,W],
// transpose (0,2,1,3,4), reshape back) and the channel slices after it are
// the case that matters: each becomes one gather of the concat it reads,
// which AlterOpLayout then runs in the blocked layout of its neighbours
// instead of three transforms and a trip through NCHW.
//
// The indices are found by running the chain (reference kernels) on the
// positions of x, so any mix of reshape, transpose, strided_slice and take
// (constant indices) qualifies when the result is x's channels in some
// order, N, H and W untouched; anything else is left as it is. A chain that
// gives x back unchanged disappears.
#ifndef QNNC_PASSES_GATHER_CHANNELS_H_
#define QNNC_PASSES_GATHER_CHANNELS_H_

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

// Returns the number of chains replaced.
absl::StatusOr<int> GatherChannels(ir::Graph& graph);

class GatherChannelsPass : public Pass {
 public:
  std::string name() const override { return "GatherChannels"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override { return GatherChannels(graph).status(); }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_GATHER_CHANNELS_H_
