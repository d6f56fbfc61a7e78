#!/usr/bin/env python3
"""Kernel shape of a fused export (fwb fuse -o): every top-level node is one kernel, a fwb.fused node's
function body is what the kernel holds. A kernel holds at most one cube op, except an attention kernel
(two products around a Softmax). With MAX_RATIO, kernels / cube ops must not exceed it (a kernel holds at
most one cube op, so the cube op count is the floor).

    check_kernels.py FUSED.onnx [MAX_RATIO]
"""
import sys

import onnx

CUBE = {"Conv", "ConvTranspose", "MatMul", "Gemm", "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger"}


def main():
    m = onnx.load(sys.argv[1])
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else None
    funcs = {(f.domain, f.name): f for f in m.functions}
    kernels = cubes = 0
    bad = []
    for n in m.graph.node:
        kernels += 1
        f = funcs.get((n.domain, n.op_type))
        ops = [x.op_type for x in f.node] if f else [n.op_type]
        c = sum(o in CUBE for o in ops)
        cubes += c
        if c > 2 or (c == 2 and "Softmax" not in ops):
            bad.append(f"{n.name}: {c} cube ops ({'+'.join(ops)})")
    ratio = kernels / cubes if cubes else float("inf")
    print(f"{kernels} kernels, {cubes} cube ops, {ratio:.2f} kernels per cube op" + (f" (limit {limit})" if limit else ""))
    for b in bad:
        print("two cube ops outside attention:", b)
    if bad or (limit is not None and cubes and ratio > limit + 1e-9):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
