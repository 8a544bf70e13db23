// The AlterOpLayout rules of the pools: they run per lane (RunPerLane) in the
// altered layout their input comes back from.
#include "ir/graph.h"
#include "ir/layout_views.h"
#include "ir/op_views.h"
#include "passes/layout_rules.h"

namespace qnnc::passes {
namespace {

using ir::Node;

// Max pools (8-bit and f32) also follow NHWC; the f32 average pools
// (windowed and global) and the 8-bit global one follow the blocked layouts.
absl::Status BlockMaxPool(ir::Graph& graph, Node* n) {
  return RunPerLane(graph, n, /*nhwc_too=*/true, /*bytes_too=*/true, &LayoutOf<ir::Pool2DView>);
}

absl::Status BlockAvgPool(ir::Graph& graph, Node* n) {
  return RunPerLane(graph, n, /*nhwc_too=*/false, /*bytes_too=*/false, &LayoutOf<ir::Pool2DView>);
}

absl::Status BlockGlobalAvgPool(ir::Graph& graph, Node* n) {
  return RunPerLane(graph, n, /*nhwc_too=*/false, /*bytes_too=*/false,
                    &LayoutOf<ir::GlobalPoolView>);
}

absl::Status BlockQnnGlobalAvgPool(ir::Graph& graph, Node* n) {
  return RunPerLane(graph, n, /*nhwc_too=*/false, /*bytes_too=*/true,
                    &LayoutOf<ir::GlobalPoolView>);
}

}  // namespace

void AddPoolLayoutRules(LayoutRules& rules) {
  rules.Add("nn.max_pool2d", &BlockMaxPool);
  rules.Add("nn.avg_pool2d", &BlockAvgPool);
  rules.Add("nn.global_avg_pool2d", &BlockGlobalAvgPool);
  rules.Add("qnn.global_avg_pool2d", &BlockQnnGlobalAvgPool);
}

}  // namespace qnnc::passes
