#!/usr/bin/env bash
# Hands photographed turned: each held-out fixture's photo is turned a quarter clockwise, half a turn and a
# quarter anticlockwise (OpenCV, JPEG quality 95, the upright photo re-encoded the same way), read with the
# release `riichi-lens recognize`, and its Hand, Win and Dora lines compared with the upright photo's. Prints,
# for each turn, how many read as upright, and lists those that do not. README, "Reading a photo", step 4.
#
#   scripts/turned-photos.sh                     # seeds 8-12 (100 fixtures, 400 photos)
#   SEEDS="8 9" scripts/turned-photos.sh         # other seeds
#   BIN=/tmp/riichi-lens scripts/turned-photos.sh   # a binary kept from another build
#
# The fixtures come from target/heldout/seedN/ and are rendered there when missing (as
# scripts/heldout-fixtures.sh does); the turned photos and the readings go to target/turned/. Needs .venv-train
# (models/training/requirements.txt: OpenCV) and .venv's ONNX Runtime (scripts/setup.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

SEEDS=${SEEDS:-$(seq 8 12)}
OUT=${OUT:-target/turned}

# shellcheck source=scripts/ort-env.sh
. "$ROOT/scripts/ort-env.sh" turned-photos
# shellcheck source=scripts/train-env.sh
. "$ROOT/scripts/train-env.sh" turned-photos
[ -n "${BIN:-}" ] || cargo build --release --quiet --bin riichi-lens
BIN=${BIN:-target/release/riichi-lens}

rm -rf "$OUT"
mkdir -p "$OUT/photos" "$OUT/read"
for s in $SEEDS; do
  dir="target/heldout/seed$s"
  if ! ls "$dir"/*.json > /dev/null 2>&1; then
    nice -n 19 "$PY" datasets/make_fixtures.py --out "$dir" --seed "$s" > /dev/null
  fi
done

"$PY" - "$OUT/photos" $SEEDS <<'PY'
import sys, glob, os, cv2
out, seeds = sys.argv[1], sys.argv[2:]
turns = {"r0": None, "r90": cv2.ROTATE_90_CLOCKWISE, "r180": cv2.ROTATE_180,
         "r270": cv2.ROTATE_90_COUNTERCLOCKWISE}
for s in seeds:
    for path in sorted(glob.glob(f"target/heldout/seed{s}/*.jpg")):
        image = cv2.imread(path)
        name = os.path.basename(path)[:-4]
        for turn, code in turns.items():
            turned = image if code is None else cv2.rotate(image, code)
            cv2.imwrite(f"{out}/s{s}-{name}-{turn}.jpg", turned, [cv2.IMWRITE_JPEG_QUALITY, 95])
PY

# Two at a time: the machine's two cores.
find "$OUT/photos" -name '*.jpg' -print0 | xargs -0 -P2 -I{} sh -c \
  '"$1" recognize "$2" 2>/dev/null | grep -E "^(Hand|Win|Dora)" > "$3/$(basename "$2" .jpg).txt" || true' \
  sh "$BIN" {} "$OUT/read"

for turn in r90 r180 r270; do
  same=0
  total=0
  differ=()
  for upright in "$OUT"/read/*-r0.txt; do
    total=$((total + 1))
    if cmp -s "$upright" "${upright%-r0.txt}-$turn.txt"; then
      same=$((same + 1))
    else
      differ+=("$(basename "${upright%-r0.txt}")")
    fi
  done
  echo "$turn: $same of $total read as the upright photo${differ[*]:+; not: ${differ[*]}}"
done
