#!/usr/bin/env bash
# Screenshots of the stream overlay's demo state for the README, taken with Debian's headless
# Chromium: docs/overlay.png (English) and docs/overlay-ja.png (Japanese), 1280×400 with a
# transparent background. Installs chromium (and a CJK font) with apt-get when run as root
# and they are missing; shrinks the PNGs with pngquant when it is there.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q chromium fonts-noto-cjk
  else
    echo "chromium is not installed: apt-get install chromium fonts-noto-cjk" >&2
    exit 1
  fi
fi

cargo build --quiet
mkdir -p docs
WORK=$(mktemp -d)
LOG="$WORK/overlay.log"
target/debug/riichi-lens overlay --demo --port 0 2>"$LOG" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT

URL=""
for _ in $(seq 1 100); do
  URL=$(sed -n 's/^overlay: \(http:[^ ]*\) .*/\1/p' "$LOG")
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { cat "$LOG" >&2; echo "the overlay did not start" >&2; exit 1; }

shoot() { # URL OUT
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$(mktemp -d -p "$WORK")" --window-size=1280,400 \
    --default-background-color=00000000 --timeout=1500 \
    --screenshot="$2" "$1" >/dev/null 2>&1
  if command -v pngquant >/dev/null 2>&1; then
    pngquant --force --quality=70-95 --speed 1 --output "$2" "$2"
  fi
  echo "wrote $2 ($(wc -c <"$2") bytes)"
}

shoot "$URL" docs/overlay.png
shoot "$URL?lang=ja" docs/overlay-ja.png
