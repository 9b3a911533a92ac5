#!/usr/bin/env bash
# Differential soak test: N random winning hands (default 1,000,000) scored by the
# reference library mahjong==2.1.0 and by the release riichi-lens binary.
#
#   scripts/diff-million.sh            # random seed (printed)
#   scripts/diff-million.sh 12345      # reproduce a run
#   N=200000 CHUNK=20000 SHOW=50 scripts/diff-million.sh
#
# Env: RIICHI_PYTHON (default .venv/bin/python), RIICHI_BIN (skip the cargo build and
# use this binary), CARGO_TARGET_DIR (honoured for the build), N, CHUNK, SHOW.
# Chunk i uses reference seed SEED*1000+i, so one chunk can be regenerated with
#   .venv/bin/python tests/differential/reference.py --n $CHUNK --seed $((SEED*1000+i))
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-1000000}
CHUNK=${CHUNK:-50000}
SHOW=${SHOW:-20}
SEED=${1:-${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}
PY=${RIICHI_PYTHON:-$ROOT/.venv/bin/python}
DIFF=$ROOT/tests/differential

if [ ! -x "$PY" ]; then
  echo "error: $PY not found; run scripts/setup.sh (creates .venv with tests/differential/requirements.txt)" >&2
  exit 2
fi

BIN=${RIICHI_BIN:-}
if [ -z "$BIN" ]; then
  echo "building release binary..." >&2
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" --bin riichi-lens
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/riichi-lens"
fi
[ -x "$BIN" ] || { echo "error: binary $BIN not found" >&2; exit 2; }

echo "seed: $SEED  (reproduce: scripts/diff-million.sh $SEED)"
echo "hands: $N in chunks of $CHUNK, binary: $BIN"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/riichi-diff.XXXXXX")
gen_pid=""
cleanup() {
  if [ -n "$gen_pid" ]; then kill "$gen_pid" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

chunks=$(( (N + CHUNK - 1) / CHUNK ))
size_of() { local i=$1; local left=$(( N - i * CHUNK )); [ "$left" -lt "$CHUNK" ] && echo "$left" || echo "$CHUNK"; }
generate() {  # generate chunk $1 into $WORK/ref-$1.jsonl
  local i=$1
  "$PY" "$DIFF/reference.py" --quiet --n "$(size_of "$i")" --seed $(( SEED * 1000 + i )) \
    --out "$WORK/ref-$i.jsonl" 2>"$WORK/gen-$i.log"
}

start=$(date +%s)
generate 0
summaries=()
for (( i = 0; i < chunks; i++ )); do
  # generate the next chunk while this one is compared
  gen_pid=""
  if (( i + 1 < chunks )); then generate $(( i + 1 )) & gen_pid=$!; fi
  "$PY" "$DIFF/compare.py" --binary "$BIN" --ref "$WORK/ref-$i.jsonl" --show "$SHOW" \
    --summary-out "$WORK/summary-$i.json" || true
  summaries+=("$WORK/summary-$i.json")
  rm -f "$WORK/ref-$i.jsonl"
  "$PY" - "$WORK/summary-$i.json" "$i" "$chunks" "$(tr -d '\n' < "$WORK/gen-$i.log")" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
print("chunk %d/%d: %d compared, %d disagreements  [%s]"
      % (int(sys.argv[2]) + 1, int(sys.argv[3]), s["compared"], s["disagreements"], sys.argv[4]), flush=True)
PYEOF
  if [ -n "$gen_pid" ]; then wait "$gen_pid"; gen_pid=""; fi
done

echo "elapsed: $(( $(date +%s) - start ))s, seed: $SEED"
"$PY" "$DIFF/compare.py" --aggregate "${summaries[@]}" --show "$SHOW"
