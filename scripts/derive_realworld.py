#!/usr/bin/env python3
"""Derive test variants from fetched real-world models (see tests/data/realworld/MANIFEST.txt).

    python3 scripts/derive_realworld.py MODEL_DIR

These files are MADE HERE from genuine exports; they are not converter output:
  derived_ppocr_cls_unsorted.onnx   ch_ppocr_mobile_v2.0_cls_infer.onnx (paddle2onnx) with its
                                    node list shuffled (seeded) so it is NOT topologically sorted
  derived_oww_embedding_fp16.onnx   embedding_model.onnx (tf2onnx) converted to fp16 weights and
                                    fp16 compute, float32 I/O kept via Cast nodes (the layout
                                    onnxconverter-common's keep_io_types produces)
  derived_oww_embedding_qdq.onnx    embedding_model.onnx with every Conv in QDQ form: int8
                                    per-channel weights + DequantizeLinear, activations through
                                    QuantizeLinear/DequantizeLinear (uint8) with FIXED synthetic
                                    scales (no calibration: numerics only need to match a reference)
                                    0.05 with zero point 128; 0.4 for the output of the last QLinearConv
  derived_oww_embedding_qlinear.onnx  same, operator-oriented: QLinearConv (u8 act, s8 per-channel
                                    weights, int32 bias) between QuantizeLinear/DequantizeLinear
Quantized weights are 7-bit (+-63) so that no CPU's integer kernels saturate (see W_QMAX).
Output is deterministic for a given onnx/numpy version.
"""
import os
import random
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ACT_SCALE = np.float32(0.05)   # synthetic activation scale, uint8 zero point 128 -> range +-6.4
ACT_ZP = np.uint8(128)
OUT_SCALE = np.float32(0.4)    # wider range for the last QLinearConv (feeds the graph output)


def unsorted(src, dst):
    m = onnx.load(src)
    nodes = list(m.graph.node)
    rng = random.Random(20240601)
    rng.shuffle(nodes)
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    m.producer_name = m.producer_name or ""
    m.doc_string = "derived by fwb scripts/derive_realworld.py: nodes shuffled (not topologically sorted)"
    onnx.save(m, dst)


def fp16(src, dst):
    m = onnx.load(src)
    g = m.graph
    for init in g.initializer:
        if init.data_type == TensorProto.FLOAT:
            a = numpy_helper.to_array(init).astype(np.float16)
            init.CopyFrom(numpy_helper.from_array(a, init.name))
    for vi in list(g.value_info):
        if vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            vi.type.tensor_type.elem_type = TensorProto.FLOAT16
    # keep float32 I/O: cast inputs in, cast outputs out
    renames = {}
    pre = []
    for inp in g.input:
        if inp.type.tensor_type.elem_type == TensorProto.FLOAT and inp.name not in {i.name for i in g.initializer}:
            new = inp.name + "_fp16"
            renames[inp.name] = new
            pre.append(helper.make_node("Cast", [inp.name], [new], to=TensorProto.FLOAT16, name=new + "_cast"))
    for n in g.node:
        for i, x in enumerate(n.input):
            if x in renames:
                n.input[i] = renames[x]
    post = []
    for out in g.output:
        if out.type.tensor_type.elem_type == TensorProto.FLOAT:
            old = out.name + "_fp16"
            for n in g.node:
                for i, x in enumerate(n.output):
                    if x == out.name:
                        n.output[i] = old
                for i, x in enumerate(n.input):
                    if x == out.name:
                        n.input[i] = old
            post.append(helper.make_node("Cast", [old], [out.name], to=TensorProto.FLOAT, name=out.name + "_cast"))
    nodes = pre + list(g.node) + post
    del g.node[:]
    g.node.extend(nodes)
    m.doc_string = "derived by fwb scripts/derive_realworld.py: fp16 weights/compute, fp32 I/O"
    onnx.save(m, dst)


# Weights use 7 bits (+-63), not the full int8 range. ONNX Runtime's u8s8 integer kernels use VPMADDUBSW
# on x86-64 CPUs without VNNI, which adds two u8*s8 products into a SATURATING int16: 255*127*2 = 64770
# overflows, 255*63*2 = 32130 cannot. With 7-bit weights the reference is exact by construction on every
# x86-64 CPU (AVX2-only and AVX-512/VNNI alike); ORT's quantization docs advise the same (reduce_range).
W_QMAX = 63


