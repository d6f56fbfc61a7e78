#!/usr/bin/env python3
"""Counts the nodes of ONNX models (every node, any domain, com.microsoft fused ops included).

    ort_count_nodes.py MODEL.onnx [...]     prints per model: main=N total=N ms=N  PATH
main: nodes of the main graph; total: plus the nodes inside If/Loop/Scan bodies (recursively);
model-local function bodies are not counted (a call is one node); ms: nodes of domain com.microsoft.
"""
import sys

import onnx


def walk(g):
    n = 0
    ms = 0
    for node in g.node:
        n += 1
        ms += node.domain == "com.microsoft"
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                sn, sms = walk(a.g)
                n += sn
                ms += sms
            elif a.type == onnx.AttributeProto.GRAPHS:
                for sg in a.graphs:
                    sn, sms = walk(sg)
                    n += sn
                    ms += sms
    return n, ms


for p in sys.argv[1:]:
    m = onnx.load(p, load_external_data=False)
    total, ms = walk(m.graph)
    print(f"main={len(m.graph.node)} total={total} ms={ms} {p}")
