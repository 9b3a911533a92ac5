#!/usr/bin/env bash
# Times riichi-lens' scorer against the Python reference `mahjong` on the same 2,000 hands
# (benches/hands.jsonl) and prints both figures in microseconds per hand and the ratio.
#
#   scripts/bench-score.sh                 # criterion bench + Python peer (5 passes)
#   PY_REPS=10 scripts/bench-score.sh      # more Python passes
#   scripts/bench-score.sh -- --quick      # extra arguments after -- go to criterion
#
# Rust figure: best of 200 passes of `score()` over all hands, timed by benches/score.rs
# after its criterion run. Python figure: best of PY_REPS passes of
# HandCalculator.estimate_hand_value (benches/python_peer.py). Needs .venv (scripts/setup.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

PY=${RIICHI_PYTHON:-.venv/bin/python}
PY_REPS=${PY_REPS:-5}
if [ ! -x "$PY" ]; then
  echo "bench-score.sh: $PY not found; run scripts/setup.sh" >&2
  exit 2
fi
extra=()
if [ "${1:-}" = "--" ]; then
  shift
  extra=("$@")
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== cargo bench --bench score"
cargo bench --bench score -- "${extra[@]}" | tee "$log"
rust_line=$(grep '^per-hand score: ' "$log")
line_line=$(grep '^per-hand score_line: ' "$log")

echo
echo "== python mahjong (benches/python_peer.py, $PY_REPS passes)"
py_out=$("$PY" benches/python_peer.py --reps "$PY_REPS")
echo "$py_out"
py_line=$(grep '^per-hand python' <<<"$py_out")

# Best wall-clock pass, and best pass of thread CPU time (leaves out waiting for a CPU).
wall() { sed -E 's/.*: best ([0-9.]+) us.*/\1/' <<<"$1"; }
cpu() { sed -nE 's/.*thread cpu best ([0-9.]+) us.*/\1/p' <<<"$1"; }

echo
echo "== summary (best pass, microseconds per hand, $(nproc) cores, $(date -u +%Y-%m-%d))"
printf '%-20s %12s %12s\n' "" "wall" "thread cpu"
for row in "rust score()|$rust_line" "rust score_line()|$line_line" "python mahjong|$py_line"; do
  name=${row%%|*}
  line=${row#*|}
  printf '%-20s %12s %12s\n' "$name" "$(wall "$line")" "$(cpu "$line")"
done
awk -v pw="$(wall "$py_line")" -v rw="$(wall "$rust_line")" -v lw="$(wall "$line_line")" \
  -v pc="$(cpu "$py_line")" -v rc="$(cpu "$rust_line")" -v lc="$(cpu "$line_line")" 'BEGIN {
  printf "ratio python/rust:   wall %.1fx (score), %.1fx (score_line)", pw / rw, pw / lw
  if (pc != "" && rc != "" && lc != "") printf "; cpu %.1fx (score), %.1fx (score_line)", pc / rc, pc / lc
  printf "\n"
}'
