#!/usr/bin/env bash
# Recognized frames per second at 720p through the desktop app's live pipeline
# (benches/app_fps.rs). Needs ffmpeg and the ONNX Runtime library (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --bench app_fps "$@"