def quantize_weight(w):
    """per-output-channel symmetric, 7-bit magnitude (see W_QMAX)"""
    flat = np.abs(w.reshape(w.shape[0], -1)).max(axis=1)
    scale = np.where(flat > 0, flat / float(W_QMAX), 1.0).astype(np.float32)
    q = np.clip(np.round(w / scale.reshape(-1, *([1] * (w.ndim - 1)))), -W_QMAX, W_QMAX).astype(np.int8)
    return q, scale


def quantized(src, dst, qlinear):
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    last_conv = [n.name for n in g.node if n.op_type == "Conv"][-1]
    new_inits = [numpy_helper.from_array(np.array(ACT_SCALE, dtype=np.float32), "act_scale"),
                 numpy_helper.from_array(np.array(OUT_SCALE, dtype=np.float32), "out_scale"),
                 numpy_helper.from_array(np.array(ACT_ZP, dtype=np.uint8), "act_zp")]
    nodes = []
    k = 0
    for n in g.node:
        if n.op_type != "Conv" or n.input[1] not in inits:
            nodes.append(n)
            continue
        k += 1
        x, w = n.input[0], n.input[1]
        wq, ws = quantize_weight(numpy_helper.to_array(inits[w]))
        new_inits += [numpy_helper.from_array(wq, f"{w}_q"), numpy_helper.from_array(ws, f"{w}_scale"),
                      numpy_helper.from_array(np.zeros(len(ws), np.int8), f"{w}_zp")]
        xq = f"{x}_q{k}"
        nodes.append(helper.make_node("QuantizeLinear", [x, "act_scale", "act_zp"], [xq], name=f"q_in_{k}"))
        if not qlinear:
            xd = f"{x}_dq{k}"
            wd = f"{w}_dq"
            nodes.append(helper.make_node("DequantizeLinear", [xq, "act_scale", "act_zp"], [xd], name=f"dq_in_{k}"))
            nodes.append(helper.make_node("DequantizeLinear", [f"{w}_q", f"{w}_scale", f"{w}_zp"], [wd],
                                          axis=0, name=f"dq_w_{k}"))
            conv = helper.make_node("Conv", [xd, wd] + list(n.input[2:]), list(n.output), name=n.name)
            conv.attribute.extend(n.attribute)
            nodes.append(conv)
        else:
            ys = "out_scale" if n.name == last_conv else "act_scale"
            ins = [xq, "act_scale", "act_zp", f"{w}_q", f"{w}_scale", f"{w}_zp", ys, "act_zp"]
            if len(n.input) > 2 and n.input[2]:
                b = numpy_helper.to_array(inits[n.input[2]])
                bq = np.round(b / (ACT_SCALE * ws)).astype(np.int32)
                new_inits.append(numpy_helper.from_array(bq, f"{n.input[2]}_q"))
                ins.append(f"{n.input[2]}_q")
            yq = f"{n.output[0]}_q"
            qc = helper.make_node("QLinearConv", ins, [yq], name=n.name)
            qc.attribute.extend(n.attribute)
            nodes.append(qc)
            nodes.append(helper.make_node("DequantizeLinear", [yq, ys, "act_zp"], list(n.output),
                                          name=f"dq_out_{k}"))
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(new_inits)
    used = {i for nd in g.node for i in nd.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    m.doc_string = ("derived by fwb scripts/derive_realworld.py: " +
                    ("QLinearConv" if qlinear else "QDQ") + " with synthetic activation scale 0.05/zp 128 (0.4 for the last QLinearConv output)")
    onnx.save(m, dst)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    unsorted(os.path.join(d, "ch_ppocr_mobile_v2.0_cls_infer.onnx"), os.path.join(d, "derived_ppocr_cls_unsorted.onnx"))
    emb = os.path.join(d, "oww_embedding_model.onnx")
    fp16(emb, os.path.join(d, "derived_oww_embedding_fp16.onnx"))
    quantized(emb, os.path.join(d, "derived_oww_embedding_qdq.onnx"), qlinear=False)
    quantized(emb, os.path.join(d, "derived_oww_embedding_qlinear.onnx"), qlinear=True)


if __name__ == "__main__":
    main()
