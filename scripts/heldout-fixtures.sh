#!/usr/bin/env bash
# Held-out photo fixtures: renders datasets/make_fixtures.py's recipe with other seeds (scenes no model or layout
# rule was chosen on), reads them with the release fixture_report, and prints how many of each seed's 20 fixtures
# are read exactly (every tile, layout, hand and points), then the total with the committed fixtures and the
# regressions. The per-fixture outcomes go to a list that two runs can be diffed on (what a change put right or
# made wrong).
#
#   scripts/heldout-fixtures.sh                      # seeds 8-37 -> target/heldout/list.txt
#   SEEDS="8 9 10" scripts/heldout-fixtures.sh       # other seeds
#   LIST=/tmp/after.txt scripts/heldout-fixtures.sh  # another list file
#   diff target/heldout/list.txt /tmp/after.txt      # fixtures whose outcome changed
#   REPORT=/tmp/fixture_report scripts/heldout-fixtures.sh   # a fixture_report binary kept from another build
#   DIR=target/heldout-alt MAKE_ARGS="--alt-art 1.0" scripts/heldout-fixtures.sh   # sets in other art
#
# Per tile (found once, top-1 face and orientation right), with the face-down dead-wall tiles and without them
# (the hand and the dora indicators), and the latter with the concealed tiles' faces as the decoded hand reports
# them, the seeds, the committed fixtures and the regressions are summed apart; per set in $LIST.tiles.
#
# Needs .venv-train (models/training/requirements.txt) to render the scenes, which are kept in
# target/heldout/seedN/ (about 1.5 MB each) and rendered only when missing; .venv's ONNX Runtime (scripts/setup.sh);
# RIICHI_LENS_MODELS picks other models as for `riichi-lens`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

SEEDS=${SEEDS:-$(seq 8 37)}
DIR=${DIR:-target/heldout}
LIST=${LIST:-$DIR/list.txt}
PY=${TRAIN_PYTHON:-.venv-train/bin/python}

# shellcheck source=scripts/ort-env.sh
. "$ROOT/scripts/ort-env.sh" heldout-fixtures

[ -n "${REPORT:-}" ] || cargo build --release --quiet --example fixture_report
REPORT=${REPORT:-target/release/examples/fixture_report}
mkdir -p "$DIR" "$(dirname "$LIST")"
: > "$LIST"

# One line per fixture: set, fixture, exact (the third column of fixture_report's table); and
# per set, in $TILES: the tiles read right at top-1, the tiles labelled, the same two for the
# hand and dora tiles, and those read right as the decoded hand reports them.
TILES="$LIST.tiles"
: > "$TILES"
outcomes() {
  local report
  report=$("$REPORT" "$2" 2>/dev/null)
  awk -v set="$1" '$2 ~ /^[0-9]+\/[0-9]+$/ { print set, $1, $3 }' <<< "$report"
  awk -v set="$1" '/^per tile:/ { r = $3; n = $5 } /^per hand or dora tile:/ { hr = $6; hn = $8 }
                    /^per hand or dora tile as the decoded/ { print set, r, n, hr, hn, $12 }' \
    <<< "$report" >> "$TILES"
}

for s in $SEEDS; do
  out="$DIR/seed$s"
  if ! ls "$out"/*.json > /dev/null 2>&1; then
    if [ ! -x "$PY" ]; then
      echo "heldout-fixtures: $PY is missing; create .venv-train (models/training/requirements.txt)" >&2
      exit 1
    fi
    # shellcheck disable=SC2086 # MAKE_ARGS is a list of options
    nice -n 19 "$PY" datasets/make_fixtures.py --out "$out" --seed "$s" ${MAKE_ARGS:-} > /dev/null
  fi
  outcomes "$s" "$out" >> "$LIST"
done
outcomes committed datasets/fixtures >> "$LIST"
outcomes regressions datasets/regressions >> "$LIST"

awk '{ n[$1]++; if ($3 == "yes") y[$1]++ }
     END { for (k in n) printf "%-12s %3d of %d\n", k, y[k], n[k] }' "$LIST" | sort -n
echo "total exact: $(grep -c ' yes$' "$LIST") of $(wc -l < "$LIST") ($LIST)"
awk '{ if ($1 == "committed" || $1 == "regressions") k = $1; else k = "seeds"
       r[k] += $2; n[k] += $3; hr[k] += $4; hn[k] += $5; dr[k] += $6 }
     END { for (k in n) printf "per tile read right at top-1, %-11s all %5d of %5d (%.2f %%), hand and dora %5d of %5d (%.2f %%); decoded %5d (%.2f %%)\n",
                               k, r[k], n[k], 100 * r[k] / n[k], hr[k], hn[k], 100 * hr[k] / hn[k], dr[k], 100 * dr[k] / hn[k] }' \
  "$TILES" | sort
