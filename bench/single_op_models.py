"""Write one-op ONNX models (opset 13) of the shapes sessions 37 and 38's executor changes were measured on, for
bench/executor_vs_ort.sh: each op's time in `fwb run` beside ONNX Runtime's on the same inputs.

    /usr/bin/python3 bench/single_op_models.py OUT_DIR
    MODELS="$(ls OUT_DIR/*.onnx | tr '\\n' ' ')" THREADS=1 bench/executor_vs_ort.sh OUT.md

docs/executor.md has the table it gave. Needs Debian's python3-onnx and numpy.
"""
import os
import sys

import numpy as np
import onnx
import onnx.numpy_helper as nh
from onnx import TensorProto as T
from onnx import helper as h


def save(out, name, nodes, inputs, outputs, inits=()):
    graph = h.make_graph(nodes, name, [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                         [h.make_tensor_value_info(n, t, s) for n, t, s in outputs], list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.save(model, os.path.join(out, name + ".onnx"))


def ints(name, values):
    return nh.from_array(np.array(values, np.int64), name)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(37)
    S = [8, 64, 32, 32]
    x = ("x", T.FLOAT, S)

    def one(name, op, inputs, outputs, inits=(), **attrs):
        node = h.make_node(op, [n for n, _, _ in inputs] + [i.name for i in inits], [n for n, _, _ in outputs], **attrs)
        save(out, name, [node], inputs, outputs, inits)

    # A chain of 12 Linear layers on 256 rows (Gemm with transB and a bias of [N]).
    nodes, inits, cur = [], [], "x"
    for i in range(12):
        w = ((rng.random((64, 64)) - 0.5) * 2 / 8).astype(np.float32)
        inits += [nh.from_array(w, f"w{i}"), nh.from_array(rng.random(64).astype(np.float32), f"b{i}")]
        nodes.append(h.make_node("Gemm", [cur, f"w{i}", f"b{i}"], [f"y{i}"], transB=1))
        cur = f"y{i}"
    save(out, "gemm_bias_chain_256x64x64", nodes, [("x", T.FLOAT, [256, 64])], [(cur, T.FLOAT, [256, 64])], inits)
    one("depthtospace_b2", "DepthToSpace", [("x", T.FLOAT, [2, 256, 48, 48])], [("y", T.FLOAT, [2, 64, 96, 96])],
        blocksize=2, mode="CRD")
    one("expand_last_axis", "Expand", [("x", T.FLOAT, [8, 64, 32, 1])], [("y", T.FLOAT, S)], [ints("s", S)])
    one("softmax_axis1", "Softmax", [x], [("y", T.FLOAT, S)], axis=1)
    one("logsoftmax_axis1", "LogSoftmax", [x], [("y", T.FLOAT, S)], axis=1)
    one("sqrt", "Sqrt", [x], [("y", T.FLOAT, S)])
    one("globalmaxpool", "GlobalMaxPool", [x], [("y", T.FLOAT, [8, 64, 1, 1])])
    one("cumsum_axis1", "CumSum", [x], [("y", T.FLOAT, S)], [ints("a", 1)])
    one("cast_to_float16", "Cast", [x], [("y", T.FLOAT16, S)], to=T.FLOAT16)
    one("cast_bool_to_float", "Cast", [("x", T.BOOL, S)], [("y", T.FLOAT, S)], to=T.FLOAT)
    one("argmax_axis1", "ArgMax", [x], [("y", T.INT64, [8, 1, 32, 32])], axis=1)
    one("argmax_axis3", "ArgMax", [x], [("y", T.INT64, [8, 64, 32, 1])], axis=3)
    one("nonzero", "NonZero", [("x", T.BOOL, S)], [("y", T.INT64, [4, None])])
    one("onehot_1000", "OneHot", [("i", T.INT64, [4096])], [("y", T.FLOAT, [4096, 1000])],
        [ints("d", 1000), nh.from_array(np.array([0, 1], np.float32), "v")])
    one("topk_16_of_256", "TopK", [("x", T.FLOAT, [4, 256, 256])], [("v", T.FLOAT, [4, 256, 16]), ("k", T.INT64, [4, 256, 16])],
        [ints("kk", [16])])
    # Session 38: 16 picks a row from [4, 32, 64, 64] along the last axis; a max over rows of 16.
    one("gatherelements_16_of_64", "GatherElements", [("x", T.FLOAT, [4, 32, 64, 64])], [("y", T.FLOAT, [4, 32, 64, 16])],
        [ints("i", rng.integers(0, 64, [4, 32, 64, 16]))], axis=3)
    one("reducemax_rows_of_16", "ReduceMax", [("x", T.FLOAT, [4, 32, 256, 16])], [("y", T.FLOAT, [4, 32, 256])],
        axes=[3], keepdims=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
