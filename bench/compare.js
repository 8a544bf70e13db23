#!/usr/bin/env node
'use strict';
// qnnc vs XNNPACK vs ONNX Runtime on the layer suite (bench/layer_suite.h,
// bench/peers/suite.js), 1 and 2 threads, in one run. Entry point:
// bench/compare.sh (docs/benchmarks.md). Prints a Markdown table on stdout;
// progress, bazel's output and warnings go to stderr.
//
// CONTRACT with the Google Benchmark binaries (what this script parses):
//   targets  //bench:spatial_pack_benchmark   qnnc's native spatial-pack kernels
//            //bench:xnnpack_conv_benchmark   XNNPACK operators, as qnnc calls them
//            built with `bazel build -c opt`, run from `bazel info -c opt bazel-bin`
//            with --benchmark_format=json --benchmark_filter=<suite>
//            --benchmark_repetitions=R --benchmark_report_aggregates_only=true.
//   names    <layer>/<impl>[/<knob>:<value>...]/threads:<t>[/real_time]
//            (Google Benchmark's own suffixes such as /real_time are ignored)
//            layer = a name of bench/peers/suite.js (r50_c2_3x3, ...);
//            t = 1 or 2, spelled in the name (not GB's ->Threads());
//            impl = one path segment without ':' (e.g. u8s8.avx512vnni, int16,
//            qs8, qu8). Segments with ':' between impl and threads are a
//            tuning sweep: read only with --sweep; a segment weights:<kind>
//            marks a run on other weights than the suite's, never read.
//   time     the counter "ms" of the "median" aggregate (run_type
//            "aggregate", aggregate_name "median", run_name = the name
//            above): per repetition the median of the iterations' times
//            (bench/iteration_times.h), like ORT's median of runs; the
//            median over repetitions. Without that counter, `real_time` and
//            `time_unit` (a mean over iterations; register with
//            ->UseRealTime()). Other counters (GOPS, pct_peak) are NOT read:
//            GOPS and % of peak are recomputed here from the suite's op
//            counts, the same formula for every column. A benchmark that
//            SkipWithError()s shows as "err".
//   columns  XNNPACK = xnnpack_conv_benchmark's `qs8` impl.
//            qnnc = the fastest of every impl of both binaries for that
//            layer and thread count (spatial.<impl> or xnnpack.<impl>), as
//            qnnc's tuner would pick among them.
//   ORT      bench/peers/ort_suite.js: median QLinearConv kernel time from
//            ORT's profiler (s8w weights, NCHW model run as NHWC inside ORT).
// A binary that is not declared, does not build or prints nothing usable is
// reported on stderr and in the table's notes; the other columns still print.

const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { LAYERS, PEAK_GOPS_PER_CORE, AVX2_PEAK_GOPS_PER_CORE, AVXVNNI_PEAK_GOPS_PER_CORE, peakFor } =
  require('./peers/suite');

const BENCH_DIR = __dirname;
const WORKSPACE = path.dirname(BENCH_DIR);
const PEERS_DIR = path.join(BENCH_DIR, 'peers');
const THREADS = [1, 2];
const BINARIES = [
  { key: 'spatial', target: '//bench:spatial_pack_benchmark', prefix: 'spatial.' },
  { key: 'xnnpack', target: '//bench:xnnpack_conv_benchmark', prefix: 'xnnpack.' },
];

