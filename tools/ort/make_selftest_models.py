#!/usr/bin/env python3
"""Write small synthetic models + backend-test-style data for checking run_model.mjs.

    python3 make_selftest_models.py OUT_DIR

OUT_DIR/local_function/   model whose fused nodes are model-local functions in
                          domain 'fwb.fused' (one with an attribute reference)
OUT_DIR/dtypes/           float16 / int32 / int64 / bool inputs and outputs; the
                          data files mix raw_data and typed *_data fields
Each has model.onnx and test_data_set_0/{input,output}_K.pb; expected outputs are
computed with numpy.  These models are hand-made, not converter exports.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save_pb(path, tensor):
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


def typed(name, arr):
    """TensorProto using the typed *_data fields instead of raw_data."""
    dt = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[arr.dtype]
    t = helper.make_tensor(name, dt, arr.shape, [0] * arr.size, raw=False)
    if arr.dtype == np.float16:  # int32_data holds the fp16 bit patterns
        del t.int32_data[:]
        t.int32_data.extend(arr.view(np.uint16).flatten().tolist())
    else:
        field = onnx.mapping.STORAGE_TENSOR_TYPE_TO_FIELD[onnx.mapping.TENSOR_TYPE_TO_STORAGE_TENSOR_TYPE[dt]]
        getattr(t, field)[:] = []
        getattr(t, field).extend(arr.flatten().tolist())
    assert np.array_equal(numpy_helper.to_array(t), arr)
    return t


def write_case(root, name, model, inputs, outputs, typed_inputs=(), typed_outputs=()):
    d = os.path.join(root, name)
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds, exist_ok=True)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, (n, a) in enumerate(inputs):
        save_pb(os.path.join(ds, f"input_{k}.pb"),
                typed(n, a) if k in typed_inputs else numpy_helper.from_array(a, n))
    for k, (n, a) in enumerate(outputs):
        save_pb(os.path.join(ds, f"output_{k}.pb"),
                typed(n, a) if k in typed_outputs else numpy_helper.from_array(a, n))


def local_function_case(root):
    dom = "fwb.fused"
    add_relu = helper.make_function(
        dom, "AddRelu", ["X", "B"], ["Y"],
        [helper.make_node("Add", ["X", "B"], ["S"]), helper.make_node("Relu", ["S"], ["Y"])],
        [helper.make_opsetid("", 17)])
    # attribute reference: alpha is supplied by the calling node
    alpha_const = helper.make_node("Constant", [], ["A"])
    alpha_const.attribute.append(onnx.AttributeProto(name="value_float", ref_attr_name="alpha",
                                                     type=onnx.AttributeProto.FLOAT))
    scale_tanh = helper.make_function(
        dom, "ScaleTanh", ["X"], ["Y"],
        [alpha_const, helper.make_node("Mul", ["X", "A"], ["M"]), helper.make_node("Tanh", ["M"], ["Y"])],
        [helper.make_opsetid("", 17)], attributes=["alpha"])
    nodes = [
        helper.make_node("AddRelu", ["x", "b"], ["h"], domain=dom, name="fused_0"),
        helper.make_node("ScaleTanh", ["h"], ["y"], domain=dom, name="fused_1", alpha=0.5),
    ]
    g = helper.make_graph(nodes, "local_function",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
                           helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(dom, 1)],
                          functions=[add_relu, scale_tanh], producer_name="fwb-selftest")
    m.ir_version = 8
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    y = np.tanh(np.maximum(x + b, 0) * np.float32(0.5)).astype(np.float32)
    write_case(root, "local_function", m, [("x", x), ("b", b)], [("y", y)], typed_inputs=(1,))


def dtypes_case(root):
    nodes = [
        # NB: ORT's CPU EP runs fp16 Add in fp32 and drops a Cast(fp32->fp16)->Cast(fp16->fp32)
        # pair even with optimizations disabled, so Add(Cast(xf), bias16) is NOT rounded like
        # numpy.  Keep the fp16 arithmetic on fp16 inputs and test the Cast separately.
        helper.make_node("Cast", ["xf"], ["c16"], to=TensorProto.FLOAT16),
        helper.make_node("Add", ["bias16", "bias16"], ["y16"]),
        helper.make_node("ArgMax", ["xf"], ["idx"], axis=1, keepdims=0),
        helper.make_node("Cast", ["i32"], ["i32f"], to=TensorProto.FLOAT),
        helper.make_node("Greater", ["xf", "i32f"], ["gt"]),
        helper.make_node("Mul", ["i32", "i32"], ["sq"]),
        helper.make_node("Not", ["flag"], ["nflag"]),
    ]
    g = helper.make_graph(nodes, "dtypes",
                          [helper.make_tensor_value_info("xf", TensorProto.FLOAT, [2, 4]),
                           helper.make_tensor_value_info("bias16", TensorProto.FLOAT16, [4]),
                           helper.make_tensor_value_info("i32", TensorProto.INT32, [2, 4]),
                           helper.make_tensor_value_info("flag", TensorProto.BOOL, [3])],
                          [helper.make_tensor_value_info("c16", TensorProto.FLOAT16, [2, 4]),
                           helper.make_tensor_value_info("y16", TensorProto.FLOAT16, [4]),
                           helper.make_tensor_value_info("idx", TensorProto.INT64, [2]),
                           helper.make_tensor_value_info("gt", TensorProto.BOOL, [2, 4]),
                           helper.make_tensor_value_info("sq", TensorProto.INT32, [2, 4]),
                           helper.make_tensor_value_info("nflag", TensorProto.BOOL, [3])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="fwb-selftest")
    m.ir_version = 8
    rng = np.random.default_rng(1)
    xf = (rng.standard_normal((2, 4)) * 3).astype(np.float32)
    bias16 = np.array([0.5, -1.25, 2.0, 1e-3], dtype=np.float16)
    i32 = rng.integers(-3, 4, (2, 4)).astype(np.int32)
    flag = np.array([True, False, True])
    outs = [("c16", xf.astype(np.float16)),
            ("y16", (bias16 + bias16).astype(np.float16)),
            ("idx", np.argmax(xf, axis=1).astype(np.int64)),
            ("gt", xf > i32.astype(np.float32)),
            ("sq", (i32 * i32).astype(np.int32)),
            ("nflag", ~flag)]
    write_case(root, "dtypes", m, [("xf", xf), ("bias16", bias16), ("i32", i32), ("flag", flag)], outs,
               typed_inputs=(1, 3), typed_outputs=(1, 2, 4))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    local_function_case(sys.argv[1])
    dtypes_case(sys.argv[1])
