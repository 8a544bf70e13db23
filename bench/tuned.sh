#!/usr/bin/env bash
# Tuned against fallback, end to end: tunes a model with //tools:tune (-c
# opt, default budget unless --trials) at 1 and at 2 threads into one records
# file, then times //tools:compile on it with and without the records,
# alternating, at 1 and 2 threads, and prints the medians, the median (range)
# of the rounds' tuned/fallback ratios, whether the tuned outputs are
# bit-identical to the fallback's (every implementation is exact), the tune's
# wall time, and which implementation won per layer kind.
#
# With --isa=LEVEL both run under the CPUID cap of that level where the host
# allows (bench/peers/cpuid_cap.h), XNNPACK included.
#
#   bench/tuned.sh [--model=PATH] [--isa=LEVEL] [--rounds=R] [--runs=N]
#                  [--records=FILE (reuse, no tuning)] [--trials=N] [--tuner=T]
set -euo pipefail
cd "$(dirname "$0")/.."
model=testdata/models/mobilenet_v2_qdq.onnx
rounds=3 runs=200 records="" tune_flags=() isa_flag=()
for arg in "$@"; do
  case "$arg" in
    --model=*) model="${arg#--model=}" ;;
    --isa=*) isa_flag=("$arg") ;;
    --rounds=*) rounds="${arg#--rounds=}" ;;
    --runs=*) runs="${arg#--runs=}" ;;
    --records=*) records="${arg#--records=}" ;;
    --trials=* | --tuner=* | --early-stopping=* | --repeats=*) tune_flags+=("$arg") ;;
    -h | --help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "tuned.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
command -v node >/dev/null || { echo "tuned.sh: needs Node.js" >&2; exit 2; }
bazel build -c opt //tools:compile //tools:tune //bench/peers:libcpuid_cap_preload.so \
  //bench/peers:cpuid_probe //bench/peers:cpuid_patch >&2
