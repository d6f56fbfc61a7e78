#!/usr/bin/env node
// Compare two directories of output_K.pb TensorProtos (ONNX backend-test layout).
//   node compare_outputs.mjs EXPECTED_DIR ACTUAL_DIR [--rtol=1e-3] [--atol=1e-7] [--atol-norm=N]
// Exit 0 when every output matches (|a-e| <= atol + rtol*|e|, NaN==NaN), 1 otherwise.
// --atol-norm=N raises atol per output to N * max|e| of that output: a normwise floor, so an element
// near zero is judged against the output's scale (another summation order moves it by a few ulps of
// the large values around it) while a wrong result, off by far more than N of the scale, still fails.
import fs from 'node:fs';
import path from 'node:path';
import { decodeTensor, halfToFloat, bf16ToFloat } from './tensor_proto.mjs';

const args = process.argv.slice(2);
const flags = Object.fromEntries(args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')));
const [expDir, actDir] = args.filter((a) => !a.startsWith('--'));
if (!expDir || !actDir) {
  console.error('usage: node compare_outputs.mjs EXPECTED_DIR ACTUAL_DIR [--rtol=R] [--atol=A]');
  process.exit(2);
}
const rtol = Number(flags.rtol ?? 1e-3);
const atolFlag = Number(flags.atol ?? 1e-7);
const atolNorm = Number(flags['atol-norm'] ?? 0);

const outs = fs.readdirSync(expDir).filter((f) => /^output_\d+\.pb$/.test(f)).sort();
let ok = outs.length > 0;
if (!ok) console.error(`no output_K.pb in ${expDir}`);
for (const f of outs) {
  const ap = path.join(actDir, f);
  if (!fs.existsSync(ap)) { console.error(`${f}: missing in ${actDir}`); ok = false; continue; }
  const e = decodeTensor(fs.readFileSync(path.join(expDir, f)));
  const a = decodeTensor(fs.readFileSync(ap));
  if (e.dataType !== a.dataType) { console.error(`${f}: dtype ${a.dataType} != expected ${e.dataType}`); ok = false; continue; }
  if (e.dims.join(',') !== a.dims.join(',')) { console.error(`${f}: shape [${a.dims}] != expected [${e.dims}]`); ok = false; continue; }
  const conv = e.type === 'float16' ? halfToFloat : e.type === 'bfloat16' ? bf16ToFloat : (v) => v;
  let bad = 0; let first = -1; let maxErr = 0;
  let scale = 0;
  if (atolNorm > 0)
    for (let i = 0; i < e.data.length; i++) {
      const v = conv(e.data[i]);
      if (typeof v === 'number' && Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    }
  const atol = Math.max(atolFlag, atolNorm * scale);
  for (let i = 0; i < e.data.length; i++) {
    const ev = conv(e.data[i]); const av = conv(a.data[i]);
    let good;
    if (typeof ev === 'bigint' || typeof ev === 'string') good = ev === av;
    else if (Number.isNaN(ev)) good = Number.isNaN(av);
    else if (!Number.isFinite(ev)) good = ev === av;
    else { const d = Math.abs(av - ev); maxErr = Math.max(maxErr, d); good = d <= atol + rtol * Math.abs(ev); }
    if (!good) { bad++; if (first < 0) first = i; }
  }
  if (bad) {
    console.error(`${f}: ${bad}/${e.data.length} elements differ (first at ${first}: got ${a.data[first]}, want ${e.data[first]}; max abs err ${maxErr})`);
    ok = false;
  }
}
process.exit(ok ? 0 : 1);
