#!/usr/bin/env node
'use strict';
// ONNX Runtime (npm onnxruntime-node, CPU execution provider) on the layer
// suite: one QLinearConv node per layer, u8 activations (zero point 128),
// int8 weights of zero point 0 ("s8w"), per-tensor scales, int32 bias,
// random data. ONNX's QLinearConv is NCHW; ORT's layout transformer turns it
// into its NHWC kernel (com.microsoft QLinearConv) with Transposes around it,
// so the time of the QLinearConv kernel alone is the comparable number.
//
// Usage: node ort_suite.js [--threads=1,2] [--runs=50] [--warmup=10]
//                          [--layers=a,b] [--out=FILE]
// Prints JSON on stdout (or writes FILE); progress on stderr.
//
// Per layer and thread count it reports medians over --runs runs of
//   conv_ms      QLinearConv kernel time, from ORT's profiler (the anchor);
//   nodes_ms     sum of every node's kernel time (conv + the transposes);
//   session_ms   ORT's model_run event (the whole run inside ORT);
//   wall_ms      session.run() from JavaScript, binding overhead included.
// The model files are written to models/ (git-ignored) for inspection.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { LAYERS } = require('./suite');
const W = require('./onnx_writer');

function parseArgs(argv) {
  const a = { threads: [1, 2], runs: 50, warmup: 10, layers: null, out: null };
  for (const arg of argv) {
    const m = /^--([a-z]+)=(.*)$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg}`);
    const [, k, v] = m;
    if (k === 'threads') a.threads = v.split(',').map(Number);
    else if (k === 'runs') a.runs = Number(v);
    else if (k === 'warmup') a.warmup = Number(v);
    else if (k === 'layers') a.layers = v.split(',');
    else if (k === 'out') a.out = v;
    else throw new Error(`unknown flag --${k}`);
  }
  return a;
}

// Deterministic data (xorshift32), so every run measures the same model.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}

function buildModel(l) {
  const next = rng(7);
  const cg = l.c / l.groups;
  const w = new Int8Array(l.k * cg * l.r * l.r);
  for (let i = 0; i < w.length; ++i) w[i] = (next() % 255) - 127;
  const bias = new Int32Array(l.k);
  for (let i = 0; i < l.k; ++i) bias[i] = (next() % 2001) - 1000;
  const T = W.DataType;
  const inits = [
    W.tensor(5, 'x_scale', T.FLOAT, [], new Float32Array([0.02])),
    W.tensor(5, 'x_zero_point', T.UINT8, [], new Uint8Array([128])),
    W.tensor(5, 'w', T.INT8, [l.k, cg, l.r, l.r], w),
    W.tensor(5, 'w_scale', T.FLOAT, [], new Float32Array([0.005])),
    W.tensor(5, 'w_zero_point', T.INT8, [], new Int8Array([0])),
    W.tensor(5, 'y_scale', T.FLOAT, [], new Float32Array([0.5])),
    W.tensor(5, 'y_zero_point', T.UINT8, [], new Uint8Array([128])),
    W.tensor(5, 'bias', T.INT32, [l.k], bias),
  ];
  const conv = W.node(
      ['x', 'x_scale', 'x_zero_point', 'w', 'w_scale', 'w_zero_point', 'y_scale', 'y_zero_point',
        'bias'],
      ['y'], 'conv', 'QLinearConv', [
        W.attrInts('kernel_shape', [l.r, l.r]),
        W.attrInts('strides', [l.stride, l.stride]),
        W.attrInts('pads', [l.pad, l.pad, l.pad, l.pad]),
        W.attrInts('dilations', [1, 1]),
        W.attrInt('group', l.groups),
      ]);
  return W.model({
    nodes: [conv],
    name: l.name,
    initializers: inits,
    inputs: [W.valueInfo(11, 'x', T.UINT8, [1, l.c, l.h, l.w])],
    outputs: [W.valueInfo(12, 'y', T.UINT8, [1, l.k, l.oh, l.ow])],
    opset: 13,
  });
}

const median = (xs) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ORT's profile: a Chrome trace array. "Session"/"model_run" events delimit
// the runs; "Node"/"<node>_kernel_time" events carry args.op_name.
function parseProfile(file, warmup) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run')
      .sort((a, b) => a.ts - b.ts);
  const kernels = events.filter((e) => e.cat === 'Node' && /_kernel_time$/.test(e.name));
  const perRun = runs.slice(warmup).map((r) => {
    const inRun = kernels.filter((e) => e.ts >= r.ts && e.ts <= r.ts + r.dur);
    const conv = inRun.filter((e) => e.args && e.args.op_name === 'QLinearConv');
    const sum = (es) => es.reduce((t, e) => t + e.dur, 0) / 1000;
    return {
      session: r.dur / 1000,
      conv: conv.length ? sum(conv) : null,
      nodes: sum(inRun),
      ops: inRun.map((e) => e.args.op_name),
      convInput: conv.length && conv[0].args.input_type_shape ?
        Object.values(conv[0].args.input_type_shape[0])[0] : null,
    };
  });
  return perRun;
}

async function measure(ort, l, modelBytes, threads, args, profileDir) {
  const prefix = path.join(profileDir, `${l.name}_t${threads}`);
  const session = await ort.InferenceSession.create(modelBytes, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: true,
    profileFilePrefix: prefix,
  });
  const next = rng(11);
  const x = new Uint8Array(l.c * l.h * l.w);
  for (let i = 0; i < x.length; ++i) x[i] = next() & 255;
  const feeds = { x: new ort.Tensor('uint8', x, [1, l.c, l.h, l.w]) };
  const wall = [];
  for (let i = 0; i < args.warmup + args.runs; ++i) {
    const t0 = process.hrtime.bigint();
    const out = await session.run(feeds);
    const t1 = process.hrtime.bigint();
    if (i >= args.warmup) wall.push(Number(t1 - t0) / 1e6);
    if (i === 0 && out.y.dims.join(',') !== [1, l.k, l.oh, l.ow].join(',')) {
      throw new Error(`${l.name}: output shape ${out.y.dims}`);
    }
  }
  session.endProfiling();
  await session.release();
  // The profiler names its file <prefix>_<date>.json.
  const base = path.basename(prefix) + '_';
  const files = fs.readdirSync(profileDir).filter((f) => f.startsWith(base) && f.endsWith('.json'))
      .map((f) => path.join(profileDir, f))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  let perRun = [];
  if (files.length) {
    perRun = parseProfile(files[0], args.warmup);
    for (const f of files) fs.unlinkSync(f);
  }
  const convs = perRun.map((r) => r.conv).filter((v) => v !== null);
  const convMs = median(convs);
  return {
    layer: l.name,
    threads,
    runs: args.runs,
    conv_ms: convMs,
    nodes_ms: median(perRun.map((r) => r.nodes)),
    session_ms: median(perRun.map((r) => r.session)),
    wall_ms: median(wall),
    gops: convMs ? l.ops / (convMs * 1e6) : null,
    graph: perRun.length ? perRun[0].ops : [],
    // [1, H, W, C] when ORT runs its NHWC kernel.
    conv_input_shape: perRun.length ? perRun[0].convInput : null,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    throw new Error(`cannot load onnxruntime-node (run: npm install --ignore-scripts in ${__dirname}): ${e.message}`);
  }
  const modelDir = path.join(__dirname, 'models');
  const profileDir = path.join(__dirname, 'profiles');
  fs.mkdirSync(modelDir, { recursive: true });
  fs.mkdirSync(profileDir, { recursive: true });
  const layers = args.layers ? LAYERS.filter((l) => args.layers.includes(l.name)) : LAYERS;
  const results = [];
  for (const l of layers) {
    const bytes = buildModel(l);
    fs.writeFileSync(path.join(modelDir, `${l.name}.onnx`), bytes);
    for (const t of args.threads) {
      const r = await measure(ort, l, bytes, t, args, profileDir);
      process.stderr.write(`ort ${l.name} threads:${t} conv ${r.conv_ms?.toFixed(3)} ms` +
          ` (nodes ${r.nodes_ms?.toFixed(3)}, session ${r.session_ms?.toFixed(3)},` +
          ` wall ${r.wall_ms.toFixed(3)}) [${r.graph.join(' ')}] conv input ${JSON.stringify(r.conv_input_shape)}\n`);
      results.push(r);
    }
  }
  const report = {
    tool: 'onnxruntime-node',
    version: ort.env.versions ? ort.env.versions.node : null,
    time: 'median over runs; conv_ms = QLinearConv kernel time from ORT profiling',
    weights: 's8w: int8 weights, zero point 0; u8 activations, zero point 128; per-tensor scales',
    warmup: args.warmup,
    cpus: os.cpus().length,
    results,
  };
  const text = JSON.stringify(report, null, 1) + '\n';
  if (args.out) fs.writeFileSync(args.out, text); else process.stdout.write(text);
}

main().catch((e) => {
  process.stderr.write(`ort_suite: ${e.stack || e}\n`);
  process.exit(1);
});
