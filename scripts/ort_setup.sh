#!/usr/bin/env bash
# Install the independent ONNX Runtime used as a test reference (tools/ort: onnxruntime-node,
# pinned in package.json / package-lock.json). Idempotent: does nothing when node_modules
# already holds the locked onnxruntime-node. Never fails the caller: when node/npm are
# missing or the install fails it prints "ORT unavailable: ..." and exits 0, so tests can skip.
# Afterwards:  node tools/ort/run_model.mjs MODEL.onnx INPUT_DIR OUTPUT_DIR
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ORT_DIR="$ROOT/tools/ort"
say() { printf '[ort_setup] %s\n' "$*" >&2; }

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  say "ORT unavailable: node/npm not found (apt-get install nodejs npm)"
  exit 0
fi

want="$(node -p "require('$ORT_DIR/package.json').dependencies['onnxruntime-node']" 2>/dev/null)"
have="$(node -p "require('$ORT_DIR/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || true)"
if [[ -n "$have" && "$have" == "$want" && -d "$ORT_DIR/node_modules/protobufjs" ]]; then
  say "ORT ready (onnxruntime-node $have, already installed)"
  exit 0
fi

# The CPU binaries for linux-x64 are inside the npm package; the postinstall step only
# downloads optional CUDA/TensorRT parts from outside the registry, so skip it.
export ONNXRUNTIME_NODE_INSTALL=skip
say "installing onnxruntime-node $want from package-lock.json"
if ! (cd "$ORT_DIR" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error >&2); then
  say "ORT unavailable: npm ci failed"
  exit 0
fi
if ! (cd "$ORT_DIR" && node -e "require('onnxruntime-node')" >/dev/null 2>&1); then
  say "ORT unavailable: onnxruntime-node does not load on this machine"
  exit 0
fi
say "ORT ready (onnxruntime-node $want)"
exit 0
