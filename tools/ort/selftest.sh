#!/usr/bin/env bash
# Check run_model.mjs against known outputs: onnx's single_relu example, the synthetic
# local-function and dtype models (make_selftest_models.py) and, when given, a directory of
# ONNX backend node tests (backend-test-tools generate-data layout: NODEDIR/test_*/).
#   tools/ort/selftest.sh [NODEDIR]
# Prints "N passed, N failed"; exits 1 when something failed, 77 when ORT is not installed.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="${FW_PYTHON:-/usr/bin/python3}"; [[ -x "$PY" ]] || PY=python3
[[ -d "$HERE/node_modules/onnxruntime-node" ]] || { echo "ORT unavailable: run scripts/ort_setup.sh"; exit 77; }
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
pass=0; fail=0
check() { # name model datadir
  local out="$WORK/out/$1"
  if node "$HERE/run_model.mjs" "$2" "$3" "$out" && node "$HERE/compare_outputs.mjs" "$3" "$out"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL $1"
  fi
}
# single_relu: inputs/expected made here with numpy
relu="$("$PY" -c 'import onnx,os;print(os.path.join(os.path.dirname(onnx.__file__),"examples/resources/single_relu.onnx"))')"
"$PY" - "$WORK/relu" <<'PYEOF'
import os, sys, numpy as np
from onnx import numpy_helper
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
x = np.array([[-1.5, 2.25]], dtype=np.float32)
open(os.path.join(d, "input_0.pb"), "wb").write(numpy_helper.from_array(x, "x").SerializeToString())
open(os.path.join(d, "output_0.pb"), "wb").write(numpy_helper.from_array(np.maximum(x, 0), "y").SerializeToString())
PYEOF
check single_relu "$relu" "$WORK/relu"
"$PY" "$HERE/make_selftest_models.py" "$WORK/st"
for c in local_function dtypes; do check "$c" "$WORK/st/$c/model.onnx" "$WORK/st/$c/test_data_set_0"; done
if [[ $# -ge 1 ]]; then
  for d in "$1"/test_*/; do
    n="$(basename "$d")"
    for ds in "$d"test_data_set_*/; do check "$n/$(basename "$ds")" "$d/model.onnx" "$ds"; done
  done
fi
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
