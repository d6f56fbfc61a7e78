#!/usr/bin/env bash
# Big graphs: one table of wall times for BERT-style encoders of about 1k, 10k and 60k nodes whose node
# names carry no scope (bench/flatten_names.py), so the views must find the groups by structure.
#   bench/big_graphs.sh [BUILD_DIR] [FLAT_DOT_TIMEOUT_S]
# Columns (each a separate process, so each includes loading the model):
#   info      fwb info: import, validation, shape inference
#   fuse      fwb fuse -O2
#   simulate  fwb simulate -O2 (before and after)
#   render    fwb render -O2 --after: fuse, groups, folded layout, SVG; "groups" = finding the groups
#             (the hierarchy) inside it
#   flat dot  the same picture unfolded (--expand all), cut off after FLAT_DOT_TIMEOUT_S (default 60)
#   gui       fusion-workbench --screenshot under Xvfb, end to end, opening one block group in place
#             (--expand); "first" = first graph visible after load, "expand" = that group's expansion
#             (the slower view), "gap" = the longest the GUI's event loop was blocked (ms)
# and the growth factor of each column per 10x nodes (1k -> 10k -> 60k, normalised to 10x).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
FLAT_TIMEOUT="${2:-60}"
FWB="$BUILD/bin/fwb"
GUI="$BUILD/bin/fusion-workbench"
PY=/usr/bin/python3
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

secs() {  # wall seconds of a command (its output goes to $WORK/last.log)
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$WORK/last.log" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then echo "fail"; return; fi
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

declare -A T
sizes=(20 200 1200)
printf '%-7s %8s %8s %8s %9s %8s %8s %10s %8s %8s %8s %6s\n' layers nodes info fuse simulate render groups "flat dot" gui first expand gap
for L in "${sizes[@]}"; do
  base="$WORK/enc$L"
  "$FWB" zoo export bert --layers "$L" --hidden 64 --heads 2 --seq 32 -o "$base.onnx" >/dev/null 2>&1 || { echo "export failed"; exit 1; }
  "$PY" "$ROOT/bench/flatten_names.py" "$base.onnx" "$base.flat.onnx" || exit 1
  m="$base.flat.onnx"
  nodes=$("$FWB" info "$m" --json 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')
  T[$L,info]=$(secs "$FWB" info "$m")
  T[$L,fuse]=$(secs "$FWB" fuse -O 2 "$m")
  T[$L,sim]=$(secs "$FWB" simulate -O 2 "$m" --json "$WORK/sim.json")
  T[$L,render]=$(secs "$FWB" render -O 2 "$m" --after "$WORK/a.svg")
  T[$L,groups]=$(grep -o 'found in [0-9.]* s' "$WORK/last.log" | awk '{print $3}')
  t=$(secs timeout "$FLAT_TIMEOUT" "$FWB" render -O 2 "$m" --after "$WORK/flat.svg" --expand all --max-nodes 100000000)
  [ "$t" = fail ] && t=">$FLAT_TIMEOUT"
  T[$L,flat]=$t
  if command -v xvfb-run >/dev/null 2>&1 && [ -x "$GUI" ]; then
    # The series of encoder blocks, in chunks of 40 when there are more than 40 (ui/diagram/Hierarchy.h).
    if [ "$L" -gt 40 ]; then group="blocks 0-$((L - 1))/block 40-79"; else group="blocks 0-$((L - 1))/block 3"; fi
    T[$L,gui]=$(secs xvfb-run -a "$GUI" --model "$m" --opt-level 2 --expand "$group" --screenshot "$WORK/shot.png")
    [ "${T[$L,gui]}" = fail ] && sed 's/^/  gui: /' "$WORK/last.log" | grep -i error >&2
    T[$L,first]=$(grep -o 'first graph visible [0-9.]* s' "$WORK/last.log" | awk '{print $4}')
    # the slower of the two views (a view small enough to open fully expanded has nothing to open)
    T[$L,expand]=$(grep "^fusion-workbench: Expanded '" "$WORK/last.log" | grep -o 'in [0-9.]* s' |
      awk '$2 > m { m = $2 } END { if (NR) print m }')
    T[$L,gap]=$(grep -o 'longest event-loop gap [0-9]*' "$WORK/last.log" | awk '{print $4}')
  else
    T[$L,gui]="n/a"; T[$L,first]="n/a"; T[$L,expand]="n/a"; T[$L,gap]="n/a"
  fi
  T[$L,nodes]=$nodes
  printf '%-7s %8s %8s %8s %9s %8s %8s %10s %8s %8s %8s %6s\n' "$L" "$nodes" "${T[$L,info]}" "${T[$L,fuse]}" "${T[$L,sim]}" \
    "${T[$L,render]}" "${T[$L,groups]:-?}" "${T[$L,flat]}" "${T[$L,gui]}" "${T[$L,first]:-?}" "${T[$L,expand]:-?}" "${T[$L,gap]:-?}"
done
# Growth per 10x nodes: (t_big / t_small)^(1 / log10(nodes_big / nodes_small)).
growth() {
  awk -v a="$1" -v b="$2" -v na="$3" -v nb="$4" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || a <= 0) { printf "%8s", "-"; exit }
    printf "%8.1fx", exp(log(b / a) / (log(nb / na) / log(10))) }'
}
printf '%-16s' "growth per 10x"
for c in info fuse sim render groups flat gui first expand gap; do
  growth "${T[20,$c]}" "${T[1200,$c]}" "${T[20,nodes]}" "${T[1200,nodes]}"
done
printf '\n(measured on %s, %s cores; wall seconds, each column a separate process that loads the model)\n' \
  "$(date +%Y-%m-%d)" "$(nproc)"
