#!/usr/bin/python3
"""Validate exported models with the onnx reference tooling.

Usage: check_zoo.py DIR_OR_FILE [...]

For every .onnx file (folders are searched non-recursively) runs onnx.checker.check_model(full_check=True)
and onnx.shape_inference.infer_shapes(strict_mode=True), then verifies that every node output got a tensor
type with a fully static shape. Prints one OK/FAIL line per file; exits 1 if any file fails, 2 on usage errors.
"""
import os
import sys

import onnx
import onnx.checker
import onnx.shape_inference


def static_shape(vi):
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        return False
    return all(d.HasField("dim_value") for d in t.shape.dim)


def check(path):
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    known = {vi.name: vi for vi in list(inferred.graph.value_info) + list(inferred.graph.output)
             + list(inferred.graph.input)}
    missing = []
    for node in inferred.graph.node:
        for out in node.output:
            if out and (out not in known or not static_shape(known[out])):
                missing.append(out)
    if missing:
        raise ValueError("%d values without a static inferred shape, e.g. %s" % (len(missing), missing[:3]))
    return "%d nodes, %d initializers, opset %s, ir %d" % (
        len(model.graph.node), len(model.graph.initializer),
        ",".join("%s:%d" % (o.domain or "ai.onnx", o.version) for o in model.opset_import), model.ir_version)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    files = []
    for arg in argv[1:]:
        if os.path.isdir(arg):
            files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".onnx"))
        elif os.path.isfile(arg):
            files.append(arg)
        else:
            print("no such file or folder: %s" % arg, file=sys.stderr)
            return 2
    if not files:
        print("no .onnx files found", file=sys.stderr)
        return 2
    failed = 0
    for f in files:
        try:
            print("OK   %s (%s)" % (f, check(f)))
        except Exception as e:  # noqa: BLE001 - any failure of the checker is a FAIL line
            failed += 1
            print("FAIL %s: %s" % (f, str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__))
    print("%d/%d passed" % (len(files) - failed, len(files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
