"""Train the 38-class tile crop classifier (CPU, or a GPU with --device cuda and --minutes), export ONNX.

GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967296:glibc.malloc.trim_threshold=4294967296 \
  nice -n 19 .venv-train/bin/python models/training/train_cls.py --epochs 8 --seed 0
"""
import argparse
import glob
import math
import os
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from common import BACK, CACHE, CLASSES, CROP_MARGIN, NUM_CLASSES, REPO, shard_range  # noqa: E402
import models  # noqa: E402
from models import freeze_bn, restore_bn_statistics  # noqa: E402
from models import ClassifierExport, TileClassifier, TileClassifierDS  # noqa: E402
import real_data  # noqa: E402


# Tiles whose face looks much the same a quarter turn off (a circle, square grids of dots, a blank or framed face, a
# back): a turned crop of one of them keeps its class, and the box's shape and the detector's angle decide the
# orientation, as before.
QUARTER_SYMMETRIC = ("1p", "4p", "5p", "0p", "9p", "P", "back")
# The label of a turned crop that must read as no tile in particular (a uniform target over the 38 tile classes).
TURNED = -1


def load_synth(name, turned=False, key=None, fresh=None):
    """A shard set's crops and labels; with `turned`, its quarter-turned crops (gen_data.py --turned-crops) instead.
    With `key`, also that per-crop array (all False where a shard lacks it), e.g. the mined negatives' `hard`.
    With `fresh` (a set of shard numbers), also whether each crop comes from one of those shards (--fresh-shards)."""
    xs, ys, ks, fs = [], [], [], []
    kx, ky = ("xt", "yt") if turned else ("x", "y")
    for f in sorted(glob.glob(os.path.join(CACHE, "cls", f"{name}_*.npz"))):
        d = np.load(f)
        if kx in d:
            xs.append(d[kx])
            ys.append(d[ky])
            ks.append(d[key] if key in d else np.zeros(len(d[ky]), bool))
            # the shard's number ends the name: train_38, neg_38, neg_between_38
            shard = os.path.basename(f)[len(name) + 1:-4].rsplit("_", 1)[-1]
            fs.append(np.full(len(d[ky]), fresh is not None and shard.isdigit() and int(shard) in fresh))
    out = (np.concatenate(xs), np.concatenate(ys))
    if key is not None:
        out += (np.concatenate(ks),)
    if fresh is not None:
        out += (np.concatenate(fs),)
    return out


def turned_targets(y):
    """Labels for quarter-turned crops: a tile that looks different turned must not be read confidently that way
    (TURNED), so that the two-way reading's evidence (the ratio of the two readings' top probabilities) picks the
    orientation from the face; a quarter-symmetric tile keeps its class."""
    sym = np.isin(y, [CLASSES.index(c) for c in QUARTER_SYMMETRIC])
    return np.where(sym, y, TURNED)


def loss_fn(out, y, n_tiles=NUM_CLASSES, smoothing=0.05, turned_none=0.0, teacher=None, taught=None, weight=0.0):
    """Cross-entropy with label smoothing; a TURNED label's target is uniform over the tile classes, with a share
    `turned_none` on "not a tile" where the model has that output. With `teacher` (its probabilities of the same
    crops), the rows `taught` aim at a mix of the labels' target and the teacher's reading, `weight` of it."""
    turned = y == TURNED
    logp = F.log_softmax(out.float(), 1)
    target = torch.full_like(logp, smoothing / out.shape[1])
    rows = torch.nonzero(~turned).squeeze(1)
    target[rows, y[rows]] += 1 - smoothing
    none = turned_none if out.shape[1] > n_tiles else 0.0
    target[turned] = 0.0
    target[turned, :n_tiles] = (1.0 - none) / n_tiles
    if none > 0:
        target[turned, n_tiles] = none
    if teacher is not None:
        w = weight[taught][:, None] if torch.is_tensor(weight) else weight
        target[taught] = (1 - w) * target[taught] + w * teacher[taught]
    return -(target * logp).sum(1).mean()


# Share of the augmented real crops also used turned (per unit of --turned).
REAL_TURNED_SHARE = 0.3


