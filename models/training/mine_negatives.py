"""Mine "not a tile" crops for the classifier's extra output (index 38, `none`).

The detector is class-agnostic and fires on tile-like things (keycaps, cards, felt gaps between standing tiles). Its
false positives on the generated training scenes, where every tile's position is known, are cut as crops the way the
runtime cuts them (the box as detected, and turned 90 degrees, since every box is read both ways) and labelled `none`;
a few random tile-sized boxes away from the tiles are added per scene. train_cls.py picks them up from
`.cache-train/cls/neg_*.npz`. Each crop is also marked `hard` when the classifier in `--models` lets it through
(a detection's two readings' mean "not a tile" probability below the runtime's threshold), so that training can
repeat the negatives the current veto misses (train_cls.py --hard-neg-boost).

With `--roboflow train,valid` it mines the roboflow photos' splits instead (never `test`, kept for evaluation): real
webcam frames whose book spines (vertical Japanese titles), cards and boxes the detector takes for tiles and the
generator cannot draw. Every tile there is labelled, so a detection away from the labels is a false one; each is cut
`--jitter` times with a little box noise, and `--random-per-photo` tile-sized boxes away from the tiles are added.

With `--photos` it mines scikit-image's bundled photos that are public domain or CC0 (`PHOTOS`: people, a cat, a
coffee cup, a rocket, a cameraman, coins, printed text, bricks, grass, gravel, the sky): pictures with no tile in them,
as a laptop's wallpaper or a poster behind a hand would be. Each is read at several sizes; every detection is cut
`--jitter` times and `--random-per-photo` random tile-sized boxes are added per size.

With `--between N` it cuts, instead of the detector's false detections, N boxes per scene over the seam or gap between
two neighbouring tiles (between_boxes): the detector sometimes draws such a box, and it must read as "not a tile".

    .venv-train/bin/python models/training/mine_negatives.py --models models --shards 20-25
    .venv-train/bin/python models/training/mine_negatives.py --models models --shards 38-38 --between 3
    .venv-train/bin/python models/training/mine_negatives.py --models models --roboflow train,valid
    .venv-train/bin/python models/training/mine_negatives.py --models models --photos
"""
import argparse
import itertools
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import CACHE, CROP_H, CROP_W, NONE, REPO, cut_crop, iter_scenes, shard_range  # noqa: E402
from reference_infer import NOT_TILE_T, Recognizer  # noqa: E402
import real_data  # noqa: E402

cv2.setNumThreads(1)


def near_a_tile(x, y, labels, factor):
    """Whether (x, y) lies within `factor` half-diagonals of a labelled tile (ignored ones included)."""
    if len(labels) == 0:
        return False
    d = np.hypot(labels[:, 1] - x, labels[:, 2] - y)
    r = 0.5 * np.hypot(labels[:, 3], labels[:, 4])
    return bool((d < factor * r).any())


def random_box_away(img, labels, tile_w, spread, rng):
    """The crop of a random tile-sized box (width `tile_w` times e^±`spread`, any angle) centred away from every
    labelled tile, or None when 10 tries all land near one."""
    H, W = img.shape[:2]
    for _try in range(10):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        if not near_a_tile(x, y, labels, 1.6):
            w = tile_w * math.exp(rng.uniform(-spread, spread))
            return cut_crop(img, x, y, w, w * rng.uniform(1.2, 1.5), rng.uniform(-math.pi, math.pi))
    return None


def missed_by_veto(rec, x, groups):
    """Per crop, whether the classifier's veto misses its box: the mean "not a tile" probability over the box's
    readings (its crops sharing a group) is below the runtime's threshold. All True for a classifier without
    that output."""
    p = np.concatenate([rec.classify(x[i:i + 256]) for i in range(0, len(x), 256)]) if len(x) else np.zeros((0, 1))
    if p.shape[1] <= NONE:
        return np.ones(len(x), bool)
    total = np.bincount(groups, weights=p[:, NONE])
    count = np.bincount(groups)
    return (total / count)[groups] < NOT_TILE_T


