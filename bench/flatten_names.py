#!/usr/bin/env python3
"""Renames every node of an ONNX model so its names carry no scope: `--style plain` gives n<k>_<op>,
`--style layer` keeps the layer number as a prefix (l17_matmul_3), as many exporters do. Used by the
big-graph benchmark to exercise structure-based grouping; the graph itself is unchanged.

    flatten_names.py IN.onnx OUT.onnx [--style plain|layer]
"""
import re
import sys

import onnx


def main():
    src, dst = sys.argv[1], sys.argv[2]
    style = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--style" else "plain"
    m = onnx.load(src)
    count = {}
    for k, n in enumerate(m.graph.node):
        op = n.op_type.lower()
        if style == "layer":
            layer = re.search(r"(?:layer|layers|block|blocks|h)[./_]?(\d+)", n.name)
            prefix = f"l{layer.group(1)}_" if layer else ""
            key = prefix + op
            count[key] = count.get(key, 0) + 1
            n.name = f"{key}_{count[key]}"
        else:
            n.name = f"n{k}_{op}"
    onnx.save(m, dst)


if __name__ == "__main__":
    main()
