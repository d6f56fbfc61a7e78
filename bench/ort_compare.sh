#!/usr/bin/env bash
# Node counts: original model vs ONNX Runtime's "extended" graph optimisation vs our -O2 kernels, and
# whether the results stay equal. Writes a Markdown table (default bench/ort_comparison.md).
#
#   bench/ort_compare.sh [OUT.md]
#   env: FWB (default build/bin/fwb), RW (real-world cache, default build/realworld), WORK (scratch dir)
#
# Per model:
#   orig   nodes of the model as given (main graph / incl. If-Loop-Scan bodies)
#   ORT    nodes of the graph ORT saves after --opt=extended (sessionOptions.optimizedModelFilePath;
#          every node counted, com.microsoft fused ops included; "ms" = how many of those)
#   fwb    kernels of `fwb fuse -O 2` (main graph / incl. the kernels of fused subgraph bodies)
#   eq     ORT(extended) == ORT(disabled) on the original, and ORT(disabled) on our fused export ==
#          ORT(disabled) on the original, same seeded inputs, rtol 1e-3 atol 1e-5
# Needs node + tools/ort (scripts/ort_setup.sh) and python3 with onnx; real-world models come from
# scripts/fetch_realworld.sh.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench/ort_comparison.md}"
FWB="${FWB:-$ROOT/build/bin/fwb}"
RW="${RW:-$ROOT/build/realworld}"
WORK="${WORK:-$(mktemp -d /tmp/ort_compare.XXXXXX)}"
PY=/usr/bin/python3
RUN="$ROOT/tools/ort/run_model.mjs"
CMP="$ROOT/tools/ort/compare_outputs.mjs"
mkdir -p "$WORK"
command -v node >/dev/null && [ -d "$ROOT/tools/ort/node_modules/onnxruntime-node" ] || { echo "ORT unavailable (scripts/ort_setup.sh)"; exit 77; }
"$PY" -c "import onnx" 2>/dev/null || { echo "python3-onnx unavailable"; exit 77; }

count() { "$PY" "$ROOT/scripts/ort_count_nodes.py" "$1" | awk '{print $1" "$2" "$3}'; }  # main=N total=N ms=N
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# "yes", or "no (3/1000 elements differ, max abs err 2.9e-05)"
same() {
  local out
  if out=$(node "$CMP" "$1" "$2" --rtol=1e-3 --atol=1e-5 2>&1); then echo yes; return; fi
  echo "no ($(echo "$out" | grep -m1 'elements differ' | sed -E 's/.*: ([0-9]+\/[0-9]+ elements differ).*max abs err ([0-9.e+-]+).*/\1, max abs err \2/'))"
}

