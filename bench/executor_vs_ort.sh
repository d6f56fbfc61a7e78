#!/usr/bin/env bash
# Wall time of our reference executor (`fwb run`) against ONNX Runtime (onnxruntime-node, CPU EP, its
# default graph optimisations `--opt=all`) on the same inputs, side by side. Prints Markdown to stdout
# (and writes it to OUT.md when given): one table of run times, one of `fwb verify` wall time.
#
#   bench/executor_vs_ort.sh [OUT.md]
#   env: FWB (default build/bin/fwb), RW (real-world cache, default build/realworld), WORK (scratch dir),
#        RUNS (timed runs per measurement, default 7), THREADS (default "1 2"),
#        MODELS (what to run, default "resnet50 bert det rec"; an entry zoo:NAME?k=v&... is exported as given,
#                e.g. MODELS='zoo:resnet50?image=64 zoo:bert?layers=2&seq=32' for a quick check; a path
#                ending in .onnx is run as it is, on the input shapes it declares),
#        DET_SHAPE (default x=1,3,640,640), REC_SHAPE (default x=1,3,48,320)
#
# Models: resnet50 = zoo ResNet-50 224x224 batch 1; bert = zoo BERT-base (12 layers, hidden 768, 12 heads,
# seq 128) batch 1; det = ch_PP-OCRv4_det_infer at x=1,3,640,640; rec = ch_PP-OCRv4_rec_infer at
# x=1,3,48,320 (PaddleOCR's rec_image_shape); det/rec only when present in $RW/models
# (scripts/fetch_realworld.sh).
#
# Method, per model:
#   inputs   `fwb run M [--input-shape ..] --seed 1 --output-dir D` once; D/input_K.pb is fed to both sides
#            (D/output_K.pb is also kept to check that the two runtimes agree, rtol 1e-3 atol 1e-4)
#   fwb      `fwb run M --input-dir D --repeat RUNS --stats-json J --threads T` (1 warm-up run, then RUNS
#            timed runs; median_ms, min_ms, peak_bytes = the process's max RSS)
#   ORT      `node tools/ort/run_model.mjs M D OUT --opt=all --threads=T --time=RUNS` (session creation and
#            1 warm-up run, then RUNS timed runs; median_s, min_s)
#   For threads T in 1 2, the pair (fwb, ORT) is timed in 2 rounds, interleaved so both see the same load
#   (round 1 fwb first, round 2 ORT first). Each side keeps its best median of the 2 rounds and its lowest
#   min; fwb peak RSS is the larger of the 2 rounds. The fwb binary is copied to WORK at the start, so a
#   rebuild running in parallel cannot swap it in the middle.
# Then `fwb verify det --input-shape x=1,3,640,640 -O 2 --threads 2` once, wall time and max RSS.
# Needs node + tools/ort (scripts/ort_setup.sh); exit 77 without them.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-}"
# the command line as given (env overrides included), for the report
CMDLINE=""
for v in FWB RW WORK RUNS MODELS DET_SHAPE REC_SHAPE; do [ -n "${!v+x}" ] && CMDLINE+="$v='${!v}' "; done
CMDLINE+="bash bench/executor_vs_ort.sh${1:+ $1}"
FWB="${FWB:-$ROOT/build/bin/fwb}"
RW="${RW:-$ROOT/build/realworld}"
WORK="${WORK:-$(mktemp -d /tmp/executor_vs_ort.XXXXXX)}"
RUNS="${RUNS:-7}"
MODELS="${MODELS:-resnet50 bert det rec}"
RUN="$ROOT/tools/ort/run_model.mjs"
CMP="$ROOT/tools/ort/compare_outputs.mjs"
DET_SHAPE="${DET_SHAPE:-x=1,3,640,640}"
REC_SHAPE="${REC_SHAPE:-x=1,3,48,320}"
read -r -a THREADS <<< "${THREADS:-1 2}"
ROUNDS=2
mkdir -p "$WORK"
command -v node >/dev/null && [ -d "$ROOT/tools/ort/node_modules/onnxruntime-node" ] || { echo "ORT unavailable (scripts/ort_setup.sh)"; exit 77; }
[ -x "$FWB" ] || { echo "no fwb binary at $FWB (build first, or set FWB)" >&2; exit 2; }

