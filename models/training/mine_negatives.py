"""Mine "not a tile" crops for the classifier's extra output (index 38, `none`).

The detector is class-agnostic and fires on tile-like things (keycaps, cards, felt gaps between standing tiles). Its
false positives on the generated training scenes, where every tile's position is known, are cut as crops the way the
runtime cuts them (the box as detected, and turned 90 degrees, since every box is read both ways) and labelled `none`;
a few random tile-sized boxes away from the tiles are added per scene. train_cls.py picks them up from
`.cache-train/cls/neg_*.npz`.

    .venv-train/bin/python models/training/mine_negatives.py --models models --shards 20-25
"""
import argparse
import glob
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import CACHE, CROP_H, CROP_W, NONE, REPO, cut_crop  # noqa: E402
from reference_infer import Recognizer  # noqa: E402

cv2.setNumThreads(1)


def near_a_tile(x, y, labels, factor):
    """Whether (x, y) lies within `factor` half-diagonals of a labelled tile (ignored ones included)."""
    if len(labels) == 0:
        return False
    d = np.hypot(labels[:, 1] - x, labels[:, 2] - y)
    r = 0.5 * np.hypot(labels[:, 3], labels[:, 4])
    return bool((d < factor * r).any())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(REPO, "models"))
    ap.add_argument("--shards", default="20-25", help="training shard numbers, e.g. 20-25")
    ap.add_argument("--random-per-scene", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    lo, _, hi = args.shards.partition("-")
    wanted = set(range(int(lo), int(hi or lo) + 1))
    rng = np.random.default_rng(args.seed)
    rec = Recognizer(args.models, threads=1)
    for f in sorted(glob.glob(os.path.join(CACHE, "det", "train_*.npz"))):
        shard = int(os.path.basename(f)[len("train_"):-4])
        if shard not in wanted:
            continue
        d = np.load(f, allow_pickle=True)
        offs, labs = d["offsets"], d["labels"]
        crops, mined, randoms = [], 0, 0
        for i, buf in enumerate(d["jpg"]):
            img = cv2.cvtColor(cv2.imdecode(np.frombuffer(buf, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
            L = labs[offs[i]:offs[i + 1]]
            for b in rec.detect(img):
                if b["w"] < 14 or near_a_tile(b["cx"], b["cy"], L, 0.7):
                    continue
                for turn in (0.0, math.pi / 2):
                    w, h = (b["w"], b["h"]) if turn == 0 else (b["h"], b["w"])
                    crops.append(cut_crop(img, b["cx"], b["cy"], w, h, b["phi"] + turn + rng.choice([0, math.pi])))
                mined += 1
            real = L[L[:, 6] == 0]
            if len(real) == 0:
                continue
            tw = float(np.median(real[:, 3]))
            H, W = img.shape[:2]
            for _ in range(args.random_per_scene):
                for _try in range(10):
                    x, y = rng.uniform(0, W), rng.uniform(0, H)
                    if not near_a_tile(x, y, L, 1.6):
                        w = tw * math.exp(rng.uniform(-0.3, 0.3))
                        crops.append(cut_crop(img, x, y, w, w * rng.uniform(1.2, 1.5), rng.uniform(-math.pi, math.pi)))
                        randoms += 1
                        break
        out = os.path.join(CACHE, "cls", f"neg_{shard}.npz")
        x = np.array(crops, np.uint8).reshape(-1, CROP_H, CROP_W, 3)
        np.savez_compressed(out, x=x, y=np.full(len(x), NONE, np.int64))
        print(f"shard {shard}: {mined} false detections (x2 orientations), {randoms} random boxes -> {out}",
              flush=True)


if __name__ == "__main__":
    main()
