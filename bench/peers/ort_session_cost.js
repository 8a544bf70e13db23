#!/usr/bin/env node
'use strict';
// ONNX Runtime's deployment cost on a model (npm onnxruntime-node, CPU
// execution provider, all graph optimizations, one intra-op thread):
// the time to create its session, then --runs runs, and the process's
// memory: its resident size before the session (Node and the ORT library
// loaded) and its peak after the runs, whose difference is ORT's own.
//
// Usage: node ort_session_cost.js MODEL.onnx INPUT.f32 --shape=N,C,H,W [--runs=10]
// Prints JSON on stdout: {"create_ms", "rss_before_mib", "peak_rss_mib",
// "net_rss_mib"}.

const fs = require('fs');

function parseArgs(argv) {
  const a = { model: null, input: null, shape: null, runs: 10 };
  for (const arg of argv) {
    const m = /^--([a-z]+)=(.*)$/.exec(arg);
    if (!m) {
      if (!a.model) a.model = arg;
      else if (!a.input) a.input = arg;
      else throw new Error(`unexpected argument ${arg}`);
    } else if (m[1] === 'shape') {
      a.shape = m[2].split(',').map(Number);
    } else if (m[1] === 'runs') {
      a.runs = Number(m[2]);
    } else {
      throw new Error(`unknown flag --${m[1]}`);
    }
  }
  if (!a.model || !a.input || !a.shape) {
    throw new Error('usage: ort_session_cost.js MODEL.onnx INPUT.f32 --shape=N,C,H,W [--runs=10]');
  }
  return a;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const ort = require('onnxruntime-node');
  const bytes = fs.readFileSync(args.input);
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const mib = (b) => b / 1048576;
  const before = process.memoryUsage().rss;
  const start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(args.model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const createMs = Number(process.hrtime.bigint() - start) / 1e6;
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', data, args.shape) };
  for (let i = 0; i < args.runs; ++i) await session.run(feeds);
  const peak = process.resourceUsage().maxRSS * 1024;  // KiB on Linux
  const result = {
    create_ms: createMs,
    rss_before_mib: mib(before),
    peak_rss_mib: mib(peak),
    net_rss_mib: mib(peak - before),
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_session_cost: ${e.stack || e}\n`);
  process.exit(2);
});
