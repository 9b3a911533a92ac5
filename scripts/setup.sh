#!/usr/bin/env bash
# Installs what the tests and tools need, idempotently, from package registries only:
# - system packages (below), and
# - .venv with the reference scorer mahjong==2.1.0 (differential tests) and the
#   ONNX Runtime wheel onnxruntime==1.31.1, whose shared library the recognizer loads.
# Prints the path of libonnxruntime so it can be exported as ORT_DYLIB_PATH.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# System packages: Chromium and its driver for the overlay's browser tests, CJK
# fonts for its and the app's Japanese labels, libclang for nokhwa's V4L bindings
# and nasm for libjpeg-turbo's SIMD code (both build time), ffmpeg for video sources and the tests that make a video, Xvfb and
# Mesa's software OpenGL/EGL for the desktop app's smoke test. Installed only where
# missing; needs root.
need=""
for pkg in chromium chromium-driver fonts-noto-cjk libclang-dev nasm xvfb ffmpeg libgl1-mesa-dri libegl1 python3-venv; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need="$need $pkg"
done
if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need
  else
    echo "setup: missing system packages:$need" >&2
    echo "setup: install them with: sudo apt-get install$need" >&2
    exit 1
  fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
want="tests/differential/requirements.txt scripts/requirements-runtime.txt"
stamp=.venv/.riichi-lens-setup
if [ ! -f "$stamp" ] || [ "$(cat $want | sha256sum)" != "$(cat "$stamp")" ]; then
  .venv/bin/pip install --disable-pip-version-check -q -r tests/differential/requirements.txt \
    -r scripts/requirements-runtime.txt
  cat $want | sha256sum > "$stamp"
fi
lib=$(ls "$ROOT"/.venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* 2>/dev/null | head -n 1 || true)
if [ -n "$lib" ]; then
  echo "onnxruntime: $lib"
fi