def turn_real(rng, x, y, share):
    """Real faces turned a quarter and stretched back to the crop's shape, as a loose tile's own box read across:
    the synthetic turned crops' lesson on real textures."""
    pick = rng.choice(len(x), int(len(x) * share), replace=False)
    h, w = x.shape[1:3]
    turned = [cv2.resize(np.ascontiguousarray(np.rot90(x[i], rng.choice([1, 3]))), (w, h), interpolation=cv2.INTER_LINEAR)
              for i in pick]
    return np.array(turned, np.uint8).reshape(-1, h, w, 3), turned_targets(y[pick])


def turned_confidence(model, x, y, device=None):
    """Mean top probability (over the tile classes) of quarter-turned crops that should read as no tile in
    particular, and the share of them read at 0.5 or more."""
    model.eval()
    x = x[turned_targets(y) == TURNED]
    tops = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            p = torch.softmax(model(to_tensor(x[i:i + 512], device)).float(), 1)[:, :NUM_CLASSES]
            tops.append((p / p.sum(1, keepdim=True)).max(1).values.cpu())
    t = torch.cat(tops).numpy() if tops else np.zeros(0)
    return float(t.mean()) if len(t) else float("nan"), float((t >= 0.5).mean()) if len(t) else float("nan")


def real_train_set(rng, reps_cam=25, reps_rf=20):
    xs, ys = [], []
    for im, c in real_data.camerash_images("train"):
        for _ in range(reps_cam):
            xs.append(real_data.augment_real(rng, im))
            ys.append(c)
    for split in ("train", "valid"):
        for im, c in real_data.roboflow_tile_images(split):
            for _ in range(reps_rf):
                xs.append(real_data.augment_real(rng, im))
                ys.append(c)
    return np.array(xs, np.uint8), np.array(ys, np.int64)


def eval_sets():
    sets = {}
    # testalt: faces in the art of alt_art.py with the font kept out of training (gen_data.py --alt-fonts heldout)
    for name in ("test", "testalt"):
        try:
            sets[f"synthetic-{name}"] = load_synth(name)
        except ValueError:
            pass
    cam = real_data.camerash_images("test")
    sets["camerash-test"] = (np.array([real_data.plain_crop(i) for i, _ in cam]), np.array([c for _, c in cam]))
    rf = real_data.roboflow_tile_images("test", exclude_fives=False)
    sets["roboflow-test"] = (np.array([real_data.plain_crop(i) for i, _ in rf]), np.array([c for _, c in rf]))
    return sets


def to_tensor(x, device=None):
    """uint8 crops [N, H, W, 3] (a numpy array, or a tensor already on `device`) -> float [N, 3, H, W] in 0..1."""
    t = torch.from_numpy(x) if isinstance(x, np.ndarray) else x
    if device is not None:
        t = t.to(device, non_blocking=True)
    return t.permute(0, 3, 1, 2).float().div_(255.0).contiguous(memory_format=torch.channels_last)


def rand(g, *shape, like, normal=False):
    """Random numbers from the CPU generator `g`, on `like`'s device: the augmentation draws the same stream on a GPU
    as on the CPU."""
    r = torch.randn(*shape, generator=g) if normal else torch.rand(*shape, generator=g)
    return r.to(like.device)


def off_box(x, g, sel):
    """The crops `sel` (a bool mask) cut from a box that misses its tile: moved by a quarter to three fifths of the
    crop in any direction and scaled 0.7-1.5 times, as the detector's extra boxes over a tile's half, two tiles'
    seam or a called tile's side are. What the runtime's layout rules make of such boxes was fitted to one
    classifier's readings of them (--distill-off)."""
    n = int(sel.sum())
    if n == 0:
        return x
    x = x.clone()
    ang = rand(g, n, like=x) * 2 * math.pi
    r = 2 * (0.25 + 0.35 * rand(g, n, like=x))  # affine_grid's coordinates span 2 across the crop
    sc = 0.7 + 0.8 * rand(g, n, like=x)
    zero = torch.zeros(n, device=x.device)
    theta = torch.stack([torch.stack([sc, zero, r * torch.cos(ang)], 1),
                         torch.stack([zero, sc, r * torch.sin(ang)], 1)], 1)
    grid = F.affine_grid(theta, [n] + list(x.shape[1:]), align_corners=False)
    x[sel] = F.grid_sample(x[sel].contiguous(), grid, mode="bilinear", padding_mode="border", align_corners=False)
    return x