bazel_bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
bin="$bazel_bin/tools"
# With --isa, tune and compile run under the CPUID cap of that level
# (bench/peers/cpuid_cap_env.sh), so the XNNPACK candidates the tuner measures
# run that level's code too (as on such a host); the line below says how.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cap=()
if [ ${#isa_flag[@]} -gt 0 ]; then
  source bench/peers/cpuid_cap_env.sh
  cpuid_cap_env "${isa_flag[0]#--isa=}" "$bazel_bin" "$bin/tune" "$work" no-ort
  cap=("${QNNC_CAP_ENV[@]}")
  echo "CPUID cap: ${cap:+${isa_flag[0]#--isa=}, XNNPACK capped too; }$CAP_HOW"
fi
scripts/host_isa.sh
if [ -z "$records" ]; then
  records="$work/records.jsonl"
  start=$(date +%s.%N)
  for t in 1 2; do
    "${cap[@]}" "$bin/tune" --model="$model" --records="$records" --threads="$t" "${isa_flag[@]}" \
      "${tune_flags[@]}" >"$work/tune_$t.log"
    grep -E "^(target|host|workloads|measured|confirm|confirmed):" "$work/tune_$t.log" | sed "s/^/$t thread(s): /"
  done
  end=$(date +%s.%N)
  echo "tune wall time: $(node -e "console.log((process.argv[1]-process.argv[2]).toFixed(1))" "$end" "$start") s"
fi
input=${model%.onnx}.input.f32
expect=${model%.onnx}.ort_output.f32
io=()
[ -f "$input" ] && [ -f "$expect" ] && io=(--input="$input" --expect="$expect")
samples="$work/samples"
for ((r = 1; r <= rounds; r++)); do
  for t in 1 2; do
    # Which side runs first alternates by round (a machine warming up or
    # slowing down favours neither).
    modes=(fallback tuned)
    ((r % 2 == 0)) && modes=(tuned fallback)
    for mode in "${modes[@]}"; do
      extra=()
      [ "$mode" = tuned ] && extra=(--records="$records")
      out=$("${cap[@]}" "$bin/compile" --model="$model" "${io[@]}" --runs="$runs" --threads="$t" "${isa_flag[@]}" \
        --output="$work/${mode}_$t.out" --report="$work/${mode}_$t.json" "${extra[@]}")
      ms=$(sed -n 's/^latency: *\([0-9.]*\) ms.*/\1/p' <<<"$out")
      # The first output's line; sed reads all of its input (head -1 could exit
      # early and fail the pipe by SIGPIPE under pipefail).
      match=$(sed -n 's/^match: *[^:]*: //p' <<<"$out" | sed -n '1{s/ (worst.*//; s/, tolerance.*//; p}')
      printf '%s\t%s\t%s\t%s\n' "$t" "$mode" "$ms" "${match:-not checked}" >>"$samples"
    done
    # Every implementation is exact: the tuned output is the fallback's, bit for bit.
    if cmp -s "$work/fallback_$t.out" "$work/tuned_$t.out"; then
      printf '%s\tcheck\t0\tbit-identical to the fallback'"'"'s\n' "$t" >>"$samples"
    else
      printf '%s\tcheck\t0\tDIFFERS from the fallback'"'"'s\n' "$t" >>"$samples"
    fi
  done
done
node - "$samples" "$work" <<'JS'
const fs = require('fs');
const [samplesFile, work] = process.argv.slice(2);
const reportFile = `${work}/tuned_1.json`;
// How many ops the records decide otherwise than the fallback (0: the two
// plans are the same, and their ratio is the machine's noise).
// Ops are matched by workload key, then by order among the key's ops (node
// names can differ between the two plans).
const choices = f => {
  const byKey = new Map();
  for (const o of JSON.parse(fs.readFileSync(f, 'utf8')).ops.filter(o => o.workload)) {
    if (!byKey.has(o.workload)) byKey.set(o.workload, []);
    byKey.get(o.workload).push(`${o.implementation} ${JSON.stringify(o.config)}`);
  }
  return byKey;
};
const changed = t => {
  const b = choices(`${work}/tuned_${t}.json`);
  let n = 0;
  for (const [w, list] of choices(`${work}/fallback_${t}.json`)) {
    list.forEach((c, i) => { if ((b.get(w) || [])[i] !== c) ++n; });
  }
  return n;
};
const rows = fs.readFileSync(samplesFile, 'utf8').trim().split('\n').map(l => l.split('\t'));
const med = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
let differs = false;
console.log('| threads | ops not as the fallback | fallback ms | tuned ms | tuned/fallback (range) | tuned output |');
console.log('|---|---|---|---|---|---|');
for (const t of ['1', '2']) {
  const f = rows.filter(r => r[0] === t && r[1] === 'fallback').map(r => +r[2]);
  const u = rows.filter(r => r[0] === t && r[1] === 'tuned');
  const checks = rows.filter(r => r[0] === t && r[1] === 'check').map(r => r[3]);
  const same = checks.every(c => c.startsWith('bit-identical'));
  const ratios = u.map((r, i) => +r[2] / f[i]);
  console.log(`| ${t} | ${changed(t)} | ${med(f).toFixed(3)} | ${med(u.map(r => +r[2])).toFixed(3)} | ` +
              `${med(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) | ` +
              `${same ? 'bit-identical to the fallback\'s' : 'DIFFERS from the fallback\'s'}; vs ONNX Runtime: ${u[0][3]} |`);
  differs = differs || !same;
}
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
const kinds = {};
for (const op of report.ops) {
  if (!op.workload) continue;
  const w = JSON.parse(op.workload);
  const shape = s => s.slice(s.indexOf('[') + 1, -1).split(',').map(Number);
  let kind = 'dense (fc)';
  if (w.op === 'qnn.conv2d') {
    const ws = shape(w.weight), ds = shape(w.data);
    kind = w.groups > 1 && w.groups === ds[1] ? 'depthwise' : ds[1] <= 4 ? 'stem' :
           ws[2] === 1 && ws[3] === 1 ? 'pointwise 1x1' : `dense ${ws[2]}x${ws[3]}`;
  }
  const k = kinds[kind] || (kinds[kind] = {});
  const impl = `${op.implementation} (${op.decision})`;
  k[impl] = (k[impl] || 0) + 1;
}
console.log('\n| layer kind | implementations chosen (ops) |\n|---|---|');
for (const [kind, impls] of Object.entries(kinds)) {
  console.log(`| ${kind} | ${Object.entries(impls).map(([i, n]) => `${i} x${n}`).join(', ')} |`);
}
if (differs) { console.error('tuned.sh: a tuned output differs from the fallback\'s'); process.exit(1); }
JS