FWB_ORIG="$FWB"
FWB_MTIME=$(date -u -r "$FWB" '+%Y-%m-%d %H:%M UTC')
mkdir -p "$WORK/bin" && cp "$FWB" "$WORK/bin/fwb" && FWB="$WORK/bin/fwb"
ORTV=$(node -e "console.log(require('$ROOT/tools/ort/node_modules/onnxruntime-node/package.json').version)" 2>/dev/null)
HEAD=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
DIRTY=""
[ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && DIRTY=", working tree with uncommitted changes"
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
grep -qw avx512f /proc/cpuinfo && CPU+=" (AVX-512)"
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# other processes busy on the CPU (ps %CPU = average over each process's life), e.g. "fuzz_simulate 99%"
busy() { ps -eo pcpu=,comm= --sort=-pcpu | awk '$1 >= 30 { printf "%s%s %.0f%%", n++ ? ", " : "", $2, $1 }'; }
LOAD0=$(loadavg) BUSY0=$(busy)
DATE0=$(date -u '+%Y-%m-%d %H:%M UTC')

jkey() { node -e "const j=require(process.argv[1]); console.log(j[process.argv[2]])" "$1" "$2" 2>/dev/null; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }          # seconds -> ms
min2() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "") print a; else print (b < a ? b : a) }'; }
max2() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "") print a; else print (b > a ? b : a) }'; }