def rotate_batch(x, g, max_deg, p=0.6, shift=0.0):
    """random in-plane rotation (+-max_deg), zoom (0.9-1.1) and, with `shift`, an offset of up to that share of the
    crop's width and height, of a share p of the crops: makes the classifier tolerant to the detector's angle, size
    and position errors (a far tile's box is often off by a tenth of its size)."""
    n, _, H, W = x.shape
    sel = rand(g, n, like=x) < p
    th = (rand(g, n, like=x) * 2 - 1) * math.radians(max_deg) * sel
    sc = 1 + (rand(g, n, like=x) * 0.2 - 0.1) * sel
    c, s = torch.cos(th) * sc, torch.sin(th) * sc
    tx, ty = torch.zeros(n, device=x.device), torch.zeros(n, device=x.device)
    if shift > 0:
        # affine_grid's coordinates run from -1 to 1 across the crop
        tx = (rand(g, n, like=x) * 2 - 1) * 2 * shift * sel
        ty = (rand(g, n, like=x) * 2 - 1) * 2 * shift * sel
    theta = torch.stack([torch.stack([c, -s * H / W, tx], 1),
                         torch.stack([s * W / H, c, ty], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x.contiguous(), grid, mode="bilinear", padding_mode="border", align_corners=False)


def gpu_like_aug(x, g, rot_deg=0.0, shadow_p=0.0, shift=0.0, dim_p=0.0, small_p=0.0):
    """cheap batch augmentation on tensors: half-turn, brightness/contrast, channel gains, small shift."""
    n = x.shape[0]
    if rot_deg > 0 or shift > 0:
        x = rotate_batch(x, g, rot_deg, shift=shift)
    if small_p > 0:
        x = shrink(x, g, small_p)
    flip = rand(g, n, like=x) < 0.5
    x[flip] = torch.flip(x[flip], dims=(2, 3))
    gain = (0.8 + 0.4 * rand(g, n, 3, 1, 1, like=x))
    off = (rand(g, n, 1, 1, 1, like=x) - 0.5) * 0.15
    x = (x * gain + off).clamp(0, 1)
    gray = rand(g, n, like=x) < 0.1
    if gray.any():
        x[gray] = x[gray].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    if shadow_p > 0:
        x = cast_shadow(x, g, shadow_p)
    if dim_p > 0:
        x = dim(x, g, dim_p)
    return x


# Tile widths (scene pixels) a shrunk crop is given: the band where the held-out scenes' errors are (model card,
# "Where the synthetic errors are": a fifth of `test`'s tiles are under 16 px and hold half its errors).
SHRINK_WIDTHS = (10.0, 18.0)
SHRINK_LEVELS = 4


def shrink(x, g, p):
    """A share p of the crops as if cut from a far tile: the face brought down to 10-18 px across (with the
    sensor noise of that scale) and back up to the crop's size, as the runtime samples a small box. Most crops
    of the scenes come from tiles wider than that, and the classifier reads the ones under 16 px worst."""
    n, _, H, W = x.shape
    sel = torch.nonzero(rand(g, n, like=x) < p).flatten()
    if len(sel) == 0:
        return x
    x = x.clone()
    face_w = W / CROP_MARGIN
    level = torch.randint(0, SHRINK_LEVELS, (len(sel),), generator=g).to(x.device)
    lo, hi = SHRINK_WIDTHS
    for k in range(SHRINK_LEVELS):
        idx = sel[level == k]
        if len(idx) == 0:
            continue
        scale = (lo + (hi - lo) * (k + 0.5) / SHRINK_LEVELS) / face_w
        size = (max(2, round(H * scale)), max(2, round(W * scale)))
        small = F.interpolate(x[idx], size=size, mode="bilinear", antialias=True, align_corners=False)
        small = small + rand(g, small.shape, like=x, normal=True) * 0.015
        x[idx] = F.interpolate(small, size=(H, W), mode="bilinear", align_corners=False).clamp(0, 1)
    return x


def dim(x, g, p):
    """A share p of the crops as in a dim room: darkened to 25-60 % with sensor noise. A face-down tile of a dim
    scene was read as a blank white dragon: in the dark the two differ by hue more than by brightness."""
    n = x.shape[0]
    sel = rand(g, n, like=x) < p
    if not sel.any():
        return x
    k = int(sel.sum())
    level = 0.25 + rand(g, k, 1, 1, 1, like=x) * 0.35
    noise = rand(g, x[sel].shape, like=x, normal=True) * 0.02
    x = x.clone()
    x[sel] = (x[sel] * level + noise).clamp(0, 1)
    return x


def cast_shadow(x, g, p):
    """Darkens the part of a share p of the crops on one side of a random soft-edged line: the shadow a
    neighbouring standing tile casts across a face. A blank white dragon half in shadow was read as a face-down
    tile on a real photo; the synthetic scenes cast shadows on the table only."""
    n, _, H, W = x.shape
    sel = rand(g, n, like=x) < p
    if not sel.any():
        return x
    k = int(sel.sum())
    ang = rand(g, k, like=x) * 2 * math.pi
    off = (rand(g, k, like=x) - 0.5) * 1.2
    soft = 0.02 + rand(g, k, like=x) * 0.15
    depth = 0.25 + rand(g, k, like=x) * 0.4
    yy = torch.linspace(-1, 1, H, device=x.device).view(1, H, 1)
    xx = torch.linspace(-1, 1, W, device=x.device).view(1, 1, W) * (W / H)
    d = xx * torch.cos(ang).view(k, 1, 1) + yy * torch.sin(ang).view(k, 1, 1) - off.view(k, 1, 1)
    m = torch.sigmoid(d / soft.view(k, 1, 1))
    x = x.clone()
    x[sel] = x[sel] * (1 - depth.view(k, 1, 1, 1) * m.unsqueeze(1))
    return x


@torch.no_grad()
def evaluate(model, x, y, bs=512, device=None):
    model.eval()
    pred = []
    for i in range(0, len(x), bs):
        with models.bf16_autocast(device):
            pred.append(model(to_tensor(x[i:i + bs], device)).float().argmax(1).cpu())
    pred = torch.cat(pred).numpy()
    return float((pred == y).mean()), pred


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--bs", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--arch", default="ds", choices=["ds", "res"])
    ap.add_argument("--init", default=None, help="start from this checkpoint (fine-tuning)")
    ap.add_argument("--rot-deg", type=float, default=0.0, help="random rotation augmentation (degrees)")
    ap.add_argument("--drop-white-backs", action="store_true",
                    help="drop 'back' crops whose back colour is white-ish (indistinguishable from a white dragon)")
    ap.add_argument("--out", default=os.path.join(REPO, "models", "tile_classifier.onnx"))
    ap.add_argument("--ckpt", default=os.path.join(CACHE, "ckpt_cls.pt"))
    ap.add_argument("--none", action="store_true",
                    help="add the 'not a tile' output (index 38) trained on the mined negatives cls/neg_*.npz")
    ap.add_argument("--none-keep", type=float, default=1.0,
                    help="share of the mined not-a-tile crops used (so they do not outnumber the tiles)")
    ap.add_argument("--hard-neg-boost", type=int, default=1,
                    help="repeat factor of the mined not-a-tile crops that the classifier used for mining let through")
    ap.add_argument("--restore-bn", type=int, default=0, metavar="N",
                    help="with --init from recover_ckpt.py: measure BatchNorm statistics on N training batches first "
                         "(models.restore_bn_statistics) and train with live BatchNorm")
    ap.add_argument("--boost-class", default=None,
                    help="CODE:TIMES[,CODE:TIMES...], e.g. P:4 or P:2,back:2: repeat those classes' crops")
    ap.add_argument("--shadow", type=float, default=0.0,
                    help="share of crops given a cast shadow across part of the face (augmentation)")
    ap.add_argument("--shift", type=float, default=0.0,
                    help="augmentation: offset crops by up to this share of their size (with the rotation/zoom)")
    ap.add_argument("--dim", type=float, default=0.0, help="augmentation: share of crops darkened as in a dim room")
    ap.add_argument("--small", type=float, default=0.0,
                    help="augmentation: share of crops brought down to a far tile's 10-18 px and back up")
    ap.add_argument("--turned", type=float, default=0.0,
                    help="repeat factor of the quarter-turned crops (gen_data.py --turned-crops) in an epoch; a turned "
                         "crop of a tile that looks different turned is trained to read as no tile in particular")
    ap.add_argument("--turned-none", type=float, default=0.0,
                    help="share of a quarter-turned tile crop's target put on 'not a tile' (the rest uniform over the "
                         "tiles): an unfamiliar object read across then leans to 'not a tile' rather than to a tile")
    ap.add_argument("--distill", default=None, metavar="CKPT",
                    help="a classifier checkpoint whose readings the crops not from --fresh-shards are also taught "
                         "(so that a fine-tune on new data keeps what the runtime's rules were fitted to)")
    ap.add_argument("--distill-weight", type=float, default=0.8,
                    help="with --distill: the teacher's share of those crops' target")
    ap.add_argument("--distill-off", type=float, default=0.0,
                    help="with --distill: share of the taught crops cut as a box off its tile (off_box), taught by "
                         "the teacher alone")
    ap.add_argument("--fresh-shards", default="", metavar="A-B",
                    help="training shards (and their mined negatives) learnt from their labels alone under --distill")
    ap.add_argument("--off-any", action="store_true",
                    help="with --distill-off: cut off-box crops from every crop, fresh shards' too (each taught by "
                         "the teacher alone), not only from the taught ones")
    ap.add_argument("--device", default="cpu", help="where the model trains: cpu, or cuda on a machine with a GPU "
                    "(the crops are then held on the GPU and augmented there)")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="train for this long instead of --epochs (a cosine learning rate over the time, after a "
                         "warm-up of 2 %%); the last epoch is cut short")
    ap.add_argument("--freeze-bn", action="store_true",
                    help="keep BatchNorm in eval mode (fixed statistics): fine-tuning from weights rebuilt from ONNX "
                         "by recover_ckpt.py, which are exact only with the statistics they were given")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    fresh = set(shard_range(args.fresh_shards))
    xs, ys, fs = load_synth("train", fresh=fresh)
    xr, yr = real_train_set(rng)
    print(f"synthetic crops {len(xs)}, real augmented crops {len(xr)}  ({time.time() - t0:.0f}s)", flush=True)
    if args.drop_white_backs:
        c = xs[:, 16:48, 12:36].reshape(len(xs), -1, 3).astype(np.float32).mean(1)
        white = (ys == BACK) & (c.min(1) > 150) & (c.max(1) - c.min(1) < 40)
        print(f"dropping {int(white.sum())} white-ish back crops of {int((ys == BACK).sum())}", flush=True)
        xs, ys, fs = xs[~white], ys[~white], fs[~white]
    n_out = NUM_CLASSES
    if args.none:
        xn, yn, hard, fn = load_synth("neg", key="hard", fresh=fresh)
        keep = rng.random(len(xn)) < args.none_keep
        xn, yn, hard, fn = xn[keep], yn[keep], hard[keep], fn[keep]
        print(f"mined not-a-tile crops: {len(xn)} kept of {len(keep)}, {int(hard.sum())} not vetoed by the mining "
              f"classifier", flush=True)
        extra = np.repeat(np.nonzero(hard)[0], args.hard_neg_boost - 1)
        xn, yn, fn = np.concatenate([xn, xn[extra]]), np.concatenate([yn, yn[extra]]), np.concatenate([fn, fn[extra]])
        xs, ys, fs = np.concatenate([xs, xn]), np.concatenate([ys, yn]), np.concatenate([fs, fn])
        n_out = NUM_CLASSES + 1
    X = np.concatenate([xs, xr])
    Y = np.concatenate([ys, yr])
    Fr = np.concatenate([fs, np.zeros(len(yr), bool)])  # from a --fresh-shards shard: not taught by --distill
    turned_test = None
    if args.turned > 0:
        xt, yt, ft = load_synth("train", turned=True, fresh=fresh)
        pick = rng.choice(len(xt), int(len(xt) * args.turned), replace=args.turned > 1)
        X, Y = np.concatenate([X, xt[pick]]), np.concatenate([Y, turned_targets(yt[pick])])
        Fr = np.concatenate([Fr, ft[pick]])
        print(f"quarter-turned crops: {len(pick)} of {len(xt)}, {int((Y == TURNED).sum())} read as no tile", flush=True)
        xrt, yrt = turn_real(rng, xr, yr, REAL_TURNED_SHARE * args.turned)
        X, Y, Fr = np.concatenate([X, xrt]), np.concatenate([Y, yrt]), np.concatenate([Fr, np.zeros(len(yrt), bool)])
        print(f"quarter-turned real crops: {len(xrt)}", flush=True)
        try:
            turned_test = load_synth("test", turned=True)
        except ValueError:
            pass
    for boost in filter(None, (args.boost_class or "").split(",")):
        # a blank white dragon looks like the blank white cards and dice among the mined negatives: repeat its
        # crops so the not-a-tile output does not swallow it (and backs with it, so that P does not take over
        # the dark face-down tiles of dim scenes)
        code, _, times = boost.partition(":")
        sel = np.nonzero(Y == CLASSES.index(code))[0]
        extra = np.repeat(sel, int(times) - 1)
        X, Y, Fr = np.concatenate([X, X[extra]]), np.concatenate([Y, Y[extra]]), np.concatenate([Fr, Fr[extra]])
        print(f"{code} crops repeated x{times}: {len(sel)} -> {len(sel) * int(times)}", flush=True)
    counts = np.bincount(Y[Y >= 0], minlength=n_out)
    print("per-class counts:", dict(zip(CLASSES + ["none"], counts.tolist())), flush=True)
    evs = eval_sets()
    model = (TileClassifierDS(n_out) if args.arch == "ds" else TileClassifier(n_out)).to(memory_format=torch.channels_last)
    print("params", sum(p.numel() for p in model.parameters()), flush=True)
    if args.init:
        state = torch.load(args.init)["model"]
        if state["fc.weight"].shape[0] < n_out:
            # a 38-class checkpoint: keep its tile outputs, start the new 'not a tile' output from zero
            fc_w, fc_b = model.fc.weight.detach().clone(), model.fc.bias.detach().clone()
            fc_w[:NUM_CLASSES], fc_b[:NUM_CLASSES] = state["fc.weight"], state["fc.bias"]
            fc_w[NUM_CLASSES:], fc_b[NUM_CLASSES:] = 0.0, -2.0
            state["fc.weight"], state["fc.bias"] = fc_w, fc_b
        model.load_state_dict(state)
        print("initialized from", args.init, flush=True)
        if args.restore_bn:
            sample = rng.choice(len(X), (args.restore_bn, args.bs))
            restore_bn_statistics(model, (to_tensor(X[np.sort(i)]).contiguous(memory_format=torch.channels_last)
                                          for i in sample))
            print(f"BatchNorm statistics measured on {args.restore_bn} batches", flush=True)
    device = torch.device(args.device)
    model.to(device)
    teacher = None
    if args.distill:
        teacher = TileClassifierDS(n_out).to(device, memory_format=torch.channels_last)
        teacher.load_state_dict(torch.load(args.distill)["model"])
        teacher.eval()
        print(f"taught by {args.distill} at {args.distill_weight} on {int((~Fr).sum())} of {len(Fr)} crops", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps = args.epochs * (len(X) // args.bs)
    sched = None if args.minutes else torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.lr, total_steps=steps, pct_start=0.02 if args.init else 0.1)
    g = torch.Generator().manual_seed(args.seed)
    on_gpu = device.type != "cpu"
    if on_gpu:
        # the whole training set on the GPU as uint8 (a few GB): a batch is gathered there, not copied each step
        X = torch.from_numpy(X).to(device)
    Y, Fr = torch.from_numpy(Y).to(device), torch.from_numpy(Fr).to(device)
    step = 0
    t_train = time.time()
    budget = args.minutes * 60
    epochs = 10 ** 6 if args.minutes else args.epochs
    # under --minutes the number of epochs and steps is not known ahead
    of_epochs, of_steps = ("", "") if args.minutes else (f"/{args.epochs}", f"/{steps}")
    for ep in range(epochs):
        if args.minutes and time.time() - t_train >= budget:
            break
        model.train()
        if args.freeze_bn:
            freeze_bn(model)
        perm = rng.permutation(len(X))
        t1 = time.time()
        tot, n = 0.0, 0
        for i in range(0, len(perm) - args.bs + 1, args.bs):
            if args.minutes:
                done = (time.time() - t_train) / budget
                if done >= 1:
                    break
                warm = 0.02
                scale = done / warm if done < warm else 0.5 * (1 + math.cos(math.pi * (done - warm) / (1 - warm)))
                for group in opt.param_groups:
                    group["lr"] = args.lr * max(scale, 0.01)
            idx = np.sort(perm[i:i + args.bs])
            rows = torch.from_numpy(idx).to(device)
            y = Y[rows]
            x = gpu_like_aug(to_tensor(X[rows] if on_gpu else X[idx], device), g, args.rot_deg, args.shadow,
                             args.shift, args.dim, args.small).contiguous(memory_format=torch.channels_last)
            teacher_probs, taught_rows, weight = None, None, args.distill_weight
            if teacher is not None:
                taught_rows = ~Fr[rows]
                if args.distill_off > 0:
                    # off-box crops learn the teacher's reading alone: no label fits a box beside its tile
                    off = rand(g, len(idx), like=x) < args.distill_off
                    if not args.off_any:
                        off &= taught_rows
                    x = off_box(x, g, off).contiguous(memory_format=torch.channels_last)
                    taught_rows = taught_rows | off
                    weight = torch.where(off, 1.0, args.distill_weight)
                with torch.no_grad(), models.bf16_autocast(device):
                    teacher_probs = torch.softmax(teacher(x).float(), 1)
            with models.bf16_autocast(device):
                out = model(x)
            loss = loss_fn(out, y, turned_none=args.turned_none, teacher=teacher_probs, taught=taught_rows,
                           weight=weight)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if sched is not None:
                sched.step()
            step += 1
            tot += loss.item() * len(idx)
            n += len(idx)
            if step % 200 == 0:
                print(f"  step {step}{of_steps} loss {tot / n:.4f} {n / (time.time() - t1):.0f} img/s", flush=True)
        msg = f"epoch {ep + 1}{of_epochs} loss {tot / n:.4f} {n / (time.time() - t1):.0f} img/s"
        for k, (ex, ey) in evs.items():
            acc, _ = evaluate(model, ex, ey, device=device)
            msg += f" | {k} {acc * 100:.2f}%"
        if turned_test is not None:
            mean_top, confident = turned_confidence(model, *turned_test, device=device)
            msg += f" | test turned: mean top {mean_top:.3f}, {confident * 100:.1f}% at >= 0.5"
        print(msg, flush=True)
        torch.save({"model": {k: v.cpu() for k, v in model.state_dict().items()}, "epoch": ep + 1,
                    "args": vars(args)}, args.ckpt)
    print(f"total train time {time.time() - t0:.0f}s", flush=True)
    export(model, args.out)


def export(model, out):
    model = model.cpu().float().eval().to(memory_format=torch.contiguous_format)
    m = ClassifierExport(model).eval()
    x = torch.rand(4, 3, 64, 48)
    batch = torch.export.Dim("batch", min=1, max=1024)
    torch.onnx.export(m, (x,), out, input_names=["crops"], output_names=["probs"], dynamo=True,
                      external_data=False, dynamic_shapes={"x": {0: batch}})
    print("exported", out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
