#!/usr/bin/env python3
"""onnx.checker.check_model(full_check=True) on each file; prints "ok PATH" or "FAIL PATH: why".
Exit 1 when any file fails."""
import sys

import onnx

bad = 0
for p in sys.argv[1:]:
    try:
        onnx.checker.check_model(onnx.load(p), full_check=True)
        print(f"ok {p}")
    except Exception as e:  # noqa: BLE001 - report every checker/shape-inference error
        bad += 1
        print(f"FAIL {p}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
sys.exit(1 if bad else 0)