function usage() {
  return `usage: bench/compare.sh [flags]
  --reps=N          Google Benchmark repetitions; the median is used (default 5)
  --min-time=S      --benchmark_min_time per repetition, seconds (default 0.1)
  --ort-runs=N      ONNX Runtime timed runs per layer and thread count (default 100)
  --ort-warmup=N    ONNX Runtime warm-up runs (default 20)
  --layers=a,b      a subset of the suite
  --sweep           also read the spatial-pack tuning sweep (1 thread only)
  --no-build        do not run bazel build; use the binaries already in bazel-bin (-c opt)
  --rounds=N        measure everything N times, alternating ORT and qnnc (default 1);
                    the table shows each column's median over the rounds and the
                    median of the rounds' qnnc/ORT ratios with their range, so a
                    drift of the machine's speed hits both sides alike
  --json=FILE       also write every number as JSON
  --isa=LEVEL       (default: $QNNC_ISA) run as a host of that level: QNNC_ISA=LEVEL for qnnc's kernels, and
                    qnnc's benchmarks (XNNPACK included) and ONNX Runtime under the CPUID
                    cap (//bench/peers:libcpuid_cap_preload.so): by CPUID faulting, or where
                    the host cannot fault CPUID in copies with their CPUIDs patched to trap
                    (//bench/peers:cpuid_patch); the notes say which ran capped
`;
}

function parseArgs(argv) {
  const a = { reps: 5, minTime: 0.1, ortRuns: 100, ortWarmup: 20, layers: null, sweep: false,
    build: true, json: null, rounds: 1, isa: process.env.QNNC_ISA || null };
  for (const arg of argv) {
    let m;
    if (arg === '--help' || arg === '-h') { process.stdout.write(usage()); process.exit(0); }
    else if (arg === '--sweep') a.sweep = true;
    else if (arg === '--no-build') a.build = false;
    else if ((m = /^--reps=(\d+)$/.exec(arg))) a.reps = Number(m[1]);
    else if ((m = /^--rounds=([1-9]\d*)$/.exec(arg))) a.rounds = Number(m[1]);
    else if ((m = /^--min-time=([\d.]+)$/.exec(arg))) a.minTime = Number(m[1]);
    else if ((m = /^--ort-runs=(\d+)$/.exec(arg))) a.ortRuns = Number(m[1]);
    else if ((m = /^--ort-warmup=(\d+)$/.exec(arg))) a.ortWarmup = Number(m[1]);
    else if ((m = /^--layers=(.+)$/.exec(arg))) a.layers = m[1].split(',');
    else if ((m = /^--json=(.+)$/.exec(arg))) a.json = path.resolve(m[1]);
    else if ((m = /^--isa=([a-z0-9]+)$/.exec(arg))) a.isa = m[1];
    else { process.stderr.write(`unknown argument ${arg}\n${usage()}`); process.exit(2); }
  }
  return a;
}

const log = (s) => process.stderr.write(`[compare] ${s}\n`);

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: WORKSPACE, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
}

// The environments of the benchmark binaries and of ONNX Runtime (--isa).
let benchEnv = process.env;
let ortEnv = process.env;

