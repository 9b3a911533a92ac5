#!/usr/bin/env bash
# Installs what the tests and tools need, idempotently, from package registries only:
# - .venv with the reference scorer mahjong==2.1.0 (differential tests) and the
#   ONNX Runtime wheel onnxruntime==1.31.1, whose shared library the recognizer loads.
# Prints the path of libonnxruntime so it can be exported as ORT_DYLIB_PATH.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

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
