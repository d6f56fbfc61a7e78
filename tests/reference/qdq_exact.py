#!/usr/bin/env python3
"""Quantized (QDQ) reference that is exact by construction (issue 21.2).

    qdq_exact.py MODEL.onnx INPUT_DIR FWB ORT_DIR WORKDIR

Why not "fwb == ORT within rtol": at a QuantizeLinear, a value that lies within float32 rounding noise
of a rounding tie (k + 0.5 steps) rounds up in one summation order and down in another. Both are legal
float32 implementations of the model, and the one-step difference then grows through 20 quantized
layers (0.60 on outputs of 3.7 on an AVX2-only CPU). So each implementation (fwb and ONNX Runtime) is
checked PER LAYER against the ONNX specification's semantics computed exactly: float64 products and
sums (a product of two float32 numbers is exact in float64), y = saturate(round_half_to_even(x / scale)
+ zero_point) at every QuantizeLinear. Each layer is evaluated from the implementation's own quantized
inputs (its QuantizeLinear outputs are added as graph outputs), so a legal rounding difference does
not compound. At each requantize, the implementation's integer must equal the exact one, or differ by
one quantization step where the exact value lies within the float32 error bound of the tie between
them (running bound: gamma(K+1) * sum|x*w| per Conv plus the propagated bounds, u*|y| per rounding).
The final float output must be within its running bound of the exact value. A wrong kernel (a wrong
weight, a wrong zero point, round-half-away) fails; a different summation order cannot.
Supported ops: QuantizeLinear, DequantizeLinear, Conv, LeakyRelu, Relu, Max, MaxPool, Reshape (what
scripts/derive_realworld.py's QDQ model holds). Exit 0 pass, 1 fail, 2 usage/unsupported.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

U = 2.0 ** -24  # float32 unit roundoff


def gamma(n):
    return n * U / (1 - n * U)


def conv(x, w, b, a):
    """exact-enough float64 NCHW Conv (float64 sums of exact products: relative error ~K * 2^-53)"""
    group = a.get("group", 1)
    if group != 1 or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise NotImplementedError("Conv with group/auto_pad")
    kh, kw = w.shape[2:]
    sh, sw = a.get("strides", [1, 1])
    dh, dw = a.get("dilations", [1, 1])
    pt, pl, pb, pr = a.get("pads", [0, 0, 0, 0])
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (xp.shape[3] - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def maxpool(x, a):
    kh, kw = a["kernel_shape"]
    sh, sw = a.get("strides", [1, 1])
    pt, pl, pb, pr = a.get("pads", [0, 0, 0, 0])
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=-np.inf)
    oh = (xp.shape[2] - kh) // sh + 1
    ow = (xp.shape[3] - kw) // sw + 1
    y = np.full((x.shape[0], x.shape[1], oh, ow), -np.inf)
    for i in range(kh):
        for j in range(kw):
            y = np.maximum(y, xp[:, :, i: i + sh * (oh - 1) + 1: sh, j: j + sw * (ow - 1) + 1: sw])
    return y


def per_axis(p, x, axis):
    if p.ndim == 0:
        return p
    shape = [1] * x.ndim
    shape[axis] = -1
    return p.reshape(shape)


def check(model, taps, impl, inputs):
    """Evaluates `model` exactly, forcing each QuantizeLinear output to the implementation's value
    (`impl`: tap name -> array, plus the graph outputs). Returns a list of failures."""
    val, err = {}, {}  # exact value and the float32 running error bound of the implementation
    for init in model.graph.initializer:
        a = numpy_helper.to_array(init)
        val[init.name] = a.astype(np.float64) if a.dtype.kind == "f" else a
        err[init.name] = np.zeros(a.shape)
    for name, a in inputs.items():
        val[name] = a.astype(np.float64)
        err[name] = np.zeros(a.shape)
    fails, stats = [], {"layers": 0, "ties": 0}
    for n in model.graph.node:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        x = [val.get(i) if i else None for i in n.input]
        e = [err.get(i) if i else None for i in n.input]
        op = n.op_type
        if op == "DequantizeLinear":
            axis = a.get("axis", 1)
            zp = x[2] if len(x) > 2 and x[2] is not None else np.zeros((), np.int64)
            y = (x[0].astype(np.int64) - per_axis(zp.astype(np.int64), x[0], axis)) * per_axis(x[1], x[0], axis)
            ye = U * np.abs(y)
        elif op == "QuantizeLinear":
            scale, zp = float(x[1]), int(x[2])
            lo, hi = (0, 255) if x[2].dtype == np.uint8 else (-128, 127)
            pre = x[0] / scale
            exact = np.clip(np.round(pre) + zp, lo, hi)  # numpy rounds half to even
            delta = e[0] / scale + U * np.abs(pre)        # float32 error of the implementation's x/scale
            got = impl[n.output[0]].astype(np.int64)
            diff = got - exact
            # A one-step difference is legal only where the exact value is within delta of the tie
            # between the two integers (and neither side is clipped differently).
            tie = np.minimum(got, exact) - zp + 0.5
            legal = (diff == 0) | ((np.abs(diff) == 1) & (np.abs(pre - tie) <= delta))
            stats["layers"] += 1
            stats["ties"] += int(np.count_nonzero(diff))
            if not legal.all():
                k = int(np.argmax(~legal.ravel()))
                fails.append(f"{n.name}: {int(np.count_nonzero(~legal))}/{legal.size} integers wrong "
                             f"(first at {k}: got {got.ravel()[k]}, exact {exact.ravel()[k]:.0f}, "
                             f"x/scale {pre.ravel()[k]:.9f}, allowance {delta.ravel()[k]:.2e})")
            y = got.astype(np.float64) if False else got  # forced: the implementation's own integers
            ye = np.zeros(y.shape)
        elif op == "Conv":
            b = x[2] if len(x) > 2 else None
            y = conv(x[0], x[1], b, a)
            K = x[1][0].size + 1
            S = conv(np.abs(x[0]), np.abs(x[1]), None if b is None else np.abs(b), a)
            ye = (gamma(K) * S + conv(e[0], np.abs(x[1]), None, a) + conv(np.abs(x[0]), e[1], None, a)
                  + (0 if b is None else (e[2].reshape(1, -1, 1, 1))))
        elif op == "LeakyRelu":
            al = a.get("alpha", 0.01)
            y = np.where(x[0] >= 0, x[0], x[0] * np.float64(np.float32(al)))
            ye = e[0] + U * np.abs(y)
        elif op == "Relu":
            y, ye = np.maximum(x[0], 0), e[0]
        elif op == "Max":
            y, ye = x[0], e[0]
            for xi, ei in zip(x[1:], e[1:]):
                y, ye = np.maximum(y, xi), np.maximum(ye, ei)
        elif op == "MaxPool":
            y, ye = maxpool(x[0], a), maxpool(e[0], a)
        elif op == "Reshape":
            shape = [int(s) for s in x[1]]
            shape = [x[0].shape[i] if s == 0 else s for i, s in enumerate(shape)]
            y, ye = x[0].reshape(shape), np.broadcast_to(e[0], x[0].shape).reshape(shape)
        else:
            raise NotImplementedError(op)
        val[n.output[0]], err[n.output[0]] = y, np.broadcast_to(ye, np.shape(y))
    for o in model.graph.output:
        got = impl[o.name].astype(np.float64)
        want, bound = val[o.name], err[o.name] + U * np.abs(val[o.name])
        bad = np.abs(got - want) > bound
        if bad.any():
            k = int(np.argmax(bad.ravel()))
            fails.append(f"output {o.name}: {int(bad.sum())}/{bad.size} outside the bound (first at {k}: got "
                         f"{got.ravel()[k]}, exact {want.ravel()[k]}, bound {bound.ravel()[k]:.2e})")
    return fails, stats


def read_dir(d, names):
    out = {}
    for k, name in enumerate(names):
        t = onnx.TensorProto()
        with open(os.path.join(d, f"output_{k}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        out[name] = numpy_helper.to_array(t)
    return out


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    model_path, in_dir, fwb, ort_dir, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    model = onnx.load(model_path)
    taps = [n.output[0] for n in model.graph.node if n.op_type == "QuantizeLinear"]
    tapped = onnx.load(model_path)
    for t in taps:
        tapped.graph.output.append(helper.make_tensor_value_info(t, onnx.TensorProto.UINT8, None))
    tap_path = os.path.join(work, "taps.onnx")
    onnx.save(tapped, tap_path)
    names = [o.name for o in tapped.graph.output]
    inputs = {}
    graph_inputs = [i.name for i in model.graph.input if i.name not in {x.name for x in model.graph.initializer}]
    for k, name in enumerate(graph_inputs):
        t = onnx.TensorProto()
        with open(os.path.join(in_dir, f"input_{k}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        inputs[name] = numpy_helper.to_array(t)
    runs = {
        "fwb": [fwb, "run", tap_path, "--input-dir", in_dir, "--output-dir", os.path.join(work, "fwb")],
        "ORT": ["node", os.path.join(ort_dir, "run_model.mjs"), tap_path, in_dir, os.path.join(work, "ort")],
    }
    ok = True
    for impl, cmd in runs.items():
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {impl} run: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
            ok = False
            continue
        try:
            fails, st = check(model, taps, read_dir(cmd[-1], names), inputs)
        except NotImplementedError as e:
            print(f"unsupported op for the exact QDQ reference: {e}")
            sys.exit(2)
        if fails:
            ok = False
            print(f"FAIL {impl}: " + "; ".join(fails[:3]))
        else:
            print(f"{impl} == exact ONNX semantics per layer ({st['layers']} requantizes, {st['ties']} integers "
                  f"one step off at a float32 tie, all within the bound; output within its bound)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
