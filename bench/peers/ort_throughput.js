#!/usr/bin/env node
'use strict';
// ONNX Runtime's requests per second on a whole model with W workers, each
// running its own requests back to back for --seconds: the setting of
// bench/python_session.py (one request per thread, intra-op threads 1).
// A Node session cannot be shared between worker threads, so each worker
// creates its own (the same model and options): ORT's best case of that
// setting, its weights held once per worker.
//
// Usage: node ort_throughput.js MODEL.onnx [--workers=1,2] [--seconds=3]
// Prints JSON: {"model", "workers": {"1": requests_per_second, ...}}. The
// input is zeros of the model's first input's shape (float32, static).

const path = require('path');
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

async function work({ model, seconds }) {
  const ort = require('onnxruntime-node');
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const name = session.inputNames[0];
  const dims = session.inputMetadata ? session.inputMetadata[0].shape : [1, 3, 224, 224];
  const size = dims.reduce((a, b) => a * b, 1);
  const feeds = { [name]: new ort.Tensor('float32', new Float32Array(size), dims) };
  for (let i = 0; i < 10; ++i) await session.run(feeds);
  parentPort.postMessage('ready');
  await new Promise((resolve) => parentPort.once('message', resolve));
  const stop = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let count = 0;
  while (process.hrtime.bigint() < stop) {
    await session.run(feeds);
    ++count;
  }
  parentPort.postMessage(count);
}

async function measure(model, workers, seconds) {
  const all = [];
  for (let w = 0; w < workers; ++w) all.push(new Worker(__filename, { workerData: { model, seconds } }));
  await Promise.all(all.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const counts = all.map((w) => new Promise((resolve) => w.once('message', resolve)));
  const start = process.hrtime.bigint();
  all.forEach((w) => w.postMessage('go'));
  const total = (await Promise.all(counts)).reduce((a, b) => a + b, 0);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  return total / elapsed;
}

async function main() {
  let model = null;
  let workers = [1, 2];
  let seconds = 3;
  for (const arg of process.argv.slice(2)) {
    const m = /^--([a-z]+)=(.*)$/.exec(arg);
    if (!m) model = arg;
    else if (m[1] === 'workers') workers = m[2].split(',').map(Number);
    else if (m[1] === 'seconds') seconds = Number(m[2]);
    else throw new Error(`unknown flag --${m[1]}`);
  }
  if (!model) throw new Error('usage: ort_throughput.js MODEL.onnx [--workers=1,2] [--seconds=3]');
  const result = { model: path.basename(model), workers: {} };
  for (const w of workers) result.workers[w] = await measure(path.resolve(model), w, seconds);
  console.log(JSON.stringify(result));
}

if (isMainThread) {
  main().catch((e) => {
    console.error(`ort_throughput: ${e.message}`);
    process.exit(2);
  });
} else {
  work(workerData).catch((e) => {
    console.error(`ort_throughput worker: ${e.message}`);
    process.exit(2);
  });
}
