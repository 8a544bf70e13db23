#!/usr/bin/env bash
# The bundled models end to end: qnnc (//tools:compile -c opt, median of
# --runs runs of the executor) against ONNX Runtime (npm onnxruntime-node,
# median of session.run()), at 1 and 2 threads, one Markdown table.
#
#   bench/models.sh [--runs=N] [--rounds=R] [--isa=LEVEL] [--ort-isa=LEVEL|none]
#                   [--models=A,B] [--dir=DIR]
#   (defaults 200, 1, none, mobilenet_v2_qdq,resnet18_qdq, testdata/models)
#
# A model M is DIR/M.onnx run on DIR/M.input.f32 and checked against
# DIR/M.ort_output.f32 when that exists (e.g. --models=mobilenet_v2_dynamic,
# or a large U-Net made by scripts/make_dynamic_models.py in another --dir).
#
# --isa=avx2|scalar|... caps qnnc's instruction sets (docs/hosts.md): an
# AVX-512 machine then measures qnnc's AVX2 path. ONNX Runtime is capped at
# the same level where the host can fault CPUID (//bench/peers:cpuid_cap:
# LD_PRELOAD, MLAS then picks its AVX2 kernels), and so is qnnc's process
# (the XNNPACK inside it picks its kernels from CPUID); --ort-isa=LEVEL|none
# sets ORT's cap apart. The header says at which level each runs, and the last
# column how far ORT's output is from the model's stored reference (ORT's
# AVX2 kernels can saturate: README, "Exact on every host").
#
# Both run the same input and report only the model's run, not loading. With
# --rounds=R every measurement is repeated R times, qnnc and ORT alternating
# per model and thread count; the table then shows the medians over the
# rounds and the median (and range) of the rounds' own qnnc/ORT ratios, so a
# drift of the shared host's speed falls on both sides. On first use installs
# onnxruntime-node into bench/peers/node_modules (npm install
# --ignore-scripts), like bench/compare.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=200
rounds=1
isa_flag=()
ort_isa=same
models="mobilenet_v2_qdq resnet18_qdq"
dir=testdata/models
for arg in "$@"; do
  case "$arg" in
    --models=*) models="${arg#--models=}"; models="${models//,/ }" ;;
    --dir=*) dir="${arg#--dir=}" ;;
    --runs=*) runs="${arg#--runs=}" ;;
    --rounds=*) rounds="${arg#--rounds=}" ;;
    --isa=*) isa_flag=("$arg") ;;
    --ort-isa=*) ort_isa="${arg#--ort-isa=}" ;;
    -h|--help) sed -n 2,29p "$0"; exit 0 ;;
    *) echo "models.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ && "$rounds" =~ ^[1-9][0-9]*$ ]] ||
  { echo "models.sh: --runs and --rounds take positive integers" >&2; exit 2; }
command -v node >/dev/null || { echo "models.sh: needs Node.js (>= 18) and npm" >&2; exit 2; }
if [ ! -d bench/peers/node_modules/onnxruntime-node ]; then
  (cd bench/peers && npm install --ignore-scripts --no-audit --no-fund >&2)
fi
bazel build -c opt //tools:compile //bench/peers:libcpuid_cap_preload.so //bench/peers:cpuid_probe \
  //bench/peers:cpuid_patch >&2
bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
compile="$bin/tools/compile"
scripts/host_isa.sh

