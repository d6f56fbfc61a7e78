#!/usr/bin/env bash
# Checks against outside references (onnx.checker / strict shape inference from python3-onnx, and
# ONNX Runtime from tools/ort). Used by ctest; exits 77 (skipped) when a reference is unavailable.
#
#   reference_check.sh zoo-checker  FWB WORKDIR        every zoo export passes checker + strict inference
#   reference_check.sh zoo-ort      FWB WORKDIR        fwb run == ORT on every zoo model (rtol 1e-3)
#   reference_check.sh realworld    FWB WORKDIR CACHE  fwb info reads every real-world model; fwb run == ORT
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode="$1"; FWB="$2"; WORK="$3"; CACHE="${4:-}"
PY=/usr/bin/python3
mkdir -p "$WORK"
pass=0; fail=0
ok()   { pass=$((pass+1)); printf 'PASS %s\n' "$*"; }
bad()  { fail=$((fail+1)); printf 'FAIL %s\n' "$*"; }
finish() { printf '%d passed, %d failed\n' "$pass" "$fail"; [ "$fail" -eq 0 ]; exit $?; }

ZOO_MODELS=(resnet50 mobilenetv2 bert yolov5s deeplabv3plus lstm)
ort_ready() {
  command -v node >/dev/null 2>&1 && [ -d "$ROOT/tools/ort/node_modules/onnxruntime-node" ]
}
# Runs MODEL with fwb (seeded inputs saved next to outputs), then ORT on the same inputs; compares.
vs_ort() {
  local model="$1" name="$2"; shift 2
  local d="$WORK/$name"
  rm -rf "$d"; mkdir -p "$d/fwb" "$d/ort"
  if ! "$FWB" run "$model" --output-dir "$d/fwb" "$@" >"$d/fwb.log" 2>&1; then
    bad "$name: fwb run failed: $(tail -1 "$d/fwb.log")"; return
  fi
  mkdir -p "$d/in"
  if [ "${1:-}" = "--input-dir" ]; then cp "$2"/input_*.pb "$d/in/"; else cp "$d"/fwb/input_*.pb "$d/in/"; fi
  if ! node "$ROOT/tools/ort/run_model.mjs" "$model" "$d/in" "$d/ort" >"$d/ort.log" 2>&1; then
    bad "$name: ORT failed: $(tail -1 "$d/ort.log")"; return
  fi
  mkdir -p "$d/expected"; cp "$d"/fwb/output_*.pb "$d/expected/"
  if node "$ROOT/tools/ort/compare_outputs.mjs" "$d/ort" "$d/expected" --rtol=1e-3 --atol=1e-5 >"$d/cmp.log" 2>&1; then
    ok "$name (fwb == ORT within rtol 1e-3)"
  else
    bad "$name: outputs differ: $(tail -3 "$d/cmp.log" | tr '\n' ' ')"
  fi
}

case "$mode" in
  zoo-checker)
    [ -x "$PY" ] && "$PY" -c "import onnx" 2>/dev/null || { echo "python3-onnx unavailable: skipped"; exit 77; }
    for m in "${ZOO_MODELS[@]}"; do
      if "$FWB" zoo export "$m" -o "$WORK/$m.onnx" >/dev/null 2>"$WORK/$m.log"; then :; else bad "$m: export failed: $(cat "$WORK/$m.log")"; continue; fi
      if out=$("$PY" "$ROOT/scripts/check_zoo.py" "$WORK/$m.onnx" 2>&1); then ok "$m: $out"; else bad "$m: $out"; fi
    done
    finish ;;
  zoo-ort)
    ort_ready || { echo "ORT unavailable (scripts/ort_setup.sh): skipped"; exit 77; }
    for m in "${ZOO_MODELS[@]}"; do
      "$FWB" zoo export "$m" -o "$WORK/$m.onnx" >/dev/null 2>&1 || { bad "$m: export failed"; continue; }
      vs_ort "$WORK/$m.onnx" "$m"
    done
    finish ;;
  realworld)
    [ -n "$CACHE" ] && [ -d "$CACHE/models" ] && ls "$CACHE"/models/*.onnx >/dev/null 2>&1 || { echo "real-world models unavailable (scripts/fetch_realworld.sh): skipped"; exit 77; }
    for f in "$CACHE"/models/*.onnx; do
      n=$(basename "$f" .onnx)
      if "$FWB" info "$f" >"$WORK/$n.info" 2>&1; then ok "$n: fwb info"; else bad "$n: fwb info: $(tail -1 "$WORK/$n.info")"; fi
    done
    if ort_ready && [ -x "$PY" ]; then
      # Seeded inputs with the shapes the manifest documents (sr=16000 for the VAD models).
      "$PY" "$ROOT/tools/ort/make_realworld_inputs.py" "$CACHE/models" "$WORK/inputs" >/dev/null 2>&1 ||
        bad "make_realworld_inputs.py failed"
      for dir in "$WORK"/inputs/*/; do
        n=$(basename "$dir")
        vs_ort "$CACHE/models/$n.onnx" "rw_$n" --input-dir "$dir"
      done
    fi
    finish ;;
  *) echo "usage: $0 zoo-checker|zoo-ort|realworld FWB WORKDIR [CACHE]"; exit 2 ;;
esac