class Negatives:
    """The "not a tile" crops of one output file, grouped by box: the readings of one box share a group, which the
    veto judges as a whole (missed_by_veto)."""

    def __init__(self):
        self.crops, self.groups, self.mined, self.randoms = [], [], 0, 0

    def add_detection(self, crops):
        """The readings of one false detection (or of one cut of it)."""
        self.groups += [self.mined + self.randoms] * len(crops)
        self.crops += crops
        self.mined += 1

    def add_random(self, crop):
        """A random box's crop; None (no place found) adds nothing."""
        if crop is None:
            return
        self.groups.append(self.mined + self.randoms)
        self.crops.append(crop)
        self.randoms += 1

    def save(self, name, rec):
        """Write the crops to cls/neg_NAME.npz, each marked `hard` where the classifier in `rec` lets its box through."""
        out = os.path.join(CACHE, "cls", f"neg_{name}.npz")
        x = np.array(self.crops, np.uint8).reshape(-1, CROP_H, CROP_W, 3)
        hard = missed_by_veto(rec, x, np.array(self.groups, np.int64))
        np.savez_compressed(out, x=x, y=np.full(len(x), NONE, np.int64), hard=hard)
        print(f"{name}: {self.mined} false detections or cuts of them (x2 orientations), {self.randoms} random "
              f"boxes, {int(hard.sum())} of {len(x)} crops not vetoed -> {out}", flush=True)


# scikit-image's bundled photos whose documented licence is public domain or CC0 (skimage.data docstrings).
PHOTOS = ("astronaut", "chelsea", "coffee", "rocket", "hubble_deep_field", "immunohistochemistry", "retina",
          "camera", "coins", "text", "brick", "grass", "gravel")


# Grey-level standard deviation under which a random patch of a photo counts as smooth (see mine_photos).
MIN_TEXTURE = 20.0


def cut_jittered(img, b, k, rng):
    """Both readings of box `b` (along its axis and a quarter turn from it, either way up at random), cut the way the
    runtime reads it; cut `k` = 0 is the box as detected, cut `k` > 0 moves, scales and turns it a little, as a
    slightly different frame of the same clutter would."""
    s = math.exp(rng.uniform(-0.1, 0.1)) if k else 1.0
    dx, dy = (rng.uniform(-0.1, 0.1, 2) * b["w"]) if k else (0.0, 0.0)
    dphi = math.radians(rng.uniform(-10, 10)) if k else 0.0
    out = []
    for turn in (0.0, math.pi / 2):
        w, h = (b["w"], b["h"]) if turn == 0 else (b["h"], b["w"])
        out.append(cut_crop(img, b["cx"] + dx, b["cy"] + dy, w * s, h * s,
                            b["phi"] + dphi + turn + rng.choice([0, math.pi])))
    return out


def between_boxes(L, rng, per_scene, spread=0.1):
    """Up to `per_scene` boxes, each the size of a tile (one of two neighbours, picked at random, times e^±`spread`)
    centred on the seam or gap between the two, 0.4-0.6 of the way from one to the other: where the detector
    sometimes draws a box half over each tile of a row, or over the bare table between a set-apart tile and its row,
    which must read as "not a tile". `L`: a scene's labels (class, cx, cy, w, h, phi, ignore). Neighbours lie
    0.8-2.2 tile widths apart; a pair of sideways tiles is skipped (an added kan's stacked pair, which the runtime
    reads whole), as is a centre within 0.35 tile widths of any tile's."""
    if len(L) < 2:
        return []
    width = np.minimum(L[:, 3], L[:, 4])
    # each tile's long axis, and the scene's: the called (sideways) tiles are those across it
    long_axis = np.where(L[:, 4] >= L[:, 3], L[:, 5], L[:, 5] + math.pi / 2)
    scene_axis = 0.5 * math.atan2(np.sin(2 * long_axis).sum(), np.cos(2 * long_axis).sum())
    across = np.abs(np.sin(long_axis - scene_axis)) > math.sqrt(0.5)
    pairs = []
    for a in range(len(L)):
        for b in range(a + 1, len(L)):
            u = 0.5 * (width[a] + width[b])
            d = math.hypot(L[b, 1] - L[a, 1], L[b, 2] - L[a, 2])
            if u >= 12 and 0.8 * u <= d <= 2.2 * u and not (across[a] and across[b]):
                pairs.append((a, b))
    out = []
    for k in rng.permutation(len(pairs))[:per_scene]:
        a, b = pairs[k]
        t = rng.uniform(0.4, 0.6)
        cx, cy = L[a, 1] + t * (L[b, 1] - L[a, 1]), L[a, 2] + t * (L[b, 2] - L[a, 2])
        if (np.hypot(L[:, 1] - cx, L[:, 2] - cy) < 0.35 * width).any():
            continue
        src = L[a] if rng.random() < 0.5 else L[b]
        s = math.exp(rng.uniform(-spread, spread))
        out.append({"cx": cx, "cy": cy, "w": float(src[3]) * s, "h": float(src[4]) * s,
                    "phi": float(src[5]) + math.radians(rng.uniform(-5, 5))})
    return out


