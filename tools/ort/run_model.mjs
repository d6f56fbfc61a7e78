#!/usr/bin/env node
// Run an ONNX model with onnxruntime-node (CPU EP), an implementation independent
// of Fusion Workbench, to produce reference outputs for tests.
//
//   node run_model.mjs MODEL.onnx INPUT_DIR OUTPUT_DIR [--opt=disabled|basic|extended|all] [--threads=N]
//                      [--time=RUNS]             # also time RUNS more runs (after the first) and print
//                                                # "ort threads=N runs=R median_s=... min_s=..." to stdout
//   node run_model.mjs --info MODEL.onnx            # print inputs/outputs as JSON
//   node run_model.mjs MODEL.onnx --save-optimized=OUT.onnx [--opt=LEVEL]
//                                                   # save ORT's optimised graph (no run without dirs)
//
// INPUT_DIR holds input_0.pb, input_1.pb, ... (serialized onnx.TensorProto), in the
// order of the model's graph inputs (initializers excluded).  When every file carries
// a name that is a graph input, files are matched by name instead.  Outputs are
// written as OUTPUT_DIR/output_K.pb (raw_data, name = graph output name), in graph
// output order.  Exit code: 0 ok, 1 run error, 2 usage error.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { decodeTensor, encodeTensor } from './tensor_proto.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');

function usage(msg) {
  if (msg) console.error(`run_model: ${msg}`);
  console.error('usage: node run_model.mjs MODEL.onnx INPUT_DIR OUTPUT_DIR [--opt=LEVEL] [--threads=N]\n' +
                '       node run_model.mjs --info MODEL.onnx\n' +
                '       node run_model.mjs MODEL.onnx --save-optimized=OUT.onnx [--opt=LEVEL]');
  process.exit(2);
}

const args = process.argv.slice(2);
const flags = Object.fromEntries(args.filter((a) => a.startsWith('--')).map((a) => {
  const [k, v] = a.slice(2).split('=');
  return [k, v === undefined ? true : v];
}));
const pos = args.filter((a) => !a.startsWith('--'));

const sessionOptions = {
  executionProviders: ['cpu'],
  graphOptimizationLevel: flags.opt || 'all',
  intraOpNumThreads: Number(flags.threads || 1),
  interOpNumThreads: 1,
  logSeverityLevel: 3, // errors only; ORT warnings go to stderr otherwise
};
// ORT writes the graph after its optimisations (com.microsoft fused ops included) to this file.
if (typeof flags['save-optimized'] === 'string') sessionOptions.optimizedModelFilePath = flags['save-optimized'];

function listPb(dir, prefix) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir)
    .map((f) => ({ f, m: f.match(new RegExp(`^${prefix}_(\\d+)\\.pb$`)) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]))
    .map((x) => path.join(dir, x.f));
}

async function main() {
  if (flags.info) {
    if (pos.length !== 1) usage('--info needs MODEL.onnx');
    const s = await ort.InferenceSession.create(pos[0], sessionOptions);
    console.log(JSON.stringify({ onnxruntime: ort.env.versions, inputs: s.inputMetadata, outputs: s.outputMetadata }, null, 1));
    await s.release();
    return;
  }
  if (pos.length === 1 && sessionOptions.optimizedModelFilePath) {
    const s = await ort.InferenceSession.create(pos[0], sessionOptions);
    await s.release();
    return;
  }
  if (pos.length !== 3) usage('expected MODEL.onnx INPUT_DIR OUTPUT_DIR');
  const [modelPath, inDir, outDir] = pos;
  if (!fs.existsSync(modelPath)) usage(`no such model: ${modelPath}`);

  const session = await ort.InferenceSession.create(modelPath, sessionOptions);
  const inputNames = session.inputNames;
  const files = listPb(inDir, 'input');
  const tensors = files.map((f) => decodeTensor(fs.readFileSync(f)));
  if (tensors.length > inputNames.length) {
    throw new Error(`${tensors.length} input files but the model has ${inputNames.length} inputs (${inputNames.join(', ')})`);
  }
  const byName = tensors.length > 0 && tensors.every((t) => t.name && inputNames.includes(t.name));
  const feeds = {};
  tensors.forEach((t, i) => {
    const name = byName ? t.name : inputNames[i];
    feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
  });
  const missing = inputNames.filter((n) => !(n in feeds));
  if (missing.length) throw new Error(`missing inputs: ${missing.join(', ')}`);

  const results = await session.run(feeds);
  if (flags.time) {
    const runs = Math.max(1, Number(flags.time));
    const secs = [];
    for (let k = 0; k < runs; ++k) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      secs.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    secs.sort((a, b) => a - b);
    console.log(`ort threads=${sessionOptions.intraOpNumThreads} runs=${runs} ` +
                `median_s=${secs[Math.floor(runs / 2)].toFixed(4)} min_s=${secs[0].toFixed(4)}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  session.outputNames.forEach((name, k) => {
    const t = results[name];
    if (!t || typeof t.type !== 'string') throw new Error(`output ${name} is not a tensor`);
    const buf = encodeTensor({ name, type: t.type, dims: t.dims, data: t.data });
    fs.writeFileSync(path.join(outDir, `output_${k}.pb`), buf);
  });
  await session.release();
}

main().catch((e) => {
  console.error(`run_model: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