// --isa: the environment of the measured processes. QNNC_ISA caps qnnc's own
// dispatch; the CPUID cap (LD_PRELOAD) caps what XNNPACK's cpuinfo and ORT's
// MLAS see. Where the host cannot fault CPUID, preloaded copies of ORT's and
// cpuinfo's libraries with their CPUIDs patched to trap
// (//bench/peers:cpuid_patch, QNNC_PEER_CPUID=patched) take the cap instead.
// Returns { env, ortEnv, note }; without any CPUID cap, env has QNNC_ISA only
// and the note says why.
function capEnvironment(isa, binDir, binaries) {
  if (!isa) return { env: process.env, ortEnv: process.env, note: null };
  const base = { ...process.env, QNNC_ISA: isa };
  const lib = path.join(binDir, 'bench/peers/libcpuid_cap_preload.so');
  const probe = path.join(binDir, 'bench/peers/cpuid_probe');
  const capped = { ...base, LD_PRELOAD: lib, QNNC_PEER_ISA: isa };
  const r = fs.existsSync(probe) ? run(probe, [], { env: capped, stdio: ['ignore', 'pipe', 'pipe'] }) :
    { status: 1, stderr: `no ${probe}` };
  const all = `--isa=${isa}: qnnc's kernels, XNNPACK and ONNX Runtime all run capped at ${isa}`;
  if (r.status === 0) {
    return { env: capped, ortEnv: { ...process.env, LD_PRELOAD: lib, QNNC_PEER_ISA: isa }, note: all };
  }
  const patched = patchForCap(binDir, probe, binaries[0]);
  if (patched.error) {
    return { env: base, ortEnv: process.env,
      note: `--isa=${isa}: XNNPACK and ONNX Runtime run uncapped (${lastLine(r.stderr)}; ${patched.error})` };
  }
  const trap = { QNNC_PEER_ISA: isa, QNNC_PEER_CPUID: 'patched' };
  const p = run(patched.probe, [], { env: { ...base, ...trap, LD_PRELOAD: lib }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (p.status !== 0) {
    return { env: base, ortEnv: process.env,
      note: `--isa=${isa}: XNNPACK and ONNX Runtime run uncapped (${lastLine(p.stderr)})` };
  }
  const env = { ...base, ...trap, LD_PRELOAD: `${lib} ${patched.cpuinfo}` };
  const how = 'no CPUID faulting here: libcpuinfo';
  if (!patched.ortLib) {
    return { env, ortEnv: process.env,
      note: `--isa=${isa}: qnnc's kernels and XNNPACK run capped at ${isa} (${how} preloaded with CPUIDs ` +
        `patched to trap); ONNX Runtime uncapped (${patched.ortError})` };
  }
  return { env, ortEnv: { ...process.env, ...trap, LD_PRELOAD: `${lib} ${patched.ortLib}` },
    note: `${all} (${how} and ORT's library preloaded with CPUIDs patched to trap)` };
}

// Copies, with their CPUIDs patched to trap, of the cpuinfo library `binary`
// (a benchmark) reads CPUID through for XNNPACK, of the probe and, where
// onnxruntime-node is installed, of ORT's library, in a temporary directory
// removed at exit: { cpuinfo, probe, ortLib or ortError } or { error }.
function patchForCap(binDir, probe, binary) {
  const ldd = binary ? run('ldd', [binary], { stdio: ['ignore', 'pipe', 'pipe'] }).stdout || '' : '';
  const m = /libcpuinfo\S* => (\S+)/.exec(ldd);
  if (!m) return { error: 'no shared libcpuinfo in the benchmarks to patch' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qnnc-cpuid-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const patch = (f) => {
    const to = path.join(dir, path.basename(f));
    const r = run(path.join(binDir, 'bench/peers/cpuid_patch'), [f, to], { stdio: ['ignore', 'pipe', 'pipe'] });
    return r.status === 0 ? { to } : { error: lastLine(r.stderr) || `cpuid_patch failed on ${f}` };
  };
  const out = {};
  for (const [key, f] of [['cpuinfo', m[1]], ['probe', probe]]) {
    const r = patch(f);
    if (r.error) return r;
    out[key] = r.to;
  }
  const x64 = path.join(PEERS_DIR, 'node_modules/onnxruntime-node/bin');
  const napi = fs.existsSync(x64) ? fs.readdirSync(x64).filter((d) => d.startsWith('napi-v')) : [];
  const ortLib = napi.map((d) => path.join(x64, d, 'linux/x64/libonnxruntime.so.1')).find(fs.existsSync);
  const r = ortLib ? patch(ortLib) : { error: 'no onnxruntime-node library to patch' };
  if (r.error) out.ortError = r.error; else out.ortLib = r.to;
  return out;
}

// ---- Google Benchmark binaries ------------------------------------------

// bazel-out/<cpu>-opt/bin through the workspace's convenience symlink (no
// wait for the bazel server, which other builds may hold), else bazel info.
function optBinDir() {
  const out = path.join(WORKSPACE, 'bazel-out');
  if (fs.existsSync(out)) {
    const opt = fs.readdirSync(out).filter((d) => /-opt$/.test(d) && !/exec|host/.test(d));
    if (opt.length === 1) return path.join(out, opt[0], 'bin');
  }
  const r = run('bazel', ['info', '-c', 'opt', 'bazel-bin'], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`bazel info -c opt bazel-bin failed:\n${r.stderr}`);
  return r.stdout.trim();
}

// Returns { path } or { missing: reason }.
function buildBinary(bin, args) {
  if (args.build) {
    const q = run('bazel', ['query', bin.target], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (q.status !== 0) {
      const why = /no such target|no such package/.test(q.stderr) ?
        'not declared in bench/BUILD yet' : `bazel query failed: ${lastLine(q.stderr)}`;
      return { missing: why };
    }
    log(`bazel build -c opt ${bin.target}`);
    const b = run('bazel', ['build', '-c', 'opt', bin.target], { stdio: ['ignore', 2, 2] });
    if (b.status !== 0) return { missing: `does not build (bazel build -c opt ${bin.target})` };
  }
  return {};
}

function binaryPath(bin, binDir) {
  const file = path.join(binDir, bin.target.replace(/^\/\//, '').replace(':', '/'));
  return fs.existsSync(file) ? { path: file } : { missing: `no binary at ${file}` };
}

const lastLine = (s) => (s || '').trim().split('\n').filter(Boolean).pop() || '';

// Without --sweep, only <layer>/<impl>/threads:<t> (no tuning configs).
function suiteFilter(layers, sweep) {
  return `^(${layers.map((l) => l.name).join('|')})/${sweep ? '.*' : '[^/:]+/'}threads:[12](/.*_time)?$`;
}

// Parses a name of the contract: { layer, impl, sweep, threads } or null.
// Google Benchmark's own suffixes (->UseRealTime() appends /real_time) go.
const GB_SUFFIX = /^(real_time|process_time|manual_time|(min_time|min_warmup_time|iterations|repeats):.*)$/;
function parseName(name) {
  const parts = name.split('/');
  while (parts.length && GB_SUFFIX.test(parts[parts.length - 1])) parts.pop();
  const tm = /^threads:(\d+)$/.exec(parts[parts.length - 1] || '');
  if (parts.length < 3 || !tm || parts[1].includes(':')) return null;
  return { layer: parts[0], impl: parts[1], sweep: parts.slice(2, -1).join('/'),
    threads: Number(tm[1]) };
}

const TO_MS = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };

// Returns { rows: [{layer, impl, sweep, threads, ms | error}], raw } or { missing }.
function runBinary(bin, file, args, layers) {
  const gbArgs = ['--benchmark_format=json', `--benchmark_filter=${suiteFilter(layers, args.sweep)}`,
    `--benchmark_repetitions=${args.reps}`, '--benchmark_report_aggregates_only=true',
    `--benchmark_min_time=${args.minTime}`];
  log(`${path.basename(file)} ${gbArgs.join(' ')}`);
  const r = run(file, gbArgs, { stdio: ['ignore', 'pipe', 2], env: benchEnv });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch (e) {
    return { missing: `exit ${r.status}, output is not Google Benchmark JSON` };
  }
  const byName = new Map();
  for (const b of json.benchmarks || []) {
    const name = b.run_name || b.name;
    const p = parseName(name);
    if (!p) { log(`${bin.key}: ignoring benchmark name outside the contract: ${b.name}`); continue; }
    if (b.error_occurred) { byName.set(name, { ...p, error: b.error_message || 'error' }); continue; }
    const ms = typeof b.ms === 'number' ? b.ms : b.real_time * (TO_MS[b.time_unit || 'ns']);
    if (b.run_type === 'aggregate') {
      if (b.aggregate_name === 'median') byName.set(name, { ...p, ms, label: b.label });
    } else if (!byName.has(name) || byName.get(name).samples) {
      // --reps=1: no aggregates, keep the iterations' median.
      const e = byName.get(name) || { ...p, samples: [], label: b.label };
      e.samples.push(ms);
      e.ms = median(e.samples);
      byName.set(name, e);
    }
  }
  if (r.status !== 0) log(`${bin.key}: exit status ${r.status}`);
  return { rows: [...byName.values()], context: json.context };
}

// ---- ONNX Runtime ---------------------------------------------------------

function ensureOrt() {
  try {
    require.resolve('onnxruntime-node', { paths: [PEERS_DIR] });
    return null;
  } catch (e) { /* install below */ }
  // onnxruntime-node's postinstall downloads binaries (no network here and
  // not needed): the package already ships bin/napi-v6/linux/x64.
  const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund'];
  log(`npm ${args.join(' ')} (in bench/peers)`);
  const r = run('npm', args, { cwd: PEERS_DIR, stdio: ['ignore', 2, 2] });
  return r.status === 0 ? null : `npm ${args.join(' ')} failed in bench/peers`;
}

function runOrt(args, layers) {
  const err = ensureOrt();
  if (err) return { missing: err };
  const out = path.join(os.tmpdir(), `qnnc_ort_${process.pid}.json`);
  const r = run('node', [path.join(PEERS_DIR, 'ort_suite.js'), `--runs=${args.ortRuns}`,
    `--warmup=${args.ortWarmup}`, `--layers=${layers.map((l) => l.name).join(',')}`,
    `--out=${out}`, '--threads=1,2'], { stdio: ['ignore', 2, 2], env: ortEnv });
  if (r.status !== 0 || !fs.existsSync(out)) return { missing: `ort_suite.js failed (exit ${r.status})` };
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.unlinkSync(out);
  return report;
}

// ---- table ----------------------------------------------------------------

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fmtMs = (ms) => (ms == null ? 'n/a' : ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
// "0.97", or with rounds "0.97 (0.93-1.02)": the median of the rounds' ratios
// and their range.
function fmtRatioCell(r, rounds) {
  if (!r) return 'n/a';
  return rounds > 1 ? `${r.median.toFixed(2)} (${r.min.toFixed(2)}-${r.max.toFixed(2)})` :
    r.median.toFixed(2);
}

function loadavg() { return os.loadavg().map((x) => x.toFixed(2)).join(' '); }

// One measurement of every column: ORT, then the benchmark binaries.
// Returns { ort, measured, data } with data[layer][threads] =
// { qnnc: {ms, impl}, candidates, xnnpack, ort }.
function measureRound(args, layers, built, notes) {
  const measured = {};
  const ort = runOrt(args, layers);
  if (ort.missing) notes.push(`ONNX Runtime: ${ort.missing}`);
  BINARIES.forEach((b, i) => {
    const res = built[i].missing ? built[i] : runBinary(b, built[i].path, args, layers);
    if (res.missing) {
      const msg = `${b.target}: MISSING — ${res.missing}; its columns show n/a`;
      log(msg);
      notes.push(msg);
    }
    measured[b.key] = res;
  });
  const data = {};
  for (const l of layers) {
    data[l.name] = {};
    for (const t of THREADS) {
      const cands = [];
      for (const b of BINARIES) {
        for (const row of measured[b.key].rows || []) {
          if (row.layer !== l.name || row.threads !== t || row.ms == null) continue;
          if (row.sweep && !args.sweep) continue;
          // Rows on other weights than the suite's (weights:trained) are not candidates.
          if (/(^|\/)weights:/.test(row.sweep)) continue;
          cands.push({ ms: row.ms, impl: b.prefix + row.impl + (row.sweep ? `/${row.sweep}` : '') });
        }
      }
      cands.sort((a, b) => a.ms - b.ms);
      const xnn = (measured.xnnpack.rows || [])
          .find((r) => r.layer === l.name && r.threads === t && r.impl === 'qs8' && !r.sweep);
      const o = (ort.results || []).find((r) => r.layer === l.name && r.threads === t);
      data[l.name][t] = {
        qnnc: cands[0] || null,
        candidates: cands,
        xnnpack: xnn ? (xnn.error ? { error: xnn.error } : { ms: xnn.ms }) : null,
        ort: o ? { ms: o.conv_ms, nodes_ms: o.nodes_ms, wall_ms: o.wall_ms } : null,
      };
    }
  }

  return { ort, measured, data };
}

// The columns' medians over the rounds, and the median (min, max) of the
// rounds' own qnnc/ORT ratios.
function combineRounds(rounds, layers) {
  const data = {};
  for (const l of layers) {
    data[l.name] = {};
    for (const t of THREADS) {
      const cells = rounds.map((r) => r.data[l.name][t]);
      const med = (get) => {
        const xs = cells.map(get).filter((x) => x != null);
        return xs.length ? median(xs) : null;
      };
      // qnnc's time: the median over the rounds of each round's fastest
      // implementation; the label names the one that won most rounds.
      const qms = med((c) => c.qnnc && c.qnnc.ms);
      const wins = {};
      for (const c of cells) if (c.qnnc) wins[c.qnnc.impl] = (wins[c.qnnc.impl] || 0) + 1;
      const impl = Object.keys(wins).sort((a, b) => wins[b] - wins[a])[0];
      const xerr = cells.find((c) => c.xnnpack && c.xnnpack.error);
      const ratios = cells.filter((c) => c.qnnc && c.ort && c.ort.ms != null)
          .map((c) => c.qnnc.ms / c.ort.ms);
      data[l.name][t] = {
        qnnc: qms == null ? null : { ms: qms, impl },
        xnnpack: med((c) => c.xnnpack && c.xnnpack.ms) != null ?
          { ms: med((c) => c.xnnpack && c.xnnpack.ms) } : xerr ? { error: xerr.xnnpack.error } : null,
        ort: med((c) => c.ort && c.ort.ms) == null ? null : { ms: med((c) => c.ort && c.ort.ms) },
        ratio: ratios.length ? { median: median(ratios), min: Math.min(...ratios),
          max: Math.max(...ratios) } : null,
        rounds: cells,
      };
    }
  }
  return data;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const layers = args.layers ? LAYERS.filter((l) => args.layers.includes(l.name)) : LAYERS;
  if (args.layers && layers.length !== args.layers.length) {
    process.stderr.write(`unknown layer in --layers; the suite: ${LAYERS.map((l) => l.name).join(', ')}\n`);
    process.exit(2);
  }
  const notes = [];
  const loadBefore = loadavg();

  // Build first (bazel may wait for other builds), then measure back to back.
  let built = BINARIES.map((b) => buildBinary(b, args));
  let binDir = null;
  try { binDir = optBinDir(); } catch (e) { notes.push(e.message.split('\n')[0]); }
  built = built.map((r, i) => (r.missing ? r : binDir ? binaryPath(BINARIES[i], binDir) :
    { missing: 'no bazel-bin for -c opt' }));
  if (args.isa) {
    if (args.build) {
      run('bazel', ['build', '-c', 'opt', '//bench/peers:libcpuid_cap_preload.so',
        '//bench/peers:cpuid_probe', '//bench/peers:cpuid_patch'], { stdio: ['ignore', 2, 2] });
    }
    ensureOrt();  // before the cap: it patches a copy of ORT's library (runOrt reports a failure)
    const cap = capEnvironment(args.isa, binDir || '', built.filter((b) => !b.missing).map((b) => b.path));
    benchEnv = cap.env;
    ortEnv = cap.ortEnv;
    notes.push(cap.note);
    log(cap.note);
  }

  const rounds = [];
  for (let r = 0; r < args.rounds; ++r) {
    if (args.rounds > 1) log(`round ${r + 1} of ${args.rounds}`);
    const roundNotes = [];
    rounds.push(measureRound(args, layers, built, roundNotes));
    for (const n of roundNotes) {
      const note = args.rounds > 1 ? `round ${r + 1}: ${n}` : n;
      if (r === 0 || !notes.some((x) => x.endsWith(n))) notes.push(note);
    }
  }
  const data = combineRounds(rounds, layers);
  const ort = rounds[0].ort;

  const gops = (l, ms) => (ms == null ? null : l.ops / (ms * 1e6));
  const lines = [];
  lines.push(`qnnc vs XNNPACK (qs8 NHWC) vs ONNX Runtime ${ort.version || ''} (QLinearConv s8w), ` +
      `median ms; ${os.cpus()[0].model}, ${os.cpus().length} CPUs; ${new Date().toISOString()}`);
  lines.push('');
  lines.push('| layer | qnnc 1t ms (impl) | XNNPACK 1t | ORT 1t | qnnc/ORT 1t | qnnc 2t ms (impl) | ' +
      'XNNPACK 2t | ORT 2t | qnnc/ORT 2t | qnnc GOPS 1t (% peak) | qnnc GOPS 2t (% peak) |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const l of layers) {
    const c = (t) => data[l.name][t];
    const cell = (t) => [
      c(t).qnnc ? `${fmtMs(c(t).qnnc.ms)} (${c(t).qnnc.impl})` : 'n/a',
      c(t).xnnpack ? (c(t).xnnpack.error ? 'err' : fmtMs(c(t).xnnpack.ms)) : 'n/a',
      fmtMs(c(t).ort && c(t).ort.ms),
      fmtRatioCell(c(t).ratio, rounds.length),
    ];
    const perf = (t) => {
      const g = gops(l, c(t).qnnc && c(t).qnnc.ms);
      const peak = peakFor(c(t).qnnc && c(t).qnnc.impl, args.isa);
      return g == null ? 'n/a' : `${g.toFixed(0)} (${(100 * g / (peak * t)).toFixed(0)}%)`;
    };
    lines.push(`| ${l.name} | ${cell(1).join(' | ')} | ${cell(2).join(' | ')} | ${perf(1)} | ${perf(2)} |`);
  }
  lines.push('');
  lines.push('qnnc/ORT is a time ratio: below 1 qnnc is faster. qnnc = the fastest of ' +
      `${args.sweep ? 'every implementation and tuning config' : 'every implementation (default configs)'}` +
      ' of //bench:spatial_pack_benchmark and //bench:xnnpack_conv_benchmark; XNNPACK = the latter\'s qs8. ' +
      `% peak = of the limit of the instruction set the implementation runs, per core times the ` +
      `threads: ${PEAK_GOPS_PER_CORE} GOPS (VNNI vpdpbusd), ${AVX2_PEAK_GOPS_PER_CORE} GOPS for the ` +
      `AVX2 kernels (the exact vpmaddwd loop), ${AVXVNNI_PEAK_GOPS_PER_CORE} GOPS for AVX-VNNI (vpdpbusd ymm)` +
      `${args.isa === 'avx2' || args.isa === 'avxvnni' ? `, and that of --isa=${args.isa} for XNNPACK` : ''}. ` +
      `ORT = QLinearConv kernel time from its profiler (the Transposes ORT puts around its NHWC kernel excluded). ` +
      `Google Benchmark: median over ${args.reps} repetitions of each one's median run; ` +
      `ORT: median of ${args.ortRuns} runs.` +
      (rounds.length > 1 ? ` ${rounds.length} rounds, ORT and qnnc alternating: each time is the ` +
        'median over the rounds, each qnnc/ORT the median of the rounds\' ratios (their range).' : ''));
  lines.push(`Load average before ${loadBefore}, after ${loadavg()}` +
      (Number(loadBefore.split(' ')[0]) > 0.5 ? ' — the machine was busy: numbers are noisy.' : '.'));
  for (const n of notes) lines.push(`NOTE: ${n}`);
  process.stdout.write(lines.join('\n') + '\n');

  if (args.json) {
    fs.writeFileSync(args.json, JSON.stringify({ args, notes, data, rounds }, null, 1) + '\n');
    log(`wrote ${args.json}`);
  }
}

main();
