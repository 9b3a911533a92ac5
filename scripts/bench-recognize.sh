#!/usr/bin/env bash
# Recognition speed of riichi-lens next to the peer detector mahjong-detector==0.0.6, on the same images:
#   - ms per 1280x720 frame for recognize (the 20 photo fixtures of datasets/fixtures/), target <= 30 ms;
#     also on far shots (each fixture shrunk to half size in a 720p frame), where the detector runs a second time;
#   - photos per second for `riichi-lens batch` on 60 12 MP JPEGs (4000x3000, three made from each fixture at bench
#     time into target/tmp/bench-12mp-photos/, not committed), target >= 15/s on 2 cores.
#
#   scripts/bench-recognize.sh                  # criterion bench + batch runs + peer
#   JOBS=2 RUNS=3 scripts/bench-recognize.sh    # batch workers (default: nproc) and timed batch runs (default 3)
#   scripts/bench-recognize.sh -- --quick       # extra arguments after -- go to criterion
#
# riichi-lens: benches/recognize.rs (criterion, then its own best/median over every frame), and the release
# binary's `batch DIR --out ... --jobs JOBS` timed end to end (hashing, decoding, recognition, state commits,
# scoring, output) with a fresh state each run; the best run counts.
# Peer: benches/peer_recognize.py in .venv-peer (python3.11 -m venv .venv-peer &&
# .venv-peer/bin/pip install -r models/training/requirements-peer.txt): the same frames, and the same 12 MP files
# opened, decoded and detected per photo by 1 and JOBS worker processes.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

PEER_PY=${PEER_PYTHON:-.venv-peer/bin/python}
JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-3}
extra=()
if [ "${1:-}" = "--" ]; then
  shift
  extra=("$@")
fi

log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT

echo "== cargo bench --bench recognize"
cargo bench --bench recognize -- "${extra[@]}" | tee "$log"
photos_dir=$(sed -n 's/^photos: //p' "$log")
mapfile -t photos < <(ls "$photos_dir"/*-12mp.jpg)
frames=(datasets/fixtures/*.jpg)
far_dir=$(sed -n 's/^far frames: //p' "$log")
far_frames=()
[ -n "$far_dir" ] && far_frames=("$far_dir"/far-*.png)

echo
echo "== riichi-lens batch on ${#photos[@]} 12 MP JPEGs, --jobs $JOBS, best of $RUNS runs"
cargo build --release --quiet
best=""
for run in $(seq "$RUNS"); do
  rm -f "$work"/out.jsonl "$work"/state.sqlite3*
  start=$(date +%s.%N)
  target/release/riichi-lens batch "$photos_dir" --out "$work/out.jsonl" --state "$work/state.sqlite3" \
    --jobs "$JOBS" 2>/dev/null >/dev/null
  end=$(date +%s.%N)
  rate=$(awk -v n="${#photos[@]}" -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", n / (b - a) }')
  rows=$(wc -l < "$work/out.jsonl")
  echo "run $run: $rate photos/s ($rows rows)"
  if [ -z "$best" ] || awk -v r="$rate" -v b="$best" 'BEGIN { exit !(r > b) }'; then best=$rate; fi
done
echo "riichi-lens batch 12mp ($JOBS jobs): $best photos/s"

echo
if [ -x "$PEER_PY" ]; then
  echo "== peer mahjong-detector 0.0.6 (benches/peer_recognize.py)"
  peer_workers=(1)
  [ "$JOBS" != 1 ] && peer_workers+=("$JOBS")
  "$PEER_PY" benches/peer_recognize.py --frames "${frames[@]}" --far-frames "${far_frames[@]}" --photos "${photos[@]}" \
    --workers "${peer_workers[@]}" | tee -a "$log"
else
  echo "== peer skipped: $PEER_PY not found (see the comment at the top of this script)"
fi

num() { sed -nE "s/^$1.*: best ([0-9.]+) ms, median ([0-9.]+) ms.*/\\$2/p" "$log" | head -n 1; }
ours1=$(num "per-frame 720p recognize \\(1 thread\\)" 2)
ours2=$(num "per-frame 720p recognize \\(2 threads\\)" 2)
far1=$(num "per-frame 720p far \\(zoomed\\) recognize \\(1 thread\\)" 2)
far2=$(num "per-frame 720p far \\(zoomed\\) recognize \\(2 threads\\)" 2)
peer=$(num "peer per-frame 720p recognize" 2)
peer_far=$(num "peer per-frame 720p far" 2)
cpu_frame=$(num "per-frame 720p recognize \\(1 thread\\), thread cpu" 2)
cpu_photo=$(num "per-photo 12mp decode\\+recognize \\(1 thread\\), thread cpu" 2)
peer_rate=$(sed -nE 's/^peer batch 12mp .*: ([0-9.]+) photos\/s.*/\1/p' "$log" | sort -g | tail -n 1)

echo
echo "== summary ($(nproc) cores, $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "720p frame, median ms: riichi-lens ${ours1} (1 thread), ${ours2} (2 threads); peer ${peer:-n/a}"
echo "720p far shot (detector run twice), median ms: riichi-lens ${far1} (1 thread), ${far2} (2 threads); peer ${peer_far:-n/a}"
echo "12 MP batch, photos/s: riichi-lens ${best} (--jobs $JOBS); peer best ${peer_rate:-n/a}"
if [ -n "$cpu_photo" ]; then
  awk -v f="$cpu_frame" -v p="$cpu_photo" -v j="$JOBS" 'BEGIN {
    printf "CPU time (1 thread, median): %.2f ms per 720p frame, %.2f ms per 12 MP photo (decode + recognize) = at most %.1f photos/s on %d idle cores, before hashing, state commits and scoring\n", f, p, j * 1000 / p, j
  }'
fi
if [ -n "$peer" ] && [ -n "$peer_rate" ]; then
  awk -v a="$ours2" -v b="$ours1" -v p="$peer" -v r="$best" -v pr="$peer_rate" 'BEGIN {
    m = (a < b) ? a : b
    printf "ratio: frames %.1fx faster than the peer (best riichi-lens median vs peer median), batch %.1fx the peer rate\n", p / m, r / pr
  }'
fi
if [ -n "$peer_far" ] && [ -n "$far1" ]; then
  awk -v a="$far1" -v b="$far2" -v p="$peer_far" 'BEGIN {
    m = (a < b) ? a : b
    printf "ratio: far shots %.1fx faster than the peer (best riichi-lens median vs peer median)\n", p / m
  }'
fi
