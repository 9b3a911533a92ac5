"""Shared definitions for the riichi-lens tile recognizer (classes, dataset mappings, crop geometry)."""
import glob
import hashlib
import os

import cv2
import numpy as np

# 38 classes, index order is the model's output order.
CLASSES = (
    [f"{i}m" for i in range(1, 10)]
    + [f"{i}p" for i in range(1, 10)]
    + [f"{i}s" for i in range(1, 10)]
    + ["E", "S", "W", "N", "P", "F", "C"]  # winds; P=white (haku), F=green (hatsu), C=red (chun)
    + ["0m", "0p", "0s"]  # red fives
    + ["back"]
)
NUM_CLASSES = len(CLASSES)
# Classifiers trained with mined negatives (mine_negatives.py, train_cls.py --none) have one more output after the 38
# tile classes: the probability that the crop is not a tile at all (a keycap, a card, a felt gap).
NONE = NUM_CLASSES
CLS = {c: i for i, c in enumerate(CLASSES)}
BACK = CLS["back"]

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ART_DIR = os.path.join(REPO, "assets", "riichi-tiles-fluffystuff")
# The real-photo data training uses, carried by the repository with its licences (datasets/training/README.md), so
# that training needs nothing from outside it.
CAMERASH = os.path.join(REPO, "datasets", "training", "camerash")
ROBOFLOW = os.path.join(REPO, "datasets", "training", "roboflow-mahjong-bmblq-v5")
CACHE = os.environ.get("RL_CACHE", os.path.join(REPO, ".cache-train"))


