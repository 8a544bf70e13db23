#!/usr/bin/env bash
# The bundled models end to end: qnnc (//tools:compile -c opt, median of
# --runs runs of the executor) against ONNX Runtime (npm onnxruntime-node,
# median of session.run()), at 1 and 2 threads, one Markdown table.
#
#   bench/models.sh [--runs=N]     (default 200)
#
# Both run the same input and report only the model's run, not loading. On
# first use installs onnxruntime-node into bench/peers/node_modules
# (npm install --ignore-scripts), like bench/compare.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=200
for arg in "$@"; do
  case "$arg" in
    --runs=*) runs="${arg#--runs=}" ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) echo "models.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
command -v node >/dev/null || { echo "models.sh: needs Node.js (>= 18) and npm" >&2; exit 2; }
if [ ! -d bench/peers/node_modules/onnxruntime-node ]; then
  (cd bench/peers && npm install --ignore-scripts --no-audit --no-fund >&2)
fi
bazel build -c opt //tools:compile >&2
compile="$(bazel info -c opt bazel-bin 2>/dev/null)/tools/compile"

echo "| model | qnnc 1t ms | ORT 1t ms | qnnc/ORT 1t | qnnc 2t ms | ORT 2t ms | qnnc/ORT 2t | output vs ORT's reference |"
echo "|---|---|---|---|---|---|---|---|"
for m in mobilenet_v2_qdq resnet18_qdq; do
  model=testdata/models/$m.onnx input=testdata/models/$m.input.f32
  declare -A q o
  match=""
  for t in 1 2; do
    line=$("$compile" --model="$model" --input="$input" \
      --expect=testdata/models/$m.ort_output.f32 --runs="$runs" --threads="$t")
    q[$t]=$(sed -n 's/^latency: *\([0-9.]*\) ms.*/\1/p' <<<"$line")
    match=$(sed -n 's/^match: *logits: //p' <<<"$line" | sed 's/ (worst.*//; s/|diff|/diff/; s/, tolerance.*//')
  done
  ort=$(node bench/peers/ort_model.js "$model" "$input" --runs="$runs" 2>/dev/null)
  for t in 1 2; do
    o[$t]=$(node -e "const r=JSON.parse(process.argv[1]); console.log(r.threads['$t'].median_ms.toFixed(3))" "$ort")
  done
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  echo "| $m | ${q[1]} | ${o[1]} | $(ratio "${q[1]}" "${o[1]}") | ${q[2]} | ${o[2]} | $(ratio "${q[2]}" "${o[2]}") | $match |"
done
echo
echo "Medians of $runs runs each; below 1 qnnc is faster. Load average: $(cut -d' ' -f1-3 /proc/loadavg)."
