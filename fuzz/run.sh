#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (--config=fuzz, in an output base
# of their own) and runs each on its seeds.
#
#   fuzz/run.sh [--time=SECONDS | --runs=N] [--keep=DIR] [TARGET...]
#
# TARGET: onnx_import, text_ir, plan, tensor_files, records (default: all five). Default
# --time=25. A finding is written to $ARTIFACTS (default: a temp folder) and
# makes the script exit 1; copy it to fuzz/regressions/<target>/ with a fix.
# Builds in $QNNC_FUZZ_OUTPUT_BASE (default ~/.cache/qnnc_fuzz).
# Prints one line per target: "fuzz <target>: <runs> runs in <s> s (<exec/s>
# exec/s), <status>".
set -uo pipefail
cd "$(dirname "$0")/.."

limit="-max_total_time=25"
keep=""
targets=()
for arg in "$@"; do
  case "$arg" in
    --time=*) limit="-max_total_time=${arg#--time=}" ;;
    --runs=*) limit="-runs=${arg#--runs=}" ;;
    --keep=*) keep="${arg#--keep=}" ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) targets+=("$arg") ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=(onnx_import text_ir plan tensor_files records)

OUTPUT_BASE="${QNNC_FUZZ_OUTPUT_BASE:-$HOME/.cache/qnnc_fuzz}"
bazel_fuzz() { bazel --output_base="$OUTPUT_BASE" "$@"; }
labels=()
for t in "${targets[@]}"; do labels+=("//fuzz:${t}_fuzzer"); done
if ! bazel_fuzz build --config=fuzz "${labels[@]}"; then
  echo "fuzz: build failed"
  exit 1
fi
bin="$(bazel_fuzz info --config=fuzz bazel-bin 2>/dev/null)/fuzz"
# Free the server's memory for the fuzzers (the cache stays on disk).
bazel_fuzz shutdown >/dev/null 2>&1
node=/usr/share/libonnx-testdata/data/node

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ARTIFACTS="${ARTIFACTS:-$work/artifacts}"
mkdir -p "$ARTIFACTS"

# Seeds: testdata (models, text IR, tensors) and the ONNX node tests.
seed() {
  local t=$1 dir=$2
  mkdir -p "$dir"
  case "$t" in
    onnx_import)
      cp testdata/bad/*.onnx "$dir/"
      for m in "$node"/test_{qlinear,quantize,dequantize,dynamicquantize,conv,basic_conv,matmulinteger,gemm,averagepool,maxpool,add,concat,flatten,clip,transpose,shape,reduce_max,resize,pad,relu}*/model.onnx; do
        [ -f "$m" ] && [ "$(stat -c %s "$m")" -le 65536 ] && cp "$m" "$dir/$(basename "$(dirname "$m")").onnx"
      done ;;
    text_ir)
      cp testdata/ir/*.qnnir testdata/bad/*.qnnir "$dir/"
      find testdata/passes -name '*.qnnir' | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
    plan)
      cp fuzz/seeds/plan/* testdata/bad/*.plan "$dir/"
      find testdata/passes -name '*.expected.qnnir' | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
    records)
      cp fuzz/seeds/records/* testdata/bad/*.plan testdata/bad/*.qnnir "$dir/" ;;
    tensor_files)
      cp fuzz/seeds/tensor_files/* testdata/bad/*.npy testdata/bad/*.pb "$dir/" 2>/dev/null
      for f in "$node"/test_{qlinearconv,quantizelinear,dequantizelinear_axis,basic_conv_with_padding}/test_data_set_0/*.pb; do
        cp "$f" "$dir/$(basename "$(dirname "$(dirname "$f")")")_$(basename "$f")"
      done ;;
  esac
  [ -d "fuzz/regressions/$t" ] && cp "fuzz/regressions/$t"/* "$dir/"
}

rc=0
for t in "${targets[@]}"; do
  corpus="${keep:+$keep/$t}"
  corpus="${corpus:-$work/corpus_$t}"
  seed "$t" "$corpus"
  log="$work/$t.log"
  start=$(date +%s.%N)
  "$bin/${t}_fuzzer" "$corpus" $limit -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
    -artifact_prefix="$ARTIFACTS/${t}-" -print_final_stats=1 >"$log" 2>&1
  frc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  eps=$(grep -oE '^stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  if [ "$frc" -eq 0 ]; then
    status="no finding"
  else
    status="FINDING (exit $frc): $(ls "$ARTIFACTS" | grep "^$t-" | tr '\n' ' ')"
    grep -E 'ERROR|FUZZ_CHECK|SUMMARY' "$log" | head -5
    tail -n 40 "$log" > "$ARTIFACTS/$t.log"
    rc=1
  fi
  printf 'fuzz %s: %s runs in %.0f s (%s exec/s), %s\n' "$t" "${runs:-?}" "$secs" "${eps:-?}" "$status"
done
[ "$rc" -ne 0 ] && echo "fuzz: findings in $ARTIFACTS" && trap - EXIT
exit "$rc"
