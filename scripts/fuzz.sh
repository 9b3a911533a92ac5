#!/usr/bin/env bash
# Runs the cargo-fuzz targets in fuzz/ one after the other, each for a fixed time.
#
#   scripts/fuzz.sh            # notation, then jsonl, 600 s each
#   scripts/fuzz.sh 60         # 60 s each
#   TARGETS=jsonl scripts/fuzz.sh 30
#   KEEP_CORPUS=1 scripts/fuzz.sh   # continue from fuzz/corpus/<target> instead of fresh seeds
#   KEEP_GOING=0 scripts/fuzz.sh    # stop a target at its first crash instead
#
# By default libFuzzer runs in fork mode with -ignore_crashes/-ignore_timeouts/-ignore_ooms,
# so each target really runs for the whole time and every failing input is saved; the summary
# counts the artifacts written during this run and lists the distinct panic sites.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). The toolchain is stable, so the nightly-only
# flags cargo-fuzz passes (-Zsanitizer=address, ...) are enabled with RUSTC_BOOTSTRAP=1.
# Targets are built in release mode with debug assertions and overflow checks (-a), so an
# arithmetic overflow is a crash, as it would be in a debug build.
#
# Seed corpora are generated here from benches/hands.jsonl (plus a few hand-written requests
# that switch on unusual rules). Crashes land in fuzz/artifacts/<target>/; reproduce one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -a <target> fuzz/artifacts/<target>/crash-...
# and minimise it with `cargo fuzz tmin -a <target> <file>`.
# Each run's libFuzzer log is kept in fuzz/artifacts/<target>.log.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

SECONDS_EACH=${1:-600}
TARGETS=${TARGETS:-notation jsonl}
NICE=${NICE:-10}
export RUSTC_BOOTSTRAP=1
# Build in fuzz/target (fuzz/ is its own workspace), whatever the caller's target dir is.
unset CARGO_TARGET_DIR

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: cargo-fuzz not found; cargo install cargo-fuzz" >&2
  exit 2
fi
PY=$(command -v python3 || true)
[ -x .venv/bin/python ] && PY=.venv/bin/python
if [ -z "$PY" ]; then
  echo "fuzz.sh: python3 is needed to write the seed corpora" >&2
  exit 2
fi

seed_corpus() {
  local target=$1 dir=fuzz/corpus/$1
  if [ "${KEEP_CORPUS:-0}" != 1 ]; then
    rm -rf "$dir"
  fi
  mkdir -p "$dir"
  "$PY" - "$target" "$dir" <<'EOF'
import hashlib, json, os, sys

target, out = sys.argv[1], sys.argv[2]
seeds = set()
with open("benches/hands.jsonl", encoding="utf-8") as f:
    lines = [line.strip() for line in f if line.strip()]
if target == "jsonl":
    seeds.update(lines)
    base = json.loads(lines[0])
    for extra in (
        {"rules": {"preset": "wrc", "aotenjou": True, "yakuman_stacking": True}},
        {"rules": "sanma", "kita": 2, "hand": "19p19s1234567z", "melds": [], "win": "1z"},
        {"rules": {"wareme": True}, "wareme": "S", "discarder": "S"},
        {"rules": {"renhou": "yakuman"}, "renhou": True, "seat_wind": "S"},
        {"nagashi_mangan": True, "rules": {"nagashi_mangan": True}},
        {"honba": 100, "riichi_sticks": 50, "rules": {"honba_value": 1500}},
        # The two overflows found in the first runs (now the error points_overflow).
        {"hand": "123m456p789s11155z", "riichi": True, "honba": 4294967295,
         "riichi_sticks": 4294967295, "rules": {"honba_value": 4294967295}},
        {"hand": "11122233344455z", "tsumo": True, "melds": [], "win": None,
         "rules": {"aotenjou": True, "yakuman_stacking": True, "double_yakuman": True}},
        {"dora_indicators": ["1m", "2m"], "ura_indicators": ["E"]},
        {"hand": "123m456p11z [789s] (5555p)", "melds": [], "win": None},
    ):
        req = dict(base)
        req.update(extra)
        seeds.add(json.dumps(req, separators=(",", ":")))
else:
    for line in lines:
        req = json.loads(line)
        seeds.add(req["hand"])
        seeds.update(req["melds"])
        seeds.add(" ".join([req["hand"]] + req["melds"]))
        for key in ("dora_indicators", "ura_indicators", "win"):
            if req.get(key):
                seeds.add(req[key])
    seeds.update(["ESWNPFC", "[3*45s]", "{55*05p}", "[0*55m]", "1122z [3*45s] {55*05p} [0*55m]"])
for seed in sorted(seeds):
    data = seed.encode("utf-8")
    name = "seed-" + hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print("fuzz.sh: %d seeds in %s" % (len(seeds), out))
EOF
}

status=0
for target in $TARGETS; do
  case $target in
    notation) max_len=256 ;;
    jsonl) max_len=1024 ;;
    *) echo "fuzz.sh: unknown target $target" >&2; exit 2 ;;
  esac
  seed_corpus "$target"
  mkdir -p "fuzz/artifacts/$target"
  log=fuzz/artifacts/$target.log
  echo "== $target: building"
  nice -n "$NICE" cargo fuzz build -a "$target"
  echo "== $target: fuzzing for ${SECONDS_EACH}s (log: $log)"
  keep_going=()
  if [ "${KEEP_GOING:-1}" = 1 ]; then
    keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  stamp=$(mktemp)
  set +e
  nice -n "$NICE" cargo fuzz run -a "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$SECONDS_EACH" -max_len="$max_len" -timeout=10 \
    -dict="fuzz/$target.dict" -print_final_stats=1 "${keep_going[@]}" >"$log" 2>&1
  rc=$?
  set -e
  # Executions and fuzzing time as libFuzzer reports them (plain mode: the final stats;
  # fork mode: the last status line).
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
  [ -n "$execs" ] || execs=$(sed -nE 's/^#([0-9]+):? .*/\1/p' "$log" | tail -n 1)
  secs=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p; s/^INFO: exiting: [0-9-]+ time: ([0-9]+)s.*/\1/p' \
    "$log" | tail -n 1)
  crashes=$(find "fuzz/artifacts/$target" -type f -newer "$stamp" \( -name 'crash-*' \
    -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  rm -f "$stamp"
  grep -v '^INFO: log from the inner process' "$log" | tail -n 12
  echo "== $target: exit $rc, fuzzed ${secs:-?}s, executions ${execs:-?}," \
    "corpus $(find "fuzz/corpus/$target" -type f | wc -l) files," \
    "new artifacts (crash/leak/timeout/oom) $crashes"
  if grep -q 'panicked at' "$log"; then
    echo "== $target: distinct panics (count, site, message):"
    awk '/panicked at/ { site = $0; sub(/.*panicked at /, "", site); sub(/:$/, "", site);
      getline msg; print site " " msg }' "$log" | sort | uniq -c | sort -rn
  fi
  if [ "$crashes" -gt 0 ] && [ "$rc" -eq 0 ]; then
    rc=1
  fi
  if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: $target found a failing input; see $log and fuzz/artifacts/$target/" >&2
    status=$rc
  fi
done
exit "$status"