rows=() notes=()
# bench NAME MODEL.onnx [fwb shape switches...]
bench() {
  local name="$1" model="$2"; shift 2
  local d; d="$WORK/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_')"; rm -rf "$d"; mkdir -p "$d"
  echo "== $name" >&2
  if ! "$FWB" run "$model" "$@" --seed 1 --output-dir "$d/ref" >"$d/ref.log" 2>&1; then
    rows+=("| $name | | | fwb run failed: $(tail -1 "$d/ref.log") | | | | | |"); echo "${rows[-1]}" >&2; return
  fi
  mkdir -p "$d/in" && cp "$d"/ref/input_*.pb "$d/in/"
  local gflop
  gflop=$("$FWB" info "$model" "$@" --json 2>/dev/null | node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{try{const f=JSON.parse(s).flops;console.log(f>0?(f/1e9).toFixed(f<1e9?2:1):"")}catch(e){console.log("")}})')
  local t r agree=""
  for t in "${THREADS[@]}"; do
    local fmed="" fmin="" fpeak="" omed="" omin="" ffail="" ofail=""
    for ((r = 1; r <= ROUNDS; r++)); do
      local order=(fwb ort); ((r % 2 == 0)) && order=(ort fwb)
      local side
      for side in "${order[@]}"; do
        if [ "$side" = fwb ]; then
          local j="$d/fwb_t${t}_r$r.json"
          if "$FWB" run "$model" "$@" --input-dir "$d/in" --repeat "$RUNS" --stats-json "$j" --threads "$t" \
               >"$d/fwb_t${t}_r$r.log" 2>&1; then
            fmed=$(min2 "$fmed" "$(jkey "$j" median_ms)"); fmin=$(min2 "$fmin" "$(jkey "$j" min_ms)")
            fpeak=$(max2 "$fpeak" "$(jkey "$j" peak_bytes)")
          else
            ffail="fwb failed: $(tail -1 "$d/fwb_t${t}_r$r.log")"
          fi
        else
          local o="$d/ort_t${t}_r$r" line
          if line=$(node "$RUN" "$model" "$d/in" "$o" --opt=all --threads="$t" --time="$RUNS" 2>"$o.err"); then
            line=$(echo "$line" | grep -m1 '^ort '); echo "$line" >"$o.txt"
            omed=$(min2 "$omed" "$(echo "$line" | sed -n 's/.*median_s=\([0-9.]*\).*/\1/p')")
            omin=$(min2 "$omin" "$(echo "$line" | sed -n 's/.*min_s=\([0-9.]*\).*/\1/p')")
            # outputs: fwb (the --output-dir run) vs ORT, once per model
            if [ -z "$agree" ]; then
              local cmpout
              if cmpout=$(node "$CMP" "$d/ref" "$o" --rtol=1e-3 --atol=1e-4 2>&1); then agree="yes"
              else agree="no ($(echo "$cmpout" | grep -m1 -E 'differ|missing|shape|dtype'))"; fi
            fi
          else
            ofail="ORT failed: $(tail -1 "$o.err")"
          fi
        fi
      done
    done
    local c_fmed c_fmin c_peak c_omed c_omin ratio
    c_fmed=${fmed:+$(printf '%.1f' "$fmed")}; c_fmin=${fmin:+$(printf '%.1f' "$fmin")}
    c_peak=${fpeak:+$(awk -v b="$fpeak" 'BEGIN { printf "%.0f", b / 1e6 }')}
    c_omed=${omed:+$(ms "$omed")}; c_omin=${omin:+$(ms "$omin")}
    ratio=""
    [ -n "$fmed" ] && [ -n "$omed" ] && ratio=$(awk -v a="$fmed" -v b="$omed" 'BEGIN { printf "%.2f", a / (b * 1000) }')
    [ -z "$fmed" ] && c_fmed="fail" && notes+=("$name, $t thread(s): $ffail")
    [ -z "$omed" ] && c_omed="fail" && notes+=("$name, $t thread(s): $ofail")
    rows+=("| $name | $gflop | $t | $c_fmed | $c_fmin | $c_omed | $c_omin | $ratio | $c_peak |")
    echo "${rows[-1]}" >&2
  done
  notes+=("$name: fwb and ORT outputs equal within rtol 1e-3, atol 1e-4: ${agree:-not compared (ORT never ran)}")
  rm -rf "$d"/ort_t*_r[0-9]  # ORT's output dirs; the .txt/.err logs stay
}

vrows=()
# verify_time NAME MODEL.onnx SHAPE: one `fwb verify -O 2 --threads 2`, wall seconds and max RSS
verify_time() {
  local name="$1" model="$2" shape="$3" log="$WORK/verify_$1.log" tf="$WORK/verify_$1.time" rc wall rss res
  echo "== verify $name" >&2
  /usr/bin/time -f '%e %M' -o "$tf" "$FWB" verify "$model" --input-shape "$shape" -O 2 --threads 2 >"$log" 2>&1
  rc=$?
  read -r wall rss < <(tail -1 "$tf")
  case $rc in 0) res="passed" ;; 1) res="over tolerance: $(grep -m1 -i 'max' "$log")" ;; *) res="error (exit $rc): $(tail -1 "$log")" ;; esac
  vrows+=("| $name | $shape | 2 | 2 | $wall | $(awk -v k="$rss" 'BEGIN { printf "%.0f", k * 1024 / 1e6 }') | $res |")
  echo "${vrows[-1]}" >&2
}

