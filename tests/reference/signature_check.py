#!/usr/bin/python3
"""The fused export keeps the model's contract (issue 21).

For every real-world model whose graph inputs have symbolic dims:
  1. `fwb fuse MODEL -O2 -o fused.onnx` (the default export);
  2. ONNX Runtime reads the same input/output signature from both files: names, element types and
     dims, symbolic dims included;
  3. at two bindings of the symbolic dims (fwb's default binding, and a second one where every open
     dim grows: below 32 it doubles, from 32 it grows by 32, which keeps the strides of image models
     lined up), ORT's outputs of the fused file equal ORT's outputs of the original (rtol 1e-3,
     atol 1e-5). The inputs are written by `fwb run --output-dir` (seeded).

Usage: signature_check.py FWB MODELS_DIR ORT_DIR WORK_DIR
Exit 0 all hold, 1 a check failed, 77 ORT or the models are missing (ctest SKIP).
"""
import json
import os
import re
import shutil
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def ort_info(node, ort_dir, model):
    r = run([node, os.path.join(ort_dir, "run_model.mjs"), "--info", model])
    if r.returncode != 0:
        raise RuntimeError(f"ORT cannot read {model}: {r.stdout.strip()}")
    j = json.loads(r.stdout)
    return j["inputs"], j["outputs"]


def second_value(v):
    return v * 2 if v < 32 else v + 32


def main():
    global onnx
    try:
        import onnx
    except ImportError:
        print("signature_check: python3-onnx missing; skipping")
        return 77
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    fwb, models, ort_dir, work = sys.argv[1:]
    node = shutil.which("node")
    if not node or not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        print("signature_check: ORT unavailable (run scripts/ort_setup.sh); skipping")
        return 77
    if not os.path.isdir(models) or not os.listdir(models):
        print(f"signature_check: no models in {models}; skipping")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    checked, failed = 0, []
    for name in sorted(os.listdir(models)):
        if not name.endswith(".onnx"):
            continue
        model = os.path.join(models, name)
        ins, outs = ort_info(node, ort_dir, model)
        if not any(isinstance(d, str) for i in ins for d in (i.get("shape") or [])):
            continue
        base = os.path.join(work, name[:-5])
        os.makedirs(base)
        fused = os.path.join(base, "fused.onnx")
        r = run([fwb, "fuse", model, "-O", "2", "-o", fused])
        if r.returncode != 0:
            failed.append(f"{name}: fwb fuse failed: {r.stdout.strip()[-400:]}")
            continue
        fins, fouts = ort_info(node, ort_dir, fused)
        if (ins, outs) != (fins, fouts):
            failed.append(f"{name}: signature differs:\n  original {json.dumps([ins, outs])}\n  fused    {json.dumps([fins, fouts])}")
            continue
        # Binding A: fwb's default (fwb run binds and writes the inputs it made).
        bindings = []
        dir_a = os.path.join(base, "in_a")
        r = run([fwb, "run", model, "--output-dir", dir_a])
        if r.returncode != 0:
            failed.append(f"{name}: fwb run (default binding) failed: {r.stdout.strip()[-400:]}")
            continue
        m = re.search(r"bound by default (.*?) — ", r.stdout)
        bindings.append(("default" + (f" ({m.group(1).strip()})" if m else ""), dir_a))
        # Binding B: every open dim grows; dims read back from the inputs fwb wrote for A.
        shapes = []
        for k, i in enumerate(ins):
            t = onnx.TensorProto()
            with open(os.path.join(dir_a, f"input_{k}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            dims_a = list(t.dims)
            if not any(isinstance(d, str) for d in i["shape"]):
                continue
            dims_b = [second_value(v) if isinstance(d, str) else v for d, v in zip(i["shape"], dims_a)]
            shapes.append(f"{i['name']}={','.join(map(str, dims_b))}")
        dir_b = os.path.join(base, "in_b")
        cmd = [fwb, "run", model, "--output-dir", dir_b]
        for s in shapes:
            cmd += ["--input-shape", s]
        r = run(cmd)
        if r.returncode != 0:
            print(f"{name}: the original does not run at {' '.join(shapes)} (fwb run: {r.stdout.strip()[-200:]}); "
                  "checked at the default binding only")
        else:
            bindings.append((" ".join(shapes), dir_b))
        for label, d in bindings:
            for f in os.listdir(d):
                if f.startswith("output_"):
                    os.remove(os.path.join(d, f))
            o1, o2 = d + "_orig", d + "_fused"
            # ORT's graph optimisations off on both: with them, ORT rewrites QDQ pairs of the original
            # into QLinear kernels (other rounding) but not inside the fused file's functions.
            r1 = run([node, os.path.join(ort_dir, "run_model.mjs"), model, d, o1, "--opt=disabled"])
            r2 = run([node, os.path.join(ort_dir, "run_model.mjs"), fused, d, o2, "--opt=disabled"])
            if r1.returncode != 0:
                print(f"{name} at {label}: ORT cannot run the original ({r1.stdout.strip()[-200:]}); not compared")
                continue
            if r2.returncode != 0:
                failed.append(f"{name} at {label}: ORT cannot run the fused export: {r2.stdout.strip()[-400:]}")
                continue
            c = run([node, os.path.join(ort_dir, "compare_outputs.mjs"), o1, o2, "--rtol=1e-3", "--atol=1e-5"])
            if c.returncode != 0:
                failed.append(f"{name} at {label}: outputs differ: {c.stdout.strip()[-400:]}")
                continue
            print(f"ok {name} at {label}")
        checked += 1
    print(f"signature_check: {checked} model(s) with symbolic dims checked, {len(failed)} failure(s)")
    for f in failed:
        print("FAIL " + f)
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
