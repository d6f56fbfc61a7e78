#!/usr/bin/env bash
# ONNX Runtime pass over differential cases: ORT(fused export) == ORT(original) on the same inputs.
#   bench/differential_ort.sh [K=200] [FIRST_SEED=1]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
K="${1:-200}"; FIRST="${2:-1}"
BIN="$ROOT/build/bin"; WORK="$ROOT/build/differential_ort"
rm -rf "$WORK"; mkdir -p "$WORK"
bash "$ROOT/scripts/ort_setup.sh" >/dev/null 2>&1 || { echo "ORT unavailable"; exit 77; }
"$BIN/bench_differential" "$K" "$FIRST" --export "$WORK" "$K" | tail -1
pass=0; fail=0
for d in "$WORK"/case_*/; do
  [ -f "$d/fused.onnx" ] || continue
  "$BIN/fwb" run "$d/original.onnx" --seed 3 --output-dir "$d/fwb" >/dev/null 2>&1 || { fail=$((fail+1)); echo "FAIL $d: fwb run"; continue; }
  mkdir -p "$d/in"; cp "$d"/fwb/input_*.pb "$d/in/"
  node "$ROOT/tools/ort/run_model.mjs" "$d/original.onnx" "$d/in" "$d/ref" --opt=disabled >/dev/null 2>&1 || { fail=$((fail+1)); echo "FAIL $d: ORT original"; continue; }
  node "$ROOT/tools/ort/run_model.mjs" "$d/fused.onnx" "$d/in" "$d/out" --opt=disabled >/dev/null 2>&1 || { fail=$((fail+1)); echo "FAIL $d: ORT fused"; continue; }
  if node "$ROOT/tools/ort/compare_outputs.mjs" "$d/ref" "$d/out" --rtol=1e-3 --atol=1e-5 >/dev/null 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $d: outputs differ"; fi
done
echo "differential ORT: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
