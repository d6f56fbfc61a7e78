// Minimal ONNX TensorProto codec (hand schema, protobufjs) shared by run_model.mjs
// and compare_outputs.mjs.  Supports raw_data and the typed *_data fields.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');
const Long = require('long');
protobuf.util.Long = Long;
protobuf.configure();

// Field numbers follow onnx/onnx.proto (TensorProto).  Unknown fields
// (segment=3, doc_string=12, external_data=13, data_location=14) are skipped.
const root = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            data_type: { type: 'int32', id: 2 },
            float_data: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            int32_data: { rule: 'repeated', type: 'int32', id: 5, options: { packed: true } },
            string_data: { rule: 'repeated', type: 'bytes', id: 6 },
            int64_data: { rule: 'repeated', type: 'int64', id: 7, options: { packed: true } },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
            double_data: { rule: 'repeated', type: 'double', id: 10, options: { packed: true } },
            uint64_data: { rule: 'repeated', type: 'uint64', id: 11, options: { packed: true } },
            doc_string: { type: 'string', id: 12 },
            data_location: { type: 'int32', id: 14 },
          },
        },
      },
    },
  },
});
export const TensorProto = root.lookupType('onnx.TensorProto');

// ONNX TensorProto.DataType -> [ort type name, TypedArray ctor, typed field]
export const DT = {
  1: ['float32', Float32Array, 'float_data'],
  2: ['uint8', Uint8Array, 'int32_data'],
  3: ['int8', Int8Array, 'int32_data'],
  4: ['uint16', Uint16Array, 'int32_data'],
  5: ['int16', Int16Array, 'int32_data'],
  6: ['int32', Int32Array, 'int32_data'],
  7: ['int64', BigInt64Array, 'int64_data'],
  8: ['string', null, 'string_data'],
  9: ['bool', Uint8Array, 'int32_data'],
  10: ['float16', Uint16Array, 'int32_data'], // bits; int32_data holds the uint16 bit pattern
  11: ['float64', Float64Array, 'double_data'],
  12: ['uint32', Uint32Array, 'uint64_data'],
  13: ['uint64', BigUint64Array, 'uint64_data'],
  // 16 (bfloat16): onnxruntime-node's JS API has no bfloat16 tensor type
};
export const ORT2DT = Object.fromEntries(Object.entries(DT).map(([k, v]) => [v[0], Number(k)]));

const toNum = (v) => (typeof v === 'number' ? v : Number(v.toString()));
const toBig = (v) => (typeof v === 'number' ? BigInt(v) : BigInt(v.toString()));

/** Decode a serialized TensorProto into {name, dataType, type, dims:number[], data:TypedArray|string[]} */
export function decodeTensor(buf) {
  const m = TensorProto.decode(buf);
  const dt = m.data_type;
  const info = DT[dt];
  if (!info) throw new Error(`unsupported TensorProto data_type ${dt} (bfloat16/complex/float8/int4 and non-tensor values are not supported)`);
  if (m.data_location === 1) throw new Error('external data not supported');
  const [type, Ctor, field] = info;
  const dims = (m.dims || []).map(toNum);
  const n = dims.reduce((a, b) => a * b, 1);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0) || n > 2 ** 31) {
    throw new Error(`not a TensorProto (dims ${dims}); sequence/optional/map values are not supported`);
  }
  let data;
  if (type === 'string') {
    data = (m.string_data || []).map((b) => Buffer.from(b).toString('utf8'));
  } else if (m.raw_data && m.raw_data.length) {
    const raw = Buffer.from(m.raw_data);
    if (raw.length !== n * Ctor.BYTES_PER_ELEMENT) {
      throw new Error(`raw_data size ${raw.length} != ${n}*${Ctor.BYTES_PER_ELEMENT}`);
    }
    const ab = new ArrayBuffer(raw.length); // copy: aligned, little-endian as on disk
    new Uint8Array(ab).set(raw);
    data = new Ctor(ab);
  } else {
    const src = m[field] || [];
    data = new Ctor(n);
    if (src.length !== n) throw new Error(`${field} has ${src.length} elements, expected ${n}`);
    const big = Ctor === BigInt64Array || Ctor === BigUint64Array;
    for (let i = 0; i < n; i++) data[i] = big ? toBig(src[i]) : toNum(src[i]);
  }
  return { name: m.name || '', dataType: dt, type, dims, data };
}

/** Encode {name, type (ort name), dims, data} into a serialized TensorProto using raw_data. */
export function encodeTensor({ name, type, dims, data }) {
  const dt = ORT2DT[type];
  if (!dt) throw new Error(`unsupported ort tensor type ${type}`);
  const msg = { name: name || '', data_type: dt, dims: dims.map((d) => Long.fromNumber(Number(d))) };
  if (type === 'string') {
    msg.string_data = Array.from(data, (s) => Buffer.from(String(s), 'utf8'));
  } else {
    let ta = data;
    if (type === 'float16' && !(ta instanceof Uint16Array)) {
      // Float16Array (newer runtimes): re-view its bits
      ta = new Uint16Array(ta.buffer, ta.byteOffset, ta.length);
    }
    if (type === 'bool' && !(ta instanceof Uint8Array)) ta = Uint8Array.from(ta, (v) => (v ? 1 : 0));
    msg.raw_data = Buffer.from(ta.buffer, ta.byteOffset, ta.byteLength);
  }
  return Buffer.from(TensorProto.encode(TensorProto.fromObject(msg)).finish());
}

/** IEEE half bits -> number */
export function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/** bfloat16 bits -> number */
export function bf16ToFloat(h) {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint32(0, h << 16, true);
  return b.getFloat32(0, true);
}
