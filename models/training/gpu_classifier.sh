#!/usr/bin/env bash
# Classifier training on a machine with a GPU and many cores: renders fresh training shards (one process per shard,
# the option sets of gpu_detector.sh's shards 30-43 with new seeds) and the held-out `test` and `testalt` sets,
# mines their "not a tile" crops (the detector's false boxes and the seams between tiles, as for version 12) and the
# roboflow photos', then fine-tunes the committed classifier on the GPU (train_cls.py --device cuda --minutes), two
# runs side by side that differ only in their learning rate. The CPU-only way to the same data and training is the
# model card's commands with train_cls.py's default --device cpu and --epochs.
#
#   models/training/gpu_classifier.sh OUTDIR DEADLINE_MINUTES
#
# OUTDIR receives each run's checkpoint, ONNX file and log (_a: --lr $LR_A, _b: --lr $LR_B); LOGS (environment,
# default OUTDIR) the data's and mining's logs. Training gets
# whatever is left of DEADLINE_MINUTES (counted from the start of this script) after the data, less LOAD_MIN minutes
# for loading the crops and exporting. SCENES=N (environment) sets the scenes per shard (default 900).
set -euo pipefail
out=$1
deadline_min=$2
start=$(date +%s)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
PY=${PY:-python3}
export RL_CACHE=${RL_CACHE:-/tmp/rl-cache} OMP_NUM_THREADS=1
LR_A=${LR_A:-5e-4} LR_B=${LR_B:-1.5e-3} LOAD_MIN=${LOAD_MIN:-1.5} DEVICE=${DEVICE:-cuda}
logs=${LOGS:-$out}
mkdir -p "$out" "$logs" "$RL_CACHE"
"$PY" -c 'import torch, sys; ok = torch.cuda.is_available() or sys.argv[1] == "cpu"; assert ok, "no GPU"; print(torch.__version__)' "$DEVICE"
"$PY" "$here/recover_ckpt.py" >"$logs/recover.log" 2>&1   # the committed models -> $RL_CACHE/ckpt_*_onnx.pt

G="$PY $here/gen_data.py --out $RL_CACHE"
# shellcheck source=models/training/shard_options.sh
. "$here/shard_options.sh"
n=${SCENES:-900}
# gpu_detector.sh's shards 30-43 as shards 50-63, with seeds 250-263, never used for a committed model
jobs=()
for k in "${!SHARD_OPTIONS[@]}"; do
  jobs+=("--name train --scenes $n --shard $((50 + k)) --seed $((250 + k)) ${SHARD_OPTIONS[k]}")
done
jobs+=(
  "--name test --scenes ${TEST_SCENES:-300} --shard 0 --seed 2 --turned-crops 0.5"
  "--name testalt --scenes ${TEST_SCENES:-300} --shard 0 --seed 9 --alt-art 1.0 --alt-fonts heldout"
)
pids=()
for j in "${jobs[@]}"; do
  # shellcheck disable=SC2086  # the options are words
  $G $j >"$logs/gen_$(echo "$j" | awk '{print $2 "_" $6}').log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
echo "data in $(($(date +%s) - start)) s"

M="$PY $here/mine_negatives.py --models $repo/models"
pids=()
for s in $(seq 50 63); do
  ($M --shards "$s-$s" --seed $((400 + s)) && $M --shards "$s-$s" --between 3 --seed $((500 + s))) \
    >"$logs/mine_$s.log" 2>&1 &
  pids+=($!)
done
$M --roboflow train,valid --seed 70 --jitter 16 --random-per-photo 100 >"$logs/mine_roboflow.log" 2>&1 &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
now=$(date +%s)
minutes=$(awk -v d="$deadline_min" -v e="$((now - start))" -v l="$LOAD_MIN" 'BEGIN { printf "%.2f", d - e / 60 - l }')
echo "negatives mined at $((now - start)) s; training for $minutes min"

# version 12's options (model card, "Version 12 classifier"), every new shard learnt from its labels, version 12
# teaching the real crops and every off-box crop
R="--none --boost-class P:2,back:2 --turned 1.0 --turned-none 0.5 --hard-neg-boost 3 --rot-deg 25 --shadow 0.3
   --shift 0.08 --dim 0.2 --threads 4 --fresh-shards 50-63 --distill $RL_CACHE/ckpt_cls_onnx.pt --distill-weight 0.8
   --distill-off 0.3 --off-any --init $RL_CACHE/ckpt_cls_onnx.pt --restore-bn 30 --bs 256 --device $DEVICE"
# shellcheck disable=SC2086  # the options are words
"$PY" "$here/train_cls.py" $R --minutes "$minutes" --lr "$LR_A" --seed 90 --ckpt "$out/ckpt_cls_a.pt" \
  --out "$out/tile_classifier_a.onnx" >"$out/train_a.log" 2>&1 &
pa=$!
# shellcheck disable=SC2086
"$PY" "$here/train_cls.py" $R --minutes "$minutes" --lr "$LR_B" --seed 91 --ckpt "$out/ckpt_cls_b.pt" \
  --out "$out/tile_classifier_b.onnx" >"$out/train_b.log" 2>&1 &
pb=$!
wait "$pa" || echo "run a failed"
wait "$pb" || echo "run b failed"
echo "done in $(($(date +%s) - start)) s"