def mine_photos(rec, rng, jitter, random_per_photo):
    """False detections and random boxes of PHOTOS, each at long sides 640, 960 and 1440."""
    import skimage.data
    neg = Negatives()
    for name in PHOTOS:
        img = getattr(skimage.data, name)()
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2RGB) if img.ndim == 2 else img[:, :, :3]
        for long_side in (640, 960, 1440):
            s = long_side / max(img.shape[:2])
            im = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)),
                            interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
            for b in rec.detect(im):
                for k in range(jitter):
                    neg.add_detection(cut_jittered(im, b, k, rng))
            H, W = im.shape[:2]
            for _ in range(random_per_photo):
                w = long_side * math.exp(rng.uniform(math.log(0.02), math.log(0.12)))
                crop = cut_crop(im, rng.uniform(0, W), rng.uniform(0, H), w, w * rng.uniform(1.2, 1.5),
                                rng.uniform(-math.pi, math.pi))
                # a smooth patch (fur, sky, a wall) looks like a blank white dragon's face: taught as "not a
                # tile", it would teach the veto to swallow white dragons, so only patches with some texture
                if cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY).std() >= MIN_TEXTURE:
                    neg.add_random(crop)
    neg.save("photos", rec)


def mine_roboflow(rec, split, rng, jitter, random_per_photo):
    """False detections and random boxes of one roboflow split (photos at 640x360, as the evaluation reads them)."""
    neg = Negatives()
    for img, bb in real_data.roboflow_boxes(split):
        # labels as mine's (ignored, cx, cy, w, h) rows, so near_a_tile reads them as it reads a scene's
        L = np.array([[0, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1] for _, x1, y1, x2, y2 in bb]).reshape(-1, 5)
        for b in rec.detect(img):
            if near_a_tile(b["cx"], b["cy"], L, 0.7):
                continue
            for k in range(jitter):
                neg.add_detection(cut_jittered(img, b, k, rng))
        if len(L) == 0:
            continue
        tw = float(np.median(np.minimum(L[:, 3], L[:, 4])))
        for _ in range(random_per_photo):
            neg.add_random(random_box_away(img, L, tw, 0.4, rng))
    neg.save(f"roboflow_{split}", rec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(REPO, "models"))
    ap.add_argument("--shards", default="20-25", help="training shard numbers, e.g. 20-25")
    ap.add_argument("--random-per-scene", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--roboflow", default=None, help="mine these roboflow splits instead of shards, e.g. train,valid")
    ap.add_argument("--photos", action="store_true", help="mine scikit-image's public-domain / CC0 photos instead")
    ap.add_argument("--between", type=int, default=0,
                    help="shards: instead of the detector's false detections, this many boxes per scene over the seam "
                         "or gap between two neighbouring tiles (between_boxes), saved as neg_between_N")
    ap.add_argument("--between-spread", type=float, default=0.1,
                    help="--between: the boxes' size is a tile's times e^±this")
    ap.add_argument("--name", default=None,
                    help="shards: the output name, {} for the shard number (default: {}, or between_{})")
    ap.add_argument("--jitter", type=int, default=8, help="roboflow, photos: cuts per false detection")
    ap.add_argument("--random-per-photo", type=int, default=40,
                    help="roboflow, photos: random boxes per photo (photos: per size)")
    args = ap.parse_args()
    wanted = set(shard_range(args.shards))
    rng = np.random.default_rng(args.seed)
    rec = Recognizer(args.models, threads=1)
    if args.photos:
        mine_photos(rec, rng, args.jitter, args.random_per_photo)
        return
    if args.roboflow:
        for split in args.roboflow.split(","):
            if split == "test":
                raise SystemExit("the roboflow test split is kept for evaluation")
            mine_roboflow(rec, split, rng, args.jitter, args.random_per_photo)
        return
    for shard, scenes in itertools.groupby(iter_scenes("train", shards=wanted), key=lambda scene: scene[0]):
        neg = Negatives()
        for _, img, L in scenes:
            if args.between:
                for b in between_boxes(L, rng, args.between, args.between_spread):
                    neg.add_detection(cut_jittered(img, b, 0, rng))
                continue
            for b in rec.detect(img):
                if b["w"] < 14 or near_a_tile(b["cx"], b["cy"], L, 0.7):
                    continue
                neg.add_detection(cut_jittered(img, b, 0, rng))
            real = L[L[:, 6] == 0]
            if len(real) == 0:
                continue
            tw = float(np.median(real[:, 3]))
            for _ in range(args.random_per_scene):
                neg.add_random(random_box_away(img, L, tw, 0.3, rng))
        neg.save((args.name or ("between_{}" if args.between else "{}")).format(shard), rec)


if __name__ == "__main__":
    main()
