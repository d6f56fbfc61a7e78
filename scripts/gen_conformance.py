#!/usr/bin/python3
"""Generate the ONNX backend node-test cases (model.onnx + test_data_set_*/input_K.pb, output_K.pb)
from the Debian python3-onnx package into OUTDIR (a build folder, never the source tree).

Usage: gen_conformance.py OUTDIR [--force]

onnx 1.12's generators still use numpy aliases that numpy 1.24 removed (np.float, np.bool, ...);
they are restored in-process before the generators are imported. The data is written to a temporary
folder and renamed into place, so an interrupted run never leaves a half-written OUTDIR behind.
"""
import os
import shutil
import sys
import warnings


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    force = "--force" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(args[0])
    if os.path.isdir(os.path.join(out, "node")) and not force:
        print(f"gen_conformance: {out} exists, not regenerating (use --force)")
        return 0

    try:
        import numpy as np
        import onnx  # noqa: F401
    except ImportError as e:
        print(f"gen_conformance: {e}; install python3-onnx (skipping)", file=sys.stderr)
        return 77
    for alias, real in (("float", float), ("bool", bool), ("object", object), ("int", int),
                        ("complex", complex), ("str", str)):
        if alias not in np.__dict__:
            setattr(np, alias, real)
    warnings.simplefilter("ignore")

    from onnx.backend.test import cmd_tools

    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    sys.argv = ["backend-test-tools", "generate-data", "-o", tmp]
    cmd_tools.main()
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    n = len(os.listdir(os.path.join(out, "node")))
    print(f"gen_conformance: wrote {n} node cases into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
