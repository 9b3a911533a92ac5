#!/usr/bin/env bash
# Hands photographed in other light and by other cameras: each held-out fixture's photo is re-shot under a list of
# conditions (OpenCV; the tiles' boxes scaled with the photo where it is resized), read with the release
# fixture_report, and, per condition, the hands read exactly counted with the wrong scores and how many of those
# were left without a flag for the user to check (the silent ones). README, "Reading a photo", step 4.
#
#   scripts/photo-conditions.sh                          # seeds 38-57 (400 fixtures), every condition
#   SEEDS="8 9" scripts/photo-conditions.sh              # other seeds
#   CONDITIONS="as-shot veil" scripts/photo-conditions.sh   # some of the conditions
#   REPORT=/tmp/fixture_report scripts/photo-conditions.sh  # a fixture_report binary kept from another build
#
# The conditions (every photo re-encoded as JPEG quality 95 unless stated):
#   as-shot    the photo as rendered, re-encoded
#   dim45      every channel x 0.45          dim25      every channel x 0.25
#   bright     every channel x 1.5 (overexposed: the faces clip at white)
#   warm       red x 1.2, green x 0.95, blue x 0.75      cool   red x 0.8, green x 0.95, blue x 1.2
#   veil       0.4 of the way to a grey of 200 (haze, glare over the lens, a webcam's lifted blacks)
#   gamma2     levels to the power 2 (dark mid-tones)
#   blur2      Gaussian blur of sigma 2 px   motion11   horizontal motion blur over 11 px
#   noise12    Gaussian noise of sigma 12 levels          jpeg20   JPEG quality 20
#   vga        half size, noise of sigma 6, JPEG quality 85 (a cheap webcam's frame)
#   dimnoisy   every channel x 0.25, then noise of sigma 6 (a dim room's noisy photo)
#   bright125  every channel x 1.25          bright2    every channel x 2 (over- and overexposed)
#
# The fixtures come from target/heldout/seedN/ and are rendered there when missing (as scripts/heldout-fixtures.sh
# does); the re-shot photos and the reports go to target/conditions/. Needs .venv-train
# (models/training/requirements.txt: OpenCV) and .venv's ONNX Runtime (scripts/setup.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

SEEDS=${SEEDS:-$(seq 38 57)}
CONDITIONS=${CONDITIONS:-as-shot dim45 dim25 bright warm cool veil gamma2 blur2 motion11 noise12 jpeg20 vga dimnoisy bright125 bright2}
OUT=${OUT:-target/conditions}

# shellcheck source=scripts/ort-env.sh
. "$ROOT/scripts/ort-env.sh" photo-conditions
# shellcheck source=scripts/train-env.sh
. "$ROOT/scripts/train-env.sh" photo-conditions
[ -n "${REPORT:-}" ] || cargo build --release --quiet --example fixture_report
REPORT=${REPORT:-target/release/examples/fixture_report}

for s in $SEEDS; do
  dir="target/heldout/seed$s"
  if ! ls "$dir"/*.json > /dev/null 2>&1; then
    nice -n 19 "$PY" datasets/make_fixtures.py --out "$dir" --seed "$s" > /dev/null
  fi
done

rm -rf "$OUT"
# shellcheck disable=SC2086 # SEEDS and CONDITIONS are lists
"$PY" - "$OUT" "$CONDITIONS" $SEEDS <<'PY'
import glob, json, os, sys

import cv2
import numpy as np

out, conditions, seeds = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
rng = np.random.default_rng(0)
# The conditions added later draw their noise from their own generator, so that the earlier ones
# re-shoot as they did.
later_rng = np.random.default_rng(1)


def gains(r, g, b):
    return lambda im: np.clip(im.astype(np.float32) * np.array([b, g, r], np.float32), 0, 255)


def noise(sigma):
    return lambda im: np.clip(im.astype(np.float32) + rng.normal(0, sigma, im.shape), 0, 255)


def motion(n):
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1.0 / n
    return lambda im: cv2.filter2D(im, -1, kernel)


def half(im):
    return noise(6)(cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))


levels = np.arange(256, dtype=np.float32) / 255.0
# name: (change, JPEG quality, scale of the photo)
CHANGES = {
    "as-shot": (lambda im: im, 95, 1.0),
    "dim45": (gains(0.45, 0.45, 0.45), 95, 1.0),
    "dim25": (gains(0.25, 0.25, 0.25), 95, 1.0),
    "bright": (gains(1.5, 1.5, 1.5), 95, 1.0),
    "warm": (gains(1.2, 0.95, 0.75), 95, 1.0),
    "cool": (gains(0.8, 0.95, 1.2), 95, 1.0),
    "veil": (lambda im: im.astype(np.float32) * 0.6 + 0.4 * 200.0, 95, 1.0),
    "gamma2": (lambda im: cv2.LUT(im, (255.0 * levels**2).astype(np.uint8)), 95, 1.0),
    "blur2": (lambda im: cv2.GaussianBlur(im, (0, 0), 2.0), 95, 1.0),
    "motion11": (motion(11), 95, 1.0),
    "noise12": (noise(12), 95, 1.0),
    "jpeg20": (lambda im: im, 20, 1.0),
    "vga": (half, 85, 0.5),
    "dimnoisy": (lambda im: np.clip(im.astype(np.float32) * 0.25 + later_rng.normal(0, 6, im.shape), 0, 255), 95, 1.0),
    "bright125": (gains(1.25, 1.25, 1.25), 95, 1.0),
    "bright2": (gains(2.0, 2.0, 2.0), 95, 1.0),
}
unknown = [c for c in conditions if c not in CHANGES]
if unknown:
    sys.exit(f"photo-conditions: no such condition: {' '.join(unknown)} (known: {' '.join(CHANGES)})")


def scaled(label, k):
    label = json.loads(json.dumps(label))
    label["width"], label["height"] = round(label["width"] * k), round(label["height"] * k)
    for tile in label["tiles"]:
        tile["box"] = [v * k for v in tile["box"]]
        for key in ("cx", "cy", "w", "h"):
            tile["rotated"][key] *= k
    return label


for s in seeds:
    for path in sorted(glob.glob(f"target/heldout/seed{s}/*.jpg")):
        image = cv2.imread(path)
        with open(path[:-4] + ".json") as f:
            label = json.load(f)
        name = os.path.basename(path)[:-4]
        for condition in conditions:
            change, quality, k = CHANGES[condition]
            folder = f"{out}/{condition}/seed{s}"
            os.makedirs(folder, exist_ok=True)
            shot = np.clip(change(image), 0, 255).astype(np.uint8)
            cv2.imwrite(f"{folder}/{name}.jpg", shot, [cv2.IMWRITE_JPEG_QUALITY, quality])
            with open(f"{folder}/{name}.json", "w") as f:
                json.dump(scaled(label, k) if k != 1.0 else label, f)
PY

printf "%-9s %14s %6s %8s %7s\n" condition "read exactly" wrong flagged silent
for condition in $CONDITIONS; do
  report="$OUT/$condition/report.txt"
  for dir in "$OUT/$condition"/seed*; do
    "$REPORT" "$dir" --threads 2 2> /dev/null
  done > "$report"
  awk -v c="$condition" '/^exact \(every/ { e += $7; n += $9 }
    /^score wrong or none/ { w += $5; f += substr($6, 2) }
    END { printf "%-9s %6d of %-5d %6d %8d %7d\n", c, e, n, w, f, w - f }' "$report"
done
echo "reports: $OUT/CONDITION/report.txt (fixture_report's, one block per seed)"
