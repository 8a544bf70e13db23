#!/usr/bin/env node
'use strict';
// ONNX Runtime (npm onnxruntime-node, CPU execution provider, all graph
// optimizations) on a whole model: median time of session.run() over --runs
// runs after --warmup, per thread count (intra-op threads; inter-op 1).
//
// Usage: node ort_model.js MODEL.onnx INPUT.f32 [--threads=1,2] [--runs=50]
//                          [--warmup=10] [--shape=N,C,H,W (default 1,3,S,S)]
//                          [--output=FILE (the first output of the last run,
//                           raw float32)]
// Prints JSON on stdout: {"model", "threads": {"1": {"median_ms", ...}}}.
// The input is raw little-endian float32 of the model's first input's shape
// (1x3x224x224 for the bundled models).

const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const a = { model: null, input: null, threads: [1, 2], runs: 50, warmup: 10 };
  for (const arg of argv) {
    const m = /^--([a-z]+)=(.*)$/.exec(arg);
    if (!m) {
      if (!a.model) a.model = arg;
      else if (!a.input) a.input = arg;
      else throw new Error(`unexpected argument ${arg}`);
      continue;
    }
    const [, k, v] = m;
    if (k === 'threads') a.threads = v.split(',').map(Number);
    else if (k === 'runs') a.runs = Number(v);
    else if (k === 'warmup') a.warmup = Number(v);
    else if (k === 'shape') a.shape = v.split(',').map(Number);
    else if (k === 'output') a.output = v;
    else throw new Error(`unknown flag --${k}`);
  }
  if (!a.model || !a.input) throw new Error('usage: ort_model.js MODEL.onnx INPUT.f32 [flags]');
  return a;
}

function median(xs) {
  const s = [...xs].sort((p, q) => p - q);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const ort = require('onnxruntime-node');
  const bytes = fs.readFileSync(args.input);
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const result = { model: path.basename(args.model), runs: args.runs, threads: {} };
  for (const t of args.threads) {
    const session = await ort.InferenceSession.create(args.model, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: t,
      interOpNumThreads: 1,
      executionMode: 'sequential',
    });
    const name = session.inputNames[0];
    // Default: one square 3-channel image (the bundled models' inputs).
    const side = Math.round(Math.sqrt(data.length / 3));
    const shape = args.shape || [1, 3, side, side];
    const feeds = { [name]: new ort.Tensor('float32', data, shape) };
    for (let i = 0; i < args.warmup; ++i) await session.run(feeds);
    const times = [];
    let outputs = null;
    for (let i = 0; i < args.runs; ++i) {
      const start = process.hrtime.bigint();
      outputs = await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    if (args.output && outputs) {
      const first = outputs[session.outputNames[0]].data;
      fs.writeFileSync(args.output, Buffer.from(first.buffer, first.byteOffset, first.byteLength));
    }
    result.threads[t] = { median_ms: median(times), min_ms: Math.min(...times) };
    process.stderr.write(`ort ${result.model} threads:${t} ${median(times).toFixed(3)} ms\n`);
    await session.release();
  }
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_model: ${e.stack || e}\n`);
  process.exit(2);
});
