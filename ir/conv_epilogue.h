// The one matcher for a convolution's requantizing epilogue:
//   conv -> nn.bias_add (any number) -> qnn.requantize (-> its clamp attrs)
// where conv is nn.conv2d, qnn.conv2d, nn.dense or qnn.dense (the legalized
// integer ops are nn.*). Workload extraction
// (whether a fusing implementation may be chosen), QnnCanonicalize (whether
// to keep the requantize for the fusion), FuseOps (the fusion itself) and the
// tuner's measured subgraph all ask it, so they cannot disagree.
#ifndef QNNC_IR_CONV_EPILOGUE_H_
#define QNNC_IR_CONV_EPILOGUE_H_

#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/op_views.h"

namespace qnnc::ir {

struct ConvEpilogue {
  const Node* conv = nullptr;
  std::vector<const Node*> bias_adds;  // from the conv towards the requantize
  const Node* requantize = nullptr;
  RequantizeView view;  // the requantize's attributes
  // Why a kernel cannot apply the requantize in its epilogue; empty when it
  // can: rounding TONEAREST_EVEN, constant scales, input zero point a
  // constant 0, one constant output zero point, constant biases.
  std::string not_fusable;

  bool fusable() const { return not_fusable.empty(); }
};

// The node reading `v` when that is `v`'s only use (a graph output is a
// use), else nullptr.
const Node* SoleUser(const Graph& graph, const Value* v);

// The chain ending at `requantize`, each value on it used once; nullopt when
// `requantize` is not a qnn.requantize fed (through bias additions) by a
// convolution or dense op.
std::optional<ConvEpilogue> MatchConvEpilogue(const Graph& graph, const Node& requantize);

// The same chain found from the convolution.
std::optional<ConvEpilogue> MatchConvEpilogueFrom(const Graph& graph, const Node& conv);

}  // namespace qnnc::ir

#endif  // QNNC_IR_CONV_EPILOGUE_H_
