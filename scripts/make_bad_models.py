#!/usr/bin/env python3
"""Writes the broken-model corpus tests/data/bad/ (committed; re-run to regenerate, output is deterministic).

    /usr/bin/python3 scripts/make_bad_models.py [OUT_DIR]

Each case is one file NAME.onnx (or NAME.bin for files that are not ONNX at all) plus one line in
EXPECT.tsv:  NAME <TAB> refuse|legal <TAB> text the error must contain (refuse) or '-' (legal)
  refuse: `fwb fuse/simulate/verify/render` exit 2 with one message containing the text; `fwb info`
          exits 0 listing the problem (or 2 when the file cannot be read as a model at all)
  legal:  every verb succeeds (exit 0; verify PASS)
  runfail: legal to read, fuse and render; verify and simulate (which run it) exit 2 naming the limit
Never: a crash, a hang, exit 3, a partial output file, a negative figure.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "bad")
CASES = []  # (name, kind, expect)


def model(nodes, inputs, outputs, inits=(), opset=13, name="bad"):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="fwb-bad-corpus")
    m.ir_version = 8
    return m


def vi(name, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def w(name, shape, value=0.1):
    return numpy_helper.from_array(np.full(shape, value, dtype=np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def save(name, m, kind, expect):
    onnx.save(m, os.path.join(OUT, name + ".onnx"))
    CASES.append((name, kind, expect))


def raw(name, data, expect):
    with open(os.path.join(OUT, name + ".bin"), "wb") as f:
        f.write(data)
    CASES.append((name, "refuse", expect))


def conv(name, kind, expect, x=(1, 3, 8, 8), wshape=(4, 3, 3, 3), **attrs):
    n = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)
    save(name, model([n], [vi("x", list(x))], [vi("y", None)], [w("w", wshape)]), kind, expect)


def one(name, op, kind, expect, ins, inits=(), outs=1, opset=13, **attrs):
    """A single `op` node reading graph inputs/initializers `ins` (names), output y (and y1..)."""
    onames = ["y"] + [f"y{k}" for k in range(1, outs)]
    n = helper.make_node(op, [i if isinstance(i, str) else i[0] for i in ins], onames, name=op.lower(), **attrs)
    inputs = [vi(i[0], i[1], i[2] if len(i) > 2 else TensorProto.FLOAT) for i in ins if not isinstance(i, str)]
    save(name, model([n], inputs, [vi(o, None) for o in onames], inits, opset=opset), kind, expect)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith((".onnx", ".bin", ".tsv", ".data")):
            os.remove(os.path.join(OUT, f))

    # --- not a model at all -----------------------------------------------------------------------
    raw("empty_file", b"", "empty")
    raw("random_bytes", bytes((i * 131 + 7) % 256 for i in range(512)), "not a valid ONNX model")
    good = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2, 3])], [vi("y", [2, 3])])
    blob = good.SerializeToString()
    raw("truncated", blob[: len(blob) // 2], "not a valid ONNX model")

    # --- graph structure --------------------------------------------------------------------------
    save("cycle", model([helper.make_node("Relu", ["b"], ["a"], name="r1"), helper.make_node("Relu", ["a"], ["b"], name="r2")],
                        [vi("x", [2])], [vi("a", [2])]), "refuse", "cycle")
    save("dangling_input", model([helper.make_node("Relu", ["nowhere"], ["y"], name="relu")], [vi("x", [2])], [vi("y", [2])]),
         "refuse", "nowhere")
    t = w("big", [4, 4])
    t.ClearField("raw_data")
    t.raw_data = b"\0" * 12  # 12 bytes for 64
    save("raw_data_too_short", model([helper.make_node("Add", ["x", "big"], ["y"], name="add")], [vi("x", [4, 4])], [vi("y", [4, 4])], [t]),
         "refuse", "big")
    ext = w("ext", [4])
    ext.ClearField("raw_data")
    ext.data_location = TensorProto.EXTERNAL
    ext.external_data.add(key="location", value="../../../etc/passwd")
    save("external_data_outside", model([helper.make_node("Add", ["x", "ext"], ["y"], name="add")], [vi("x", [4])], [vi("y", [4])], [ext]),
         "refuse", "ext")
    save("unknown_op", model([helper.make_node("FrobnicateTensor", ["x"], ["y"], name="frob")], [vi("x", [2])], [vi("y", [2])]),
         "refuse", "FrobnicateTensor")

    # --- convolution attributes -------------------------------------------------------------------
    conv("conv_strides_zero", "refuse", "strides", strides=[0, 0])
    conv("conv_dilations_zero", "refuse", "dilations", dilations=[0, 0])
    conv("conv_group_zero", "refuse", "group", group=0)
    conv("conv_group_not_dividing", "refuse", "group", group=2)
    conv("conv_channel_mismatch", "refuse", "channel", wshape=(4, 5, 3, 3))
    conv("conv_negative_pads", "refuse", "pads", pads=[-1, 0, 0, 0])
    conv("conv_float_strides", "refuse", "strides", strides=[1.0, 1.0])
    conv("conv_kernel_larger_than_input", "refuse", "conv", x=(1, 3, 2, 2), wshape=(4, 3, 5, 5))
    conv("conv_strides_wrong_length", "refuse", "strides", strides=[1, 1, 1])
    conv("conv_weight_rank", "refuse", "w", wshape=(4, 3))
    # fuzz findings: libonnx's conv inference read past a weight shape of another rank (SEGV);
    # a graph input listed twice dereferenced a missing initializer
    conv("conv_input_rank_3", "refuse", "rank", x=(3, 8, 8), wshape=(4, 3, 3, 3))
    save("input_declared_twice", model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2]), vi("x", [2])], [vi("y", [2])]),
         "refuse", "declared twice")
    conv("conv_ok", "legal", "-", strides=[2, 2], pads=[1, 1, 1, 1])
    conv("conv_grouped_ok", "legal", "-", x=(1, 4, 8, 8), wshape=(4, 2, 3, 3), group=2)

    # --- pooling ------------------------------------------------------------------------------------
    one("maxpool_kernel_zero", "MaxPool", "refuse", "kernel_shape", [("x", [1, 3, 8, 8])], kernel_shape=[0, 0])
    one("maxpool_strides_zero", "MaxPool", "refuse", "strides", [("x", [1, 3, 8, 8])], kernel_shape=[2, 2], strides=[0, 0])
    one("avgpool_no_kernel", "AveragePool", "refuse", "kernel_shape", [("x", [1, 3, 8, 8])])
    one("maxpool_ok", "MaxPool", "legal", "-", [("x", [1, 3, 8, 8])], kernel_shape=[2, 2], strides=[2, 2])
    # Fuzz finding (fuzz_simulate, ASan): no graph outputs, so fusion leaves no kernel and the simulator
    # indexed past its empty schedule. Legal per onnx.checker: every verb succeeds.
    n = helper.make_node("MaxPool", ["x"], ["y"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2])
    save("no_outputs", model([n], [vi("x", [1, 3, 8, 80])], []), "legal", "-")

    # --- indices and axes ---------------------------------------------------------------------------
    one("gather_index_out_of_range", "Gather", "refuse", "index", [("x", [4, 3]), "idx"], [ints("idx", [1, 1000000])], axis=0)
    one("gather_axis_out_of_range", "Gather", "refuse", "axis", [("x", [4, 3]), "idx"], [ints("idx", [1])], axis=5)
    one("split_sizes_wrong_sum", "Split", "refuse", "split", [("x", [6, 2]), "sp"], [ints("sp", [2, 2])], outs=2, axis=0)
    # fuzz finding: split sizes whose sum overflows int64 (the validator once added unchecked)
    one("split_sizes_overflow", "Split", "refuse", "split", [("x", [6, 2]), "sp"], [ints("sp", [(1 << 62) + 1, (1 << 62) + 1, (1 << 62)])], outs=3, axis=0)
    one("split_ok", "Split", "legal", "-", [("x", [6, 2]), "sp"], [ints("sp", [2, 4])], outs=2, axis=0)
    one("concat_axis_out_of_range", "Concat", "refuse", "axis", [("x", [2, 3]), ("z", [2, 3])], axis=4)
    one("softmax_axis_out_of_range", "Softmax", "refuse", "axis", [("x", [2, 3])], axis=-7)
    one("transpose_bad_perm", "Transpose", "refuse", "perm", [("x", [2, 3, 4])], perm=[0, 0, 1])
    one("reducesum_axis_out_of_range", "ReduceMean", "refuse", "axes", [("x", [2, 3])], axes=[3])
    one("slice_step_zero", "Slice", "refuse", "step", [("x", [8]), "st", "en", "ax", "sp"],
        [ints("st", [0]), ints("en", [4]), ints("ax", [0]), ints("sp", [0])])
    one("reshape_incompatible", "Reshape", "refuse", "reshape", [("x", [2, 3]), "sh"], [ints("sh", [4, 2])])
    one("reshape_two_minus_one", "Reshape", "refuse", "-1", [("x", [2, 3]), "sh"], [ints("sh", [-1, -1])])
    # fuzz finding: a target whose product overflows int64 (the validator once multiplied unchecked)
    one("reshape_target_overflows", "Reshape", "refuse", "impossible", [("x", [2, 3]), "sh"], [ints("sh", [1 << 60, 76, 1])])
    one("reshape_ok", "Reshape", "legal", "-", [("x", [2, 3]), "sh"], [ints("sh", [3, -1])])

    # --- shape consistency ----------------------------------------------------------------------------
    one("matmul_inner_mismatch", "MatMul", "refuse", "matmul", [("x", [2, 3]), "wm"], [w("wm", [4, 5])])
    # Fuzz finding (fuzz_pipeline, SEGV in libonnx): inference of the MatMul fails, and libonnx's data
    # propagation for the Shape that reads its untyped output dereferenced a null type.
    mm = helper.make_node("MatMul", ["x", "wm"], ["y"], name="matmul")
    sh = helper.make_node("Shape", ["y"], ["s"], name="shape")
    save("shape_of_failed_inference", model([mm, sh], [vi("x", [2, 3])], [vi("s", None, TensorProto.INT64)],
                                            [w("wm", [4, 5])], opset=15), "refuse", "matmul")
    one("add_broadcast_mismatch", "Add", "refuse", "broadcast", [("x", [2, 3]), ("z", [4, 3])])
    one("gemm_mismatch", "Gemm", "refuse", "gemm", [("x", [2, 3]), "wg"], [w("wg", [4, 5])])
    one("batchnorm_channel_mismatch", "BatchNormalization", "refuse", "scale",
        [("x", [1, 3, 4, 4]), "s", "b", "m", "v"], [w("s", [5]), w("b", [3]), w("m", [3]), w("v", [3], 1.0)])
    one("conv_missing_weight", "Conv", "refuse", "input", [("x", [1, 3, 8, 8])])

    # --- sizes: overflow and allocation bombs ---------------------------------------------------------
    one("dims_near_2_pow_40", "Relu", "refuse", "element", [("x", [1 << 40, 1 << 24])])
    one("constant_of_shape_bomb", "ConstantOfShape", "refuse", "1 TiB", ["shp"], [ints("shp", [1 << 20, 1 << 20, 1 << 10])])
    one("expand_bomb", "Expand", "refuse", "1 TiB", [("x", [1]), "shp"], [ints("shp", [1 << 22, 1 << 22])])
    one("negative_dim", "Relu", "refuse", "x", [("x", [2, -3])])
    one("tile_negative_repeats", "Tile", "refuse", "repeats", [("x", [2, 3]), "rep"], [ints("rep", [1, -2])])

    # --- control flow ----------------------------------------------------------------------------------
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going"),
         helper.make_node("Add", ["v_in", "one"], ["v_out"], name="inc")],
        "forever", [vi("i", [], TensorProto.INT64), vi("cond_in", [], TensorProto.BOOL), vi("v_in", [1])],
        [vi("cond_out", [], TensorProto.BOOL), vi("v_out", [1])], [w("one", [1], 1.0)])
    loop = helper.make_node("Loop", ["", "c", "x"], ["y"], name="loop_forever", body=body)
    save("loop_never_ends", model([loop], [vi("x", [1])], [vi("y", [1])],
                                  [numpy_helper.from_array(np.array(True), "c")]), "runfail", "iteration")

    # --- attribute types --------------------------------------------------------------------------------
    one("leakyrelu_alpha_as_string", "LeakyRelu", "refuse", "alpha", [("x", [2, 3])], alpha="0.1")
    one("relu_ok", "Relu", "legal", "-", [("x", [2, 3])])

    with open(os.path.join(OUT, "EXPECT.tsv"), "w") as f:
        f.write("# name\tkind\texpected text (made by scripts/make_bad_models.py)\n")
        for name, kind, expect in CASES:
            f.write(f"{name}\t{kind}\t{expect}\n")
    print(f"{len(CASES)} cases in {OUT}")


if __name__ == "__main__":
    main()
