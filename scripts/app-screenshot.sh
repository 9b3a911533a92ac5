#!/usr/bin/env bash
# Screenshot of the real desktop app on a virtual display (how docs/app.png and
# docs/app-ja.png are made):
#   scripts/app-screenshot.sh docs/app.png --source samples/photos/01-pinfu.jpg
#   scripts/app-screenshot.sh docs/app-ja.png --lang ja --source samples/photos/03-tilted.jpg
# Needs Xvfb and ffmpeg (scripts/setup.sh) and a release build (cargo build --release).
# Settings are kept in a temporary folder, so the shot does not depend on yours.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1; shift
wait_s=${WAIT_S:-8}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/riichi-lens}
config=$(mktemp -d)
# Xvfb picks a free display itself and writes its number once it accepts connections.
Xvfb -displayfd 3 -screen 0 1400x860x24 -nolisten tcp 3>"$config/display" >/dev/null 2>&1 &
xvfb=$!
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$config"' EXIT
for _ in $(seq 100); do
  [ -s "$config/display" ] && break
  sleep 0.1
done
[ -s "$config/display" ] || { echo "Xvfb did not start" >&2; exit 1; }
display=:$(tr -d '[:space:]' <"$config/display")
DISPLAY=$display RIICHI_LENS_CONFIG_DIR=$config "$bin" app "$@" &
app=$!
sleep "$wait_s"
ffmpeg -nostdin -loglevel error -y -f x11grab -draw_mouse 0 -video_size 1400x860 -i "$display" -frames:v 1 "$out"
echo "wrote $out"
