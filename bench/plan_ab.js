#!/usr/bin/env node
'use strict';
// Two or more compiled plans (//tools:compile --out) of one model, run in
// turn on one input: which is faster, op by op. For changes worth 1-3%: this
// VM's speed drifts by a third within the hour, so every round runs each
// plan once, the order rotated from round to round, and only medians over
// the rounds and ratios to the first plan are printed.
//
//   node bench/plan_ab.js --input=FILE [--rounds=8] [--runs=40] [--threads=1]
//                         [--isa=LEVEL] [--min-ms=0.3] PLAN [PLAN...]
//
// A PLAN may start with NAME=VALUE, pairs (comma-separated) to set in the
// environment of its runs: an experiment build's switches, or the same plan
// twice as a noise check; COMPILE=PATH runs that plan on another build of
// //tools:compile (a copy of the old binary, to time a kernel change). It builds //tools:compile with -c opt and runs it
// from `bazel info -c opt bazel-bin` with --plan, --report. Prints a
// Markdown table on stdout: the run's latency, the sum of the ops' medians,
// then every op taking at least --min-ms in the first plan. An op no variant
// changes (ResNet's stem, for a change to its 3x3 layers) shows the noise.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

function fail(message, code = 2) {
  process.stderr.write(`plan_ab: ${message}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const args = { rounds: 8, runs: 40, threads: 1, isa: '', minMs: 0.3, input: '', plans: [] };
  const positive = (name, v) => {
    if (!/^[1-9][0-9]*$/.test(v)) fail(`--${name} must be a positive integer, got '${v}'`);
    return Number(v);
  };
  for (const a of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) {
      args.plans.push(a);
      continue;
    }
    const [, name, v] = m;
    if (name === 'rounds' || name === 'runs' || name === 'threads') args[name] = positive(name, v);
    else if (name === 'isa') args.isa = v;
    else if (name === 'input') args.input = v;
    else if (name === 'min-ms') {
      if (!/^[0-9]*\.?[0-9]+$/.test(v)) fail(`--min-ms must be a number of milliseconds, got '${v}'`);
      args.minMs = Number(v);
    } else fail(`unknown flag --${name} (see the top of bench/plan_ab.js)`);
  }
  if (!args.input) fail('--input=FILE is required (the model input, as //tools:compile takes it)');
  if (!fs.existsSync(args.input)) fail(`--input: no file ${args.input}`);
  if (args.plans.length < 2) fail('give at least two plans');
  return args;
}

// "A=1,B=2,/tmp/x.plan" -> { env: {A: '1', B: '2'}, plan: '/tmp/x.plan' }
function parseVariant(text) {
  const parts = text.split(',');
  const plan = parts.pop();
  const env = {};
  for (const p of parts) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(p);
    if (!m) fail(`'${p}' in '${text}' is not NAME=VALUE`);
    env[m[1]] = m[2];
  }
  if (!fs.existsSync(plan)) fail(`no plan file ${plan}`);
  const compile = env.COMPILE;
  delete env.COMPILE;
  if (compile !== undefined && !fs.existsSync(compile)) fail(`COMPILE: no file ${compile}`);
  return { label: text, env, plan, compile };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const variants = args.plans.map(parseVariant);
  let r = spawnSync('bazel', ['build', '-c', 'opt', '//tools:compile'], { stdio: ['ignore', 2, 2] });
  if (r.status !== 0) fail('bazel build -c opt //tools:compile failed', 1);
  r = spawnSync('bazel', ['info', '-c', 'opt', 'bazel-bin'], { encoding: 'utf8' });
  if (r.status !== 0) fail('bazel info -c opt bazel-bin failed', 1);
  const compile = path.join(r.stdout.trim(), 'tools/compile');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-ab-'));
  const report = path.join(dir, 'report.json');
  const latency = variants.map(() => []);
  const ops = variants.map(() => new Map());  // node -> times
  const order = [];  // node names in the first plan's order
  try {
    for (let round = 0; round < args.rounds; ++round) {
      process.stderr.write(`[plan_ab] round ${round + 1} of ${args.rounds}\n`);
      for (let k = 0; k < variants.length; ++k) {
        const i = (k + round) % variants.length;
        const v = variants[i];
        const flags = [`--plan=${v.plan}`, `--input=${args.input}`, `--runs=${args.runs}`,
          `--threads=${args.threads}`, `--report=${report}`];
        if (args.isa) flags.push(`--isa=${args.isa}`);
        const run = spawnSync(v.compile || compile, flags, { env: { ...process.env, ...v.env }, encoding: 'utf8' });
        if (run.status !== 0) {
          const last = (run.stderr || '').trim().split('\n').pop();
          fail(`${v.label}: //tools:compile exited with ${run.status}: ${last}`, 1);
        }
        const rep = JSON.parse(fs.readFileSync(report, 'utf8'));
        latency[i].push(rep.latency_ms_median);
        for (const op of rep.ops) {
          if (i === 0 && round === 0) order.push(op.node);
          if (!ops[i].has(op.node)) ops[i].set(op.node, []);
          ops[i].get(op.node).push(op.ms);
        }
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const fmt = (x) => x.toFixed(3);
  const ratio = (x, base) => (x / base).toFixed(3);
  const names = variants.map((v, i) => `${String.fromCharCode(65 + i)}: ${v.label}`);
  console.log(`${args.rounds} rounds of ${args.runs} runs, ${args.threads} thread(s)` +
    `${args.isa ? `, --isa=${args.isa}` : ''}; ${names.join('; ')}\n`);
  const letters = variants.map((v, i) => String.fromCharCode(65 + i));
  console.log(`| | ${letters.map((l) => `${l} ms`).join(' | ')} | ${letters.slice(1).map((l) => `${l}/A`).join(' | ')} |`);
  console.log(`|---|${letters.map(() => '---').join('|')}|${letters.slice(1).map(() => '---').join('|')}|`);
  const row = (label, values) => console.log(`| ${label} | ${values.map(fmt).join(' | ')} | ` +
    `${values.slice(1).map((x) => ratio(x, values[0])).join(' | ')} |`);
  row('latency', latency.map(median));
  row('sum of the ops', ops.map((m) => [...m.values()].reduce((s, t) => s + median(t), 0)));
  for (const node of order) {
    const first = median(ops[0].get(node));
    if (first < args.minMs || ops.some((m) => !m.has(node))) continue;
    row(node, ops.map((m) => median(m.get(node))));
  }
}

main();