for m in $MODELS; do
  case "$m" in
    resnet50|bert)
      z="zoo:$m"; [ "$m" = bert ] && z="zoo:bert?layers=12&hidden=768&heads=12&seq=128"
      label="ResNet-50 224x224"; [ "$m" = bert ] && label="BERT-base seq 128"
      "$FWB" zoo export "$z" -o "$WORK/$m.onnx" >/dev/null 2>&1 || { notes+=("zoo export $z failed"); continue; }
      bench "$label" "$WORK/$m.onnx"
      rm -f "$WORK/$m.onnx" ;;
    zoo:*)
      f="$WORK/$(printf '%s' "$m" | tr -c 'A-Za-z0-9_.-' '_').onnx"
      "$FWB" zoo export "$m" -o "$f" >/dev/null 2>&1 || { notes+=("zoo export $m failed"); continue; }
      bench "$m" "$f"
      rm -f "$f" ;;
    det|rec)
      n=ch_PP-OCRv4_${m}_infer; shape=$DET_SHAPE; [ "$m" = rec ] && shape=$REC_SHAPE
      [ -f "$RW/models/$n.onnx" ] || { notes+=("$n.onnx not in $RW/models (scripts/fetch_realworld.sh): skipped"); continue; }
      bench "$n ${shape#x=}" "$RW/models/$n.onnx" --input-shape "$shape" ;;
    *.onnx)
      [ -f "$m" ] || { notes+=("$m: no such file: skipped"); continue; }
      bench "$(basename "$m" .onnx)" "$m" ;;
    *) notes+=("unknown MODELS entry '$m' (resnet50 bert det rec zoo:NAME?... PATH.onnx): skipped") ;;
  esac
done
case " $MODELS " in
  *" det "*) [ -f "$RW/models/ch_PP-OCRv4_det_infer.onnx" ] && verify_time ch_PP-OCRv4_det_infer "$RW/models/ch_PP-OCRv4_det_infer.onnx" "$DET_SHAPE" ;;
esac
LOAD1=$(loadavg) BUSY1=$(busy)

report() {
  echo "# Reference executor vs ONNX Runtime: wall time per inference"
  echo
  echo "$DATE0; nproc $(nproc); CPU: $CPU; load average (1/5/15 min) at start $LOAD0, at end $LOAD1."
  echo "Other processes on the CPU (ps %CPU) at start: ${BUSY0:-none}; at end: ${BUSY1:-none}."
  echo "fwb: $(realpath --relative-to="$ROOT" "${FWB_ORIG}" 2>/dev/null || echo "$FWB_ORIG") built $FWB_MTIME (HEAD $HEAD$DIRTY);"
  echo "onnxruntime-node $ORTV, CPU EP, \`--opt=all\`; $RUNS timed runs after 1 warm-up per measurement."
  echo "Command: \`$CMDLINE\`"
  echo
  echo "| model (batch 1) | GFLOP | threads | fwb median ms | fwb min ms | ORT median ms | ORT min ms | fwb/ORT (median) | fwb peak RSS MB |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "- Same inputs on both sides: \`fwb run M --seed 1 --output-dir D\` writes D/input_K.pb once; fwb reads them with"
  echo "  \`--input-dir\`, ORT with \`tools/ort/run_model.mjs M D OUT --opt=all --threads=T --time=$RUNS\`."
  echo "- Each (model, threads) pair ran in $ROUNDS interleaved rounds (fwb then ORT, then ORT then fwb); each side keeps"
  echo "  its best median and its lowest min of the rounds. fwb peak RSS = the fwb process's max RSS (model load"
  echo "  included), the larger of the rounds. GFLOP from \`fwb info --json\` (flops, multiply-add = 2)."
  echo "- fwb/ORT < 1 means fwb is faster. ORT keeps its defaults otherwise (intra-op thread pool spins)."
  local n
  for n in "${notes[@]}"; do echo "- $n"; done
  if [ ${#vrows[@]} -gt 0 ]; then
    echo
    echo "\`fwb verify M --input-shape SHAPE -O 2 --threads 2\` (import, fuse, export, run original and fused export on"
    echo "the same seeded inputs, compare), one process, timed with \`/usr/bin/time -f '%e %M'\`:"
    echo
    echo "| model | input | -O | threads | wall s | peak RSS MB | result |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${vrows[@]}"
  fi
}
report >"$WORK/report.md"
cat "$WORK/report.md"
[ -n "$OUT" ] && cp "$WORK/report.md" "$OUT" && echo "wrote $OUT" >&2
exit 0
