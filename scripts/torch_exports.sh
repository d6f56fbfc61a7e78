#!/usr/bin/env bash
# Make the PyTorch-exporter test models (scripts/export_torch_models.py) in DEST.
#
#   scripts/torch_exports.sh [DEST]
#
# DEST defaults to ${FW_CACHE:-<repo>/build}/torch_exports. Needs /usr/bin/python3 with torch +
# torchvision + onnx + numpy (Debian: python3-torch 1.13, python3-torchvision 0.14). When torch is
# missing and we are root (or have password-less sudo) with apt-get, installs the two packages
# (--no-install-recommends). Nothing else is downloaded: the models have seeded random weights.
# Idempotent: when DEST/stamp matches the export script and the torch version, nothing is redone.
# Exit codes: 0 models written; 77 torch unavailable (the tests that use DEST skip); 1 an export failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-${FW_CACHE:-$ROOT/build}/torch_exports}"
PY="${FW_PYTHON:-/usr/bin/python3}"
say() { printf '[torch_exports] %s\n' "$*" >&2; }
have_torch() { "$PY" -c 'import torch, torchvision, onnx, numpy' >/dev/null 2>&1; }

if ! have_torch; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; fi
  fi
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; }; then
    pkgs=(python3-torch python3-torchvision python3-onnx python3-numpy)
    say "installing ${pkgs[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if ! $sudo apt-get install -y --no-install-recommends "${pkgs[@]}" >"${TMPDIR:-/tmp}/torch_exports_apt.log" 2>&1; then
      # Package lists may be missing or stale on a fresh machine.
      $sudo apt-get update >>"${TMPDIR:-/tmp}/torch_exports_apt.log" 2>&1
      $sudo apt-get install -y --no-install-recommends "${pkgs[@]}" >>"${TMPDIR:-/tmp}/torch_exports_apt.log" 2>&1 ||
        say "apt-get install failed (see ${TMPDIR:-/tmp}/torch_exports_apt.log)"
    fi
  fi
fi
if ! have_torch; then
  say "torch unavailable: $PY cannot import torch/torchvision/onnx/numpy (apt-get install python3-torch python3-torchvision): skipped"
  exit 77
fi

versions="$("$PY" -c 'import torch, torchvision; print(torch.__version__, torchvision.__version__)' 2>/dev/null)"
stamp="$(sha256sum "$ROOT/scripts/export_torch_models.py" | cut -c1-64) $versions"
if [ -f "$DEST/stamp" ] && [ "$(cat "$DEST/stamp")" = "$stamp" ] && [ -f "$DEST/manifest.json" ]; then
  say "models up to date in $DEST ($versions)"
  exit 0
fi
rm -rf "$DEST"; mkdir -p "$DEST"
start=$(date +%s)
"$PY" "$ROOT/scripts/export_torch_models.py" export "$DEST"
rc=$?
say "export took $(( $(date +%s) - start )) s (torch $versions)"
[ $rc = 0 ] && printf '%s\n' "$stamp" >"$DEST/stamp"
exit $rc
