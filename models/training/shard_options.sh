# The option sets of the model card's training shards 30-43 (gen_data.py), one per shard in that order, for the
# scripts that render them again: gpu_detector.sh (shards 30-43 with the model card's seeds) and gpu_classifier.sh
# (the same option sets as shards 50-63, with new seeds). Sourced, not run.
O="--keyboard 0.5 --hard-negatives 0.8 --no-white-backs"
O2="--keyboard 0.6 --real-keyboards 0.8 --hard-negatives 0.8 --no-white-backs --haku-frames 0.15"
A="--alt-art 0.8 --turned-crops 0.5"
OG="$O2 --grids 0.5 --tile-min 18"
# shellcheck disable=SC2034  # used by the scripts that source this file
SHARD_OPTIONS=(
  "$O2 --turned-crops 0.5"
  "--tile-min 24 --tile-max 170 $O2 --turned-crops 0.5"
  "$O2 --turned-crops 0.5"
  "--tile-min 18 --tile-max 130 $O --turned-crops 0.5"
  "$O --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "--tile-min 18 --tile-max 140 $O --real-keyboards 0.8 --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "$O2 --added-kans 0.6 --extra-haku 0.06 --turned-crops 0.5"
  "--tile-min 13 --tile-max 80 $O --real-keyboards 0.5 --added-kans 0.6 --turned-crops 0.5"
  "$O2 $A"
  "--tile-min 24 --tile-max 170 $O2 $A"
  "--tile-min 13 --tile-max 80 $O --real-keyboards 0.5 --added-kans 0.6 $A"
  "--tile-min 18 --tile-max 130 $O --added-kans 0.6 --extra-haku 0.06 $A"
  "$OG"
  "$OG --alt-art 0.5"
)
