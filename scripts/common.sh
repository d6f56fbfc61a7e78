# Shared by scripts/run and scripts/test: install what is missing, configure, build.
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${FW_BUILD_DIR:-$ROOT/build}"
JOBS="${FW_JOBS:-2}"

FW_PACKAGES=(
  build-essential cmake pkg-config
  qtbase5-dev libqt5svg5-dev
  libgraphviz-dev graphviz
  libprotobuf-dev protobuf-compiler libonnx-dev
  libspdlog-dev nlohmann-json3-dev libcli11-dev libdnnl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth
  python3 python3-onnx python3-numpy
)

fw_log() { printf '[fwb] %s\n' "$*" >&2; }

fw_install_packages() {
  local missing=()
  for p in "${FW_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  fw_log "installing missing Debian packages: ${missing[*]}"
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      fw_log "not root and no sudo: install these packages first: ${missing[*]}"; return 1
    fi
  fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

fw_build() {
  local type="${FW_BUILD_TYPE:-Release}"
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    fw_log "configuring ($type) in $BUILD_DIR"
    cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$type" "$@"
  fi
  fw_log "building with -j$JOBS"
  cmake --build "$BUILD_DIR" -j"$JOBS"
}
