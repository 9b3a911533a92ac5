#!/usr/bin/env bash
# Detector training on a machine with a GPU and many cores: regenerates the training shards 30-43 with the model
# card's commands (one process per shard), then runs train_det.py on the GPU with batch workers. The CPU-only way to
# the same data and training is the model card's commands with train_det.py's default --device cpu.
#
#   models/training/gpu_detector.sh OUTDIR DEADLINE_MINUTES [train_det.py options...]
#
# OUTDIR receives the checkpoint (ckpt_det_gpu.pt, saved every 300 steps) and tile_detector_gpu.onnx. Training gets
# whatever is left of DEADLINE_MINUTES (counted from the start of this script) after the data, less one minute for
# the export. The options given after DEADLINE_MINUTES go to train_det.py (--init, --lr, --bs, --seed, ...).
# SCENES=N (environment) makes every shard N scenes instead of the model card's 1500 (1000 for shards 42-43), leaving
# more of the deadline to training.
set -euo pipefail
out=$1
deadline_min=$2
shift 2
start=$(date +%s)
here=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3}
export RL_CACHE=${RL_CACHE:-/tmp/rl-cache} OMP_NUM_THREADS=1
mkdir -p "$out" "$RL_CACHE"
"$PY" -c 'import torch; assert torch.cuda.is_available(), "no GPU"; print(torch.__version__, torch.cuda.get_device_name())'

G="$PY $here/gen_data.py --out $RL_CACHE --name train"
O="--keyboard 0.5 --hard-negatives 0.8 --no-white-backs"
O2="--keyboard 0.6 --real-keyboards 0.8 --hard-negatives 0.8 --no-white-backs --haku-frames 0.15"
A="--alt-art 0.8 --turned-crops 0.5"
n1=${SCENES:-1500} n2=${SCENES:-1000}
OG="$O2 --grids 0.5 --tile-min 18"
shards=(
  "--scenes $n1 --shard 30 --seed 21 $O2 --turned-crops 0.5"
  "--scenes $n1 --shard 31 --seed 22 --tile-min 24 --tile-max 170 $O2 --turned-crops 0.5"
  "--scenes $n1 --shard 32 --seed 23 $O2 --turned-crops 0.5"
  "--scenes $n1 --shard 33 --seed 24 --tile-min 18 --tile-max 130 $O --turned-crops 0.5"
  "--scenes $n1 --shard 34 --seed 25 $O --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "--scenes $n1 --shard 35 --seed 26 --tile-min 18 --tile-max 140 $O --real-keyboards 0.8 --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "--scenes $n1 --shard 36 --seed 27 $O2 --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "--scenes $n1 --shard 37 --seed 28 --tile-min 13 --tile-max 80 $O --real-keyboards 0.5 --added-kans 0.6 --turned-crops 0.5"
  "--scenes $n1 --shard 38 --seed 29 $O2 $A"
  "--scenes $n1 --shard 39 --seed 30 --tile-min 24 --tile-max 170 $O2 $A"
  "--scenes $n1 --shard 40 --seed 31 --tile-min 13 --tile-max 80 $O --real-keyboards 0.5 --added-kans 0.6 $A"
  "--scenes $n1 --shard 41 --seed 32 --tile-min 18 --tile-max 130 $O --added-kans 0.6 --extra-haku 0.06 $A"
  "--scenes $n2 --shard 42 --seed 92 $OG"
  "--scenes $n2 --shard 43 --seed 93 $OG --alt-art 0.5"
)
pids=()
for s in "${shards[@]}"; do
  # shellcheck disable=SC2086  # the options are words
  $G $s >"$RL_CACHE/gen_$(echo "$s" | awk '{print $4}').log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
tail -qn1 "$RL_CACHE"/gen_*.log
now=$(date +%s)
minutes=$(awk -v d="$deadline_min" -v e="$((now - start))" 'BEGIN { printf "%.2f", d - e / 60 - 1 }')
echo "data in $((now - start)) s; training for $minutes min"
"$PY" "$here/train_det.py" --device cuda --workers "$(($(nproc) - 2))" --threads 4 --minutes "$minutes" \
  --ckpt "$out/ckpt_det_gpu.pt" --out "$out/tile_detector_gpu.onnx" "$@"
