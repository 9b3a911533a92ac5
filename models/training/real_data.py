"""Real-photo training / evaluation material: camerash crops and roboflow photos, as classifier crops."""
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import CLS, CROP_H, CROP_W, camerash_code, camerash_split, crop_affine, load_camerash, load_roboflow  # noqa: E402


def roboflow_image(path):
    """Roboflow images are 640x640 stretched from 16:9 webcam frames: restore 640x360. Returns RGB."""
    im = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    return cv2.resize(im, (640, 360), interpolation=cv2.INTER_AREA)


def roboflow_boxes(split):
    """-> list of (rgb_image_640x360, [(code, x1, y1, x2, y2)])"""
    out = []
    for path, boxes in load_roboflow(split):
        im = roboflow_image(path)
        H, W = im.shape[:2]
        bb = [(c, (cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H) for c, cx, cy, w, h in boxes]
        out.append((im, bb))
    return out


def camerash_crop(im, rng=None):
    """camerash tiles-resized images are the tile face filling the frame: resize to the crop size, with the
    crop margin added as replicated border (matches CROP_MARGIN=1.10)."""
    h, w = im.shape[:2]
    pw, ph = int(w * 0.05), int(h * 0.05)
    im = cv2.copyMakeBorder(im, ph, ph, pw, pw, cv2.BORDER_REPLICATE)
    if rng is not None:
        return augment_real(rng, im)
    return cv2.resize(im, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def augment_real(rng, im):
    """Random geometric + photometric augmentation of an (upright, margin-included) tile image -> crop."""
    h, w = im.shape[:2]
    cx, cy = w / 2 + rng.normal(0, 0.04) * w, h / 2 + rng.normal(0, 0.04) * h
    s = np.exp(rng.normal(0, 0.07, 2))
    phi = -math.pi / 2 + rng.normal(0, 0.06) + (math.pi if rng.random() < 0.5 else 0)
    # crop_affine expects the tile box (without margin): the image already includes ~10% margin
    M = crop_affine(cx, cy, w / 1.1 * s[0], h / 1.1 * s[1], phi)
    c = cv2.warpAffine(im, M, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    c = c.astype(np.float32)
    # resolution loss (far tiles)
    if rng.random() < 0.4:
        f = rng.uniform(0.25, 0.8)
        small = cv2.resize(c, (max(8, int(CROP_W * f)), max(10, int(CROP_H * f))), interpolation=cv2.INTER_AREA)
        c = cv2.resize(small, (CROP_W, CROP_H), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.3, 1.2))
    c = c * rng.uniform(0.8, 1.15, 3)[None, None] * rng.uniform(0.65, 1.25) + rng.uniform(-20, 20)
    c = c + rng.normal(0, rng.uniform(0, 6), c.shape)
    c = np.clip(c, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", c, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        c = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return c


def roboflow_tile_images(split, exclude_fives=True):
    """Upright tile images (with ~10% margin) cut from roboflow photos -> list of (rgb, class)."""
    out = []
    for im, bb in roboflow_boxes(split):
        for code, x1, y1, x2, y2 in bb:
            if code is None:
                continue
            if exclude_fives and code in ("5m", "5p", "5s"):
                continue  # red fives are labelled as plain fives in this dataset
            w, h = x2 - x1, y2 - y1
            mx, my = w * 0.05, h * 0.05
            xa, ya, xb, yb = int(round(x1 - mx)), int(round(y1 - my)), int(round(x2 + mx)), int(round(y2 + my))
            pad = 20
            imp = cv2.copyMakeBorder(im, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            out.append((imp[ya + pad:yb + pad, xa + pad:xb + pad].copy(), CLS[code]))
    return out


def camerash_images(split):
    out = []
    for path, code, sp in load_camerash():
        if sp != split:
            continue
        im = cv2.imread(path)
        if im is None:
            continue
        im = cv2.cvtColor(im, cv2.COLOR_BGR2RGB)
        h, w = im.shape[:2]
        pw, ph = int(w * 0.05), int(h * 0.05)
        out.append((cv2.copyMakeBorder(im, ph, ph, pw, pw, cv2.BORDER_REPLICATE), CLS[code]))
    return out


def plain_crop(im):
    """Deterministic crop (evaluation): the image is an upright tile with ~10% margin."""
    return cv2.resize(im, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def camerash_photo_labels(dataset_dir, min_match=0.9):
    """Labelled boxes on the camerash dataset's raw photos (`raw-images/`, shop and catalogue photos of many sets),
    found by locating each labelled crop of `raw-tiles/` in them: the crops are uncut pixels of those photos, so a
    normalized cross-correlation of 0.9 or more (at full size, after a search at a quarter size) places a crop
    exactly. Crops placed nowhere are left out, and a crop placed where another already is (identical tiles side by
    side match each other) is counted once. Flowers and seasons are labelled `?` (ignored: not riichi tiles).
    Not every tile of a photo has a crop, so these labels measure how many labelled tiles are found and read right,
    not how many readings are false. Returns {photo name: {"tiles": [{"code", "box", "split"}]}} and the number of
    crops left out."""
    import csv
    raw = {}
    for name in sorted(os.listdir(os.path.join(dataset_dir, "raw-images"))):
        im = cv2.imread(os.path.join(dataset_dir, "raw-images", name), cv2.IMREAD_GRAYSCALE)
        if im is not None:
            raw[name] = (im, cv2.resize(im, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA))
    labels = {name: {"tiles": []} for name in raw}
    left_out = 0
    with open(os.path.join(dataset_dir, "tiles-data", "data.csv"), encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        crop = cv2.imread(os.path.join(dataset_dir, "raw-tiles", row["image-name"]), cv2.IMREAD_GRAYSCALE)
        if crop is None or min(crop.shape) < 16:
            left_out += 1
            continue
        small = cv2.resize(crop, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        coarse = []
        for name, (_, quarter) in raw.items():
            if quarter.shape[0] >= small.shape[0] and quarter.shape[1] >= small.shape[1]:
                _, score, _, at = cv2.minMaxLoc(cv2.matchTemplate(quarter, small, cv2.TM_CCOEFF_NORMED))
                coarse.append((score, name, at))
        best = None
        for _, name, (x, y) in sorted(coarse, reverse=True)[:3]:
            im = raw[name][0]
            x0, y0 = max(0, 4 * x - 12), max(0, 4 * y - 12)
            window = im[y0:y0 + crop.shape[0] + 24, x0:x0 + crop.shape[1] + 24]
            if window.shape[0] < crop.shape[0] or window.shape[1] < crop.shape[1]:
                continue
            _, score, _, (dx, dy) = cv2.minMaxLoc(cv2.matchTemplate(window, crop, cv2.TM_CCOEFF_NORMED))
            if best is None or score > best[0]:
                best = (score, name, x0 + dx, y0 + dy)
        if best is None or best[0] < min_match:
            left_out += 1
            continue
        _, name, x, y = best
        box = [x, y, x + crop.shape[1], y + crop.shape[0]]
        tiles = labels[name]["tiles"]
        if any(_overlap(box, t["box"]) > 0.5 for t in tiles):
            continue
        code = camerash_code(row["label-name"])
        tiles.append({"code": code or "?", "box": box, "split": camerash_split(row["image-name"])})
    return {name: entry for name, entry in labels.items() if entry["tiles"]}, left_out


def _overlap(a, b):
    """Intersection over union of two [x1, y1, x2, y2] boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)
