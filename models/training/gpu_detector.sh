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
# shellcheck source=models/training/shard_options.sh
. "$here/shard_options.sh"
n1=${SCENES:-1500} n2=${SCENES:-1000}
seeds=(21 22 23 24 25 26 27 28 29 30 31 32 92 93)
shards=()
for k in "${!SHARD_OPTIONS[@]}"; do
  n=$n1
  [ "$k" -lt 12 ] || n=$n2   # shards 42-43 are smaller
  shards+=("--scenes $n --shard $((30 + k)) --seed ${seeds[k]} ${SHARD_OPTIONS[k]}")
done
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