def decode(buf):
    """An RGB image from JPEG bytes."""
    return cv2.cvtColor(cv2.imdecode(np.frombuffer(buf, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def iter_scenes(name, encoded=False, shards=None):
    """Yields (shard number, image, labels [n,7] = cls,cx,cy,w,h,phi,ignore) for each scene of the generated set
    `name` in the cache (det/`name`_N.npz), shard by shard; the image decoded to RGB, or its JPEG bytes when
    `encoded`. `shards`: only the shards with these numbers (the others are not read)."""
    for f in sorted(glob.glob(os.path.join(CACHE, "det", f"{name}_*.npz"))):
        shard = int(os.path.basename(f)[len(name) + 1:-4])
        if shards is not None and shard not in shards:
            continue
        d = np.load(f, allow_pickle=True)
        offs, labs = d["offsets"], d["labels"]
        for i, buf in enumerate(d["jpg"]):
            yield shard, (buf if encoded else decode(buf)), labs[offs[i]:offs[i + 1]].copy()


def shard_range(spec):
    """Shard numbers of "A-B" (or "A", or "" for none), as the scripts' --shards and --fresh-shards give them."""
    if not spec:
        return range(0)
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


# FluffyStuff art file name -> class code
ART_NAMES = {}
for i in range(1, 10):
    ART_NAMES[f"Man{i}"] = f"{i}m"
    ART_NAMES[f"Pin{i}"] = f"{i}p"
    ART_NAMES[f"Sou{i}"] = f"{i}s"
ART_NAMES.update({"Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Haku": "P", "Hatsu": "F", "Chun": "C",
                  "Man5-Dora": "0m", "Pin5-Dora": "0p", "Sou5-Dora": "0s"})

# camerash (Chinese set) label names -> riichi code; bonus-* (flowers/seasons) are not riichi tiles -> None
def camerash_code(name):
    kind, _, v = name.partition("-")
    if kind == "dots":
        return f"{v}p"
    if kind == "bamboo":
        return f"{v}s"
    if kind == "characters":
        return f"{v}m"
    if kind == "honors":
        return {"east": "E", "south": "S", "west": "W", "north": "N", "red": "C", "green": "F", "white": "P"}[v]
    return None

# roboflow data.yaml names -> riichi code ('0' is an unknown/ignore class)
ROBOFLOW_NAMES = ['0', '1_man', '1_pin', '1_sou', '2_man', '2_pin', '2_sou', '3_man', '3_pin', '3_sou', '4_man',
                  '4_pin', '4_sou', '5_man', '5_pin', '5_sou', '6_man', '6_pin', '6_sou', '7_man', '7_pin', '7_sou',
                  '8_man', '8_pin', '8_sou', '9_man', '9_pin', '9_sou', 'chun', 'haku', 'hatsu', 'nan', 'pe-', 'sya-',
                  'ton']


def roboflow_code(idx):
    n = ROBOFLOW_NAMES[idx]
    if n == '0':
        return None
    if "_" in n:
        v, s = n.split("_")
        return v + {"man": "m", "pin": "p", "sou": "s"}[s]
    return {"chun": "C", "haku": "P", "hatsu": "F", "nan": "S", "pe-": "N", "sya-": "W", "ton": "E"}[n]


def camerash_split(image_name):
    """Deterministic 70/30 split of camerash crops: 'train' crops may be used for training, 'test' never."""
    h = int(hashlib.md5(image_name.encode()).hexdigest()[:8], 16)
    return "test" if h % 10 < 3 else "train"


def load_camerash():
    """-> list of (path, code, split) for riichi-mappable camerash crops."""
    out = []
    import csv
    with open(os.path.join(CAMERASH, "tiles-data", "data.csv"), encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            code = camerash_code(row["label-name"])
            if code is None:
                continue
            out.append((os.path.join(CAMERASH, "tiles-resized", row["image-name"]), code,
                        camerash_split(row["image-name"])))
    return out


def load_roboflow(split):
    """-> list of (image_path, [(code_or_None, cx, cy, w, h) normalized])."""
    d = os.path.join(ROBOFLOW, split)
    out = []
    for fn in sorted(os.listdir(os.path.join(d, "images"))):
        lab = os.path.join(d, "labels", os.path.splitext(fn)[0] + ".txt")
        boxes = []
        if os.path.exists(lab):
            for line in open(lab):
                p = line.split()
                if len(p) == 5:
                    boxes.append((roboflow_code(int(p[0])), *map(float, p[1:])))
        out.append((os.path.join(d, "images", fn), boxes))
    return out


# ---- crop geometry (must match the runtime; documented in MODEL_CARD.md) ----
CROP_H, CROP_W = 64, 48
CROP_MARGIN = 1.10  # crop rectangle = tile rotated box scaled by this factor


def crop_affine(cx, cy, w, h, phi, out_w=CROP_W, out_h=CROP_H, margin=CROP_MARGIN):
    """2x3 affine matrix mapping source image -> crop.

    (cx, cy) centre, w = extent across the tile, h = extent along the tile's up axis, phi = angle of the
    up axis in image coordinates (radians, x right, y down; phi = -pi/2 means the tile is upright).
    The crop puts the tile's up axis vertical (180-degree ambiguity is fine: the classifier is trained
    to be invariant to a half turn).
    """
    # unit vectors: u = along the up axis (crop y grows opposite to it), v = across
    ux, uy = np.cos(phi), np.sin(phi)
    vx, vy = -uy, ux
    W, H = w * margin, h * margin
    # source points: crop top-left, top-right, bottom-left
    tl = (cx + ux * H / 2 - vx * W / 2, cy + uy * H / 2 - vy * W / 2)
    # choose orientation so that upright tile (phi=-pi/2, u=(0,-1)) maps without flipping: v = (1,0)
    tr = (tl[0] + vx * W, tl[1] + vy * W)
    bl = (tl[0] - ux * H, tl[1] - uy * H)
    src = np.float32([tl, tr, bl])
    dst = np.float32([[0, 0], [out_w, 0], [0, out_h]])
    import cv2
    return cv2.getAffineTransform(src, dst)


def cut_crop(img, cx, cy, w, h, phi, area=None):
    """The classifier crop of a rotated box, cut from a full-resolution image (training data; the runtime samples
    an area pyramid instead, see reference_infer.Recognizer.crops). `area`: use area interpolation (default: when
    the box is more than twice the crop's width)."""
    import cv2
    M = crop_affine(cx, cy, w, h, phi)
    area = w > 2 * CROP_W if area is None else area
    return cv2.warpAffine(img, M, (CROP_W, CROP_H), flags=cv2.INTER_AREA if area else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
