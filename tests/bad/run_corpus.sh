#!/usr/bin/env bash
# Runs every verb on every case of tests/data/bad (see scripts/make_bad_models.py and EXPECT.tsv):
#   refuse: fuse/simulate/verify/render exit 2 with one message naming the problem, no output file;
#           info exits 0 and lists the problem (2 when the file is not a model at all)
#   legal:  every verb exits 0
#   runfail: legal to read, fuse and render (exit 0); verify and simulate (which run it) exit 2 naming a limit
# Never a crash, a hang (60 s per command), exit 3 or a negative figure.
#   run_corpus.sh FWB WORKDIR [CASE...]
set -uo pipefail
FWB="$1"; WORK="$2"; shift 2
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA="$ROOT/tests/data/bad"
mkdir -p "$WORK"
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); printf 'FAIL %s\n' "$*"; }
only=("$@")

run() {  # run NAME VERB ARGS... -> sets rc and out
  local log="$WORK/$1.$2.log"; shift 2
  timeout 60 "$FWB" "$@" >"$log" 2>&1; rc=$?
  out="$(cat "$log")"
}

while IFS=$'\t' read -r name kind expect; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  f="$DATA/$name.onnx"; [ -f "$f" ] || f="$DATA/$name.bin"
  d="$WORK/$name"; rm -rf "$d"; mkdir -p "$d"
  for verb in info fuse simulate verify render; do
    case "$verb" in
      info) run "$name" info info "$f" ;;
      fuse) run "$name" fuse fuse "$f" -O 2 -o "$d/fused.onnx" ;;
      simulate) run "$name" simulate simulate "$f" -O 2 ;;
      verify) run "$name" verify verify "$f" -O 2 ;;
      render) run "$name" render render "$f" -O 2 --after "$d/after.svg" ;;
    esac
    where="$name: fwb $verb"
    if [ $rc -eq 124 ]; then bad "$where hangs (60 s)"; continue; fi
    if [ $rc -ge 128 ] || [ $rc -eq 3 ]; then bad "$where exit $rc: $(tail -2 <<<"$out" | tr '\n' ' ')"; continue; fi
    if grep -qE -- '(^|[^0-9a-z_])-[0-9]+(\.[0-9]+)? ?(B|KB|MB|GB|us)\b' <<<"$out"; then bad "$where prints a negative figure"; continue; fi
    if [ "$kind" = legal ]; then
      if [ $rc -ne 0 ]; then bad "$where exit $rc on a legal model: $(tail -1 <<<"$out")"; else ok; fi
      continue
    fi
    if [ "$kind" = runfail ]; then
      # Legal to read, fuse and draw; running it hits a resource limit (verify, and simulate's traced run).
      if [[ "$verb" == info || "$verb" == fuse || "$verb" == render ]]; then
        if [ $rc -ne 0 ]; then bad "$where exit $rc, want 0: $(tail -1 <<<"$out")"; else ok; fi
      elif [ $rc -ne 2 ] || ! grep -qi -- "$expect" <<<"$out"; then bad "$where exit $rc, want 2 naming '$expect': $(tail -1 <<<"$out")"
      else ok; fi
      continue
    fi
    if [ "$verb" = info ]; then
      # A file that cannot be imported at all (not ONNX, a cycle, a dangling input, bad data): exit 2.
      if [ $rc -eq 2 ] && grep -qi -- "$expect" <<<"$out"; then ok; continue; fi
      if [ $rc -ne 0 ]; then bad "$where exit $rc (info should summarise and list problems): $(tail -1 <<<"$out")"; continue; fi
      if ! grep -qi -- "$expect" <<<"$out"; then bad "$where does not list the problem ('$expect')"; else ok; fi
      continue
    fi
    if [ $rc -ne 2 ]; then bad "$where exit $rc, want 2: $(tail -1 <<<"$out")"; continue; fi
    if ! grep -qi -- "$expect" <<<"$out"; then bad "$where message lacks '$expect': $(grep -m1 'error' <<<"$out")"; continue; fi
    if [ "$(grep -c 'fwb: error' <<<"$out")" -ne 1 ]; then bad "$where prints $(grep -c 'fwb: error' <<<"$out") errors, want one"; continue; fi
    if ls "$d"/fused.onnx* "$d"/after.svg* >/dev/null 2>&1; then bad "$where left an output file"; continue; fi
    ok
  done
done < "$DATA/EXPECT.tsv"
printf '%d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
