#!/usr/bin/env bash
# qnnc vs XNNPACK vs ONNX Runtime on the layer suite, 1 and 2 threads, one
# table (docs/benchmarks.md). Builds //bench:spatial_pack_benchmark and
# //bench:xnnpack_conv_benchmark with -c opt, installs onnxruntime-node into
# bench/peers/node_modules on first use (npm install --ignore-scripts), runs all
# three and prints a Markdown table on stdout. Flags: bench/compare.sh --help.
# The benchmark-name contract is documented at the top of bench/compare.js.
set -euo pipefail
command -v node >/dev/null || { echo "compare.sh: needs Node.js (>= 18) and npm" >&2; exit 2; }
exec node "$(dirname "$0")/compare.js" "$@"