# ONNX Runtime's cap: the probe must see the level, or ORT runs uncapped and
# the header says why.
if [ "$ort_isa" = same ]; then
  ort_isa=""
  [ ${#isa_flag[@]} -gt 0 ] && ort_isa="${isa_flag[0]#--isa=}"
fi
[ "$ort_isa" = none ] && ort_isa=""
ort_env=()
qnnc_cap_env=()
patched=$(mktemp -d)
trap 'rm -rf "$patched"' EXIT
if [ -n "$ort_isa" ]; then
  source bench/peers/cpuid_cap_env.sh
  cpuid_cap_env "$ort_isa" "$bin" "$compile" "$patched"
  ort_env=("${ORT_CAP_ENV[@]}")
  qnnc_cap_env=("${QNNC_CAP_ENV[@]}")
  if [ ${#ort_env[@]} -gt 0 ]; then
    echo "ORT runs at: $ort_isa ($CAP_HOW)"
  else
    echo "ORT runs at: uncapped (CPUID cap: $CAP_HOW)"
  fi
else
  echo "ORT runs at: uncapped"
fi
# qnnc under the same CPUID cap as ORT where qnnc is capped at that level too:
# then XNNPACK inside qnnc (which reads CPUID through cpuinfo) is capped as well.
qnnc_env=()
[ ${#qnnc_cap_env[@]} -gt 0 ] && [ "${isa_flag[0]:-}" = "--isa=$ort_isa" ] && qnnc_env=("${qnnc_cap_env[@]}")
"${qnnc_env[@]}" "$compile" --no-run "${isa_flag[@]}" | grep '^host:' |
  sed "s/^host: */qnnc runs at: /; s/\$/${qnnc_env:+ (XNNPACK too: same CPUID cap)}/" ||
  { echo "models.sh: bad --isa" >&2; exit 2; }

samples=$(mktemp)
ort_out=$(mktemp)
trap 'rm -rf "$samples" "$ort_out" "$patched"' EXIT
for ((r = 1; r <= rounds; r++)); do
  [ "$rounds" -gt 1 ] && echo "[models] round $r of $rounds" >&2
  for m in $models; do
    model=$dir/$m.onnx input=$dir/$m.input.f32
    expect=()
    [ -f "$dir/$m.ort_output.f32" ] && expect=(--expect="$dir/$m.ort_output.f32")
    for t in 1 2; do
      # A mismatch (exit 1) still times the model: the table shows it.
      line=$("${qnnc_env[@]}" "$compile" --model="$model" --input="$input" "${expect[@]}" --max-memory-mb=16000 \
        --runs="$runs" --threads="$t" "${isa_flag[@]}") || true
      q=$(sed -n 's/^latency: *\([0-9.]*\) ms.*/\1/p' <<<"$line")
      [ -n "$q" ] || { echo "models.sh: //tools:compile failed on $m:" >&2; echo "$line" >&2; exit 1; }
      match=$(sed -n 's/^match: *[^:]*: //p' <<<"$line" | sed 's/ (worst.*//; s/|diff|/diff/; s/, tolerance.*//')
      ort=$("${ort_env[@]}" node bench/peers/ort_model.js "$model" "$input" --runs="$runs" \
        --threads="$t" --output="$ort_out" 2>/dev/null) ||
        { echo "models.sh: ONNX Runtime failed on $m" >&2; exit 1; }
      o=$(node -e "console.log(JSON.parse(process.argv[1]).threads['$t'].median_ms)" "$ort") ||
        { echo "models.sh: ONNX Runtime failed on $m" >&2; exit 1; }
      # ORT's own output against the stored reference: the largest |diff|.
      od=-
      [ -f "$dir/$m.ort_output.f32" ] && od=$(node -e '
        const fs = require("fs");
        const f = (p) => { const b = fs.readFileSync(p); return new Float32Array(b.buffer, b.byteOffset, b.length / 4); };
        const [a, r] = [f(process.argv[1]), f(process.argv[2])];
        if (a.length !== r.length) { console.log("shape differs"); process.exit(0); }
        let d = 0; for (let i = 0; i < a.length; ++i) d = Math.max(d, Math.abs(a[i] - r[i]));
        console.log("max diff " + Number(d.toPrecision(3)));' "$ort_out" "$dir/$m.ort_output.f32")
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$t" "$q" "$o" "$match" "$od" >>"$samples"
    done
  done
done

node - "$samples" "$runs" "$rounds" <<'JS'
const fs = require('fs');
const [file, runs, rounds] = process.argv.slice(2);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const rows = {};
for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
  const [m, t, q, o, match, od] = line.split('\t');
  const r = rows[m] || (rows[m] = { match, od: new Set(), t: { 1: [], 2: [] } });
  r.od.add(od);
  r.t[t].push({ q: Number(q), o: Number(o) });
}
const cell = (xs) => {
  const q = median(xs.map((x) => x.q)), o = median(xs.map((x) => x.o));
  const ratios = xs.map((x) => x.q / x.o);
  const ratio = median(ratios).toFixed(2) + (xs.length > 1 ?
    ` (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})` : '');
  return [q.toFixed(3), o.toFixed(3), ratio];
};
console.log('| model | qnnc 1t ms | ORT 1t ms | qnnc/ORT 1t | qnnc 2t ms | ORT 2t ms | qnnc/ORT 2t | ' +
  'qnnc output vs the reference | ORT output vs the reference |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [m, r] of Object.entries(rows)) {
  console.log(`| ${m} | ${cell(r.t[1]).join(' | ')} | ${cell(r.t[2]).join(' | ')} | ${r.match} | ` +
    `${[...r.od].join(', ')} |`);
}
console.log();
console.log(`Medians of ${runs} runs each` + (rounds > 1 ? `, then over ${rounds} rounds (qnnc and ORT ` +
  'alternating); each ratio is the median of the rounds\' ratios (their range)' : '') +
  `; below 1 qnnc is faster. Load average: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}.`);
JS
