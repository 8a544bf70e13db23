#!/usr/bin/env node
'use strict';
// ONNX Runtime's output for a test model (npm onnxruntime-node, CPU, one
// thread, all graph optimizations): runs MODEL once on INPUT.f32 (raw
// little-endian float32 of --shape) and writes its first output as raw
// float32 to OUTPUT.f32; prints the output's shape.
//
// Usage: node ort_output.js MODEL.onnx INPUT.f32 OUTPUT.f32 --shape=1,3,224,224

const fs = require('fs');

async function main() {
  const argv = process.argv.slice(2);
  const shapeArg = argv.find((a) => a.startsWith('--shape='));
  const files = argv.filter((a) => !a.startsWith('--'));
  if (files.length !== 3 || !shapeArg) {
    throw new Error('usage: ort_output.js MODEL.onnx INPUT.f32 OUTPUT.f32 --shape=N,C,H,W');
  }
  const [model, input, output] = files;
  const shape = shapeArg.slice('--shape='.length).split(',').map(Number);
  const ort = require('onnxruntime-node');
  const bytes = fs.readFileSync(input);
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const count = shape.reduce((a, b) => a * b, 1);
  if (data.length !== count) throw new Error(`${input} holds ${data.length} floats, --shape needs ${count}`);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const result = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, shape) });
  const out = result[session.outputNames[0]];
  fs.writeFileSync(output, Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength));
  console.log(`${session.outputNames[0]}: [${out.dims.join(',')}] -> ${output}`);
}

main().catch((e) => {
  console.error(`ort_output.js: ${e.message}`);
  process.exit(2);
});
