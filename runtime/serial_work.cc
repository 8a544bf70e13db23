#include "runtime/executor.h"

namespace qnnc::runtime {
namespace {

// Whether an op has too little work to share between threads: waking them
// costs a few microseconds per op, more than small ops take (ShuffleNet's
// 14x14 layers ran 1.7x slower on 2 threads than on 1). Convolutions and
// dense layers count multiply-adds, other ops the bytes they write.
constexpr int64_t kSerialMacs = int64_t{1} << 19;
constexpr int64_t kSerialBytes = int64_t{32} << 10;

}  // namespace

bool SerialWork(const ir::Node& n) {
  int64_t elements = 0, bytes = 0;
  for (const ir::Value* v : n.outputs()) {
    int64_t e = 1;
    for (int64_t d : v->type()->shape) e *= d;
    elements += e;
    bytes += e * static_cast<int64_t>(tensor::DTypeSize(v->type()->dtype));
  }
  const std::string& op = n.op();
  const bool conv = op.find("conv2d") != std::string::npos || op == "nn.dense" || op == "qnn.dense";
  if (conv && n.inputs().size() > 1 && n.input(1)->type() && n.input(1)->type()->rank() >= 2) {
    const tensor::Shape& w = n.input(1)->type()->shape;
    // A depthwise convolution ([O, 1, kh, kw]) takes about ten times a dense
    // one's time per multiply-add (each input byte serves kh * kw products,
    // not hundreds): count it by the bytes it writes, as other ops. MobileNetV2's
    // 7x7x960 depthwise layers (423K multiply-adds, 47 KB) took 0.043 ms on
    // one thread of two and 0.029 ms on both (cap avx2, Zen 5).
    if (w.size() == 4 && w[1] == 1) return bytes < kSerialBytes;  // dense layers: rank 2
    int64_t k = 1;
    for (size_t d = 1; d < w.size(); ++d) k *= w[d];  // per output: [O, I/g, kh, kw] or [N, K]
    return elements * k < kSerialMacs;
  }
  return bytes < kSerialBytes;
}

}  // namespace qnnc::runtime