rows=()
# compare NAME MODEL.onnx INPUT_DIR [fwb shape switches...]
compare() {
  local name="$1" model="$2" in="$3"; shift 3
  local d="$WORK/$name"; rm -rf "$d"; mkdir -p "$d"
  local c0 c1 k ksub eq_ort eq_fwb
  c0=$(count "$model")
  if node "$RUN" "$model" --save-optimized="$d/ort_ext.onnx" --opt=extended >"$d/ort_save.log" 2>&1; then
    c1=$(count "$d/ort_ext.onnx")
  else
    c1="main=? total=? ms=?"
  fi
  node "$RUN" "$model" "$in" "$d/ref" --opt=disabled >"$d/ref.log" 2>&1 || echo "$name: ORT failed on the original: $(tail -1 "$d/ref.log")" >&2
  node "$RUN" "$model" "$in" "$d/ext" --opt=extended >"$d/ext.log" 2>&1
  eq_ort=$(same "$d/ref" "$d/ext")
  if "$FWB" fuse "$model" "$@" -O 2 -o "$d/fused_O2.onnx" --report "$d/report.json" >"$d/fuse.log" 2>&1; then
    k=$("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["kernels_after"], j["kernels_after"]+j.get("subgraph_kernels_after",0))' "$d/report.json")
    node "$RUN" "$d/fused_O2.onnx" "$in" "$d/fused" --opt=disabled >"$d/fused.log" 2>&1
    eq_fwb=$(same "$d/ref" "$d/fused")
  else
    k="fail fail"; eq_fwb="fuse failed: $(tail -1 "$d/fuse.log")"
  fi
  local om ot em et ems km kt
  om=$(field "$c0" main); ot=$(field "$c0" total); em=$(field "$c1" main); et=$(field "$c1" total); ems=$(field "$c1" ms)
  km=${k%% *}; kt=${k##* }
  fmt() { [ "$1" = "$2" ] && echo "$1" || echo "$1 / $2"; }
  rows+=("| $name | $(fmt "$om" "$ot") | $(fmt "$em" "$et") | $ems | $(fmt "$km" "$kt") | $eq_ort | $eq_fwb |")
  echo "${rows[-1]}" >&2
  rm -f "$d"/*.onnx
}

# --- zoo models (small parameters, as in the zoo-fused-ort ctest) ---
ZOO=("resnet50|--image 112" "mobilenetv2|--image 112" "bert|--layers 2 --seq 32"
     "yolov5s|--image 160" "deeplabv3plus|--image 128" "lstm|--seq 4")
for spec in "${ZOO[@]}"; do
  m="${spec%%|*}"; read -r -a zargs <<<"${spec#*|}"
  d="$WORK/zoo_$m"; mkdir -p "$d"
  "$FWB" zoo export "$m" "${zargs[@]}" -o "$d/$m.onnx" >/dev/null 2>&1 || { echo "zoo export $m failed" >&2; continue; }
  "$FWB" run "$d/$m.onnx" --seed 1 --output-dir "$d/run" >/dev/null 2>&1 || { echo "fwb run $m failed" >&2; continue; }
  mkdir -p "$d/in"; cp "$d"/run/input_*.pb "$d/in/"
  compare "zoo:$m (${spec#*|})" "$d/$m.onnx" "$d/in"
  rm -f "$d/$m.onnx"
done

# --- real-world models (tests/data/realworld/MANIFEST.txt) ---
declare -A SHAPE=(
  [ch_ppocr_mobile_v2.0_cls_infer]="x=1,3,48,192" [ch_PP-OCRv4_det_infer]="x=1,3,64,64"
  [ch_PP-OCRv4_rec_infer]="x=1,3,48,160" [oww_embedding_model]="input_1=1,76,32,1"
  [oww_melspectrogram]="input=1,1280" [oww_hey_jarvis_v0.1]="x.1=1,16,96")
# The VAD models keep their symbolic input: with a static [1,512] input ORT's shape inference reaches the
# untaken 8 kHz branch through the fwb.fused calls and rejects a Squeeze there (load error).
if ls "$RW"/models/*.onnx >/dev/null 2>&1; then
  "$PY" "$ROOT/tools/ort/make_realworld_inputs.py" "$RW/models" "$WORK/rw_inputs" >/dev/null 2>&1
  for n in ch_ppocr_mobile_v2.0_cls_infer ch_PP-OCRv4_det_infer ch_PP-OCRv4_rec_infer oww_embedding_model \
           oww_melspectrogram oww_hey_jarvis_v0.1 silero_vad_legacy silero_vad_v5 silero_vad_16k_op15 silero_vad_op18_ifless; do
    [ -f "$RW/models/$n.onnx" ] || continue
    shp=()
    [ -n "${SHAPE[$n]:-}" ] && shp=(--input-shape "${SHAPE[$n]}")
    compare "$n" "$RW/models/$n.onnx" "$WORK/rw_inputs/$n" "${shp[@]}"
  done
else
  echo "real-world models missing: bash scripts/fetch_realworld.sh $RW" >&2
fi

ORTV=$(node -e "console.log(require('$ROOT/tools/ort/node_modules/onnxruntime-node/package.json').version)" 2>/dev/null)
{
  echo "# Node counts: original vs ONNX Runtime extended vs fwb -O2"
  echo
  echo "Measured by \`bench/ort_compare.sh\` (onnxruntime-node $ORTV, CPU EP; $(date -u +%Y-%m-%d))."
  echo "Regenerate: \`FWB=build/bin/fwb RW=build/realworld bash bench/ort_compare.sh bench/ort_comparison.md\`."
  echo
  echo "- **orig**: nodes of the model (main graph / including the nodes of If-Loop-Scan bodies)."
  echo "- **ORT ext**: nodes of the graph ONNX Runtime saves after \`--opt=extended\`"
  echo "  (\`node tools/ort/run_model.mjs M.onnx --save-optimized=OUT.onnx --opt=extended\`); every node counted,"
  echo "  **ms** = how many are com.microsoft fused ops (FusedConv, FusedGemm, Attention, SkipLayerNormalization, ...)."
  echo "- **fwb -O2**: kernels of \`fwb fuse M -O 2 -o F.onnx --report R.json\` (\`kernels_after\` / plus"
  echo "  \`subgraph_kernels_after\`: the kernels of the fused If/Loop/Scan bodies)."
  echo "- **ext == orig**: ORT extended vs ORT disabled on the original; **fwb == orig**: ORT (disabled) on our"
  echo "  fused export vs ORT (disabled) on the original; same seeded inputs, rtol 1e-3, atol 1e-5."
  echo "- Zoo inputs: \`fwb run M --seed 1 --output-dir D\`; real-world inputs: \`tools/ort/make_realworld_inputs.py\`."
  echo "  fwb fuse gets the real-world CNN input shapes with \`--input-shape\` (the shapes of those inputs); the"
  echo "  VAD models keep their symbolic input (see the script)."
  echo "- The original counts include Constant nodes (fwb imports them as initializers; ORT folds them too)."
  echo
  echo "| model | orig | ORT ext | ms | fwb -O2 | ext == orig | fwb == orig |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$OUT"
echo "wrote $OUT" >&2
