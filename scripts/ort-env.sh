# Sourced by the measuring scripts: exports ORT_DYLIB_PATH, when unset, as the ONNX Runtime library of .venv
# (scripts/setup.sh installs it), or stops the script saying so. $ROOT is the repository root; $1 names the
# script in the message.
if [ -z "${ORT_DYLIB_PATH:-}" ]; then
  ORT_DYLIB_PATH=$(ls "$ROOT"/.venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* 2>/dev/null | head -1)
  if [ -z "$ORT_DYLIB_PATH" ]; then
    echo "$1: no ONNX Runtime library in .venv; run scripts/setup.sh first" >&2
    exit 1
  fi
  export ORT_DYLIB_PATH
fi
