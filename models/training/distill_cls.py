"""Distil the committed classifier into a narrower one, on the crops the recognizer itself cuts.

A 720p frame spends most of its classifier time in the classifier's convolutions (README, "Throughput and
recognition speed"), and a crop costs about the same at every batch size, so a narrower classifier is the
lever on the 30 ms target. This script teaches one from the committed classifier (the teacher) without its
training data: the crops are those `reference_infer.Recognizer` cuts from scene photos (every crop it reads,
the turned and faint ones included), and each crop's target is the teacher's reading of it.

    # 1. collect: crops from photos (fixture folders of datasets/make_fixtures.py, any folder of photos)
    python models/training/distill_cls.py collect --out .cache-train/distill.npz DIR [DIR ...]
    # 2. train: a student of the given widths, for a time budget, then export
    python models/training/distill_cls.py train --data .cache-train/distill.npz [...] --widths 16,32,64,128 \
        --minutes 60 --seed 2 --out .cache-train/candidates/tile_classifier_student.onnx

Besides each crop as cut, `collect` keeps it turned half a turn and one variant of it moved, scaled, turned a
little and relit at random, each with the teacher's own reading (so no target is assumed, not even that a tile
turned half a turn reads the same). Every 20th photo's crops are held out; `train` reports how often the
student's top reading is the teacher's on them, overall and where the teacher is sure.

Photos rendered by `datasets/make_fixtures.py` carry their tiles' true rotated boxes in the JSON beside them; with
`--truth`, `collect` also keeps, for each crop cut along a tile's own axes over the whole of it, that tile's class
(other crops: -1), and `train --truth-weight A` moves such a crop's target A of the way from the teacher's
reading to the true class, so the student can learn where the teacher is wrong; `--truth-except back` (a list of
classes) leaves those classes' crops with the teacher's reading as their target.

`train --widths 32,64,128,256 --init .cache-train/ckpt_cls_onnx.pt --freeze-bn` fine-tunes the teacher itself (its
architecture, rebuilt from the committed ONNX file by `recover_ckpt.py`) on the same targets; `--freeze-bn` keeps
its BatchNorm in eval mode, since the rebuilt layers' running statistics are not those of any training batch.
"""
import argparse
import glob
import json
import math
import os
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import CLASSES, CROP_H, CROP_W  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def photos_in(dirs):
    out = []
    for d in dirs:
        for ext in ("jpg", "jpeg", "png"):
            out += glob.glob(os.path.join(d, f"*.{ext}"))
    return sorted(out)


def variant(crop, rng):
    """The crop moved up to 3 px, scaled ±6 %, turned up to ±6° and relit (gain, tint, gamma, noise)."""
    a = np.deg2rad(rng.uniform(-6, 6))
    k = rng.uniform(0.94, 1.06)
    c = (CROP_W / 2 - 0.5, CROP_H / 2 - 0.5)
    m = cv2.getRotationMatrix2D(c, np.rad2deg(a), k)
    m[:, 2] += rng.uniform(-3, 3, 2)
    out = cv2.warpAffine(crop, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    x = out.astype(np.float32) / 255.0
    x = x ** rng.uniform(0.7, 1.4)
    x = x * rng.uniform(0.6, 1.2) * rng.uniform(0.85, 1.15, 3)
    x = x + rng.normal(0, rng.uniform(0, 0.03), x.shape)
    return np.clip(np.round(x * 255), 0, 255).astype(np.uint8)


# A tile hidden under another by more than this share keeps the teacher's reading alone.
TRUE_VISIBLE = 0.7


def true_tiles(photo):
    """The rotated boxes and classes of a rendered scene's tiles (the JSON beside the photo), or None."""
    meta = os.path.splitext(photo)[0] + ".json"
    if not os.path.exists(meta):
        return None
    with open(meta) as f:
        tiles = json.load(f).get("tiles", [])
    return [(t["rotated"], CLASSES.index(t["tile"]), t["visible"]) for t in tiles if t["tile"] in CLASSES]


def label_of(box, truth):
    """The class of the true tile this box covers along the tile's own axes, or -1. Boxes over part of a tile, a
    quarter turned from it or beside it keep the teacher's reading alone: their targets are conventions (a turned
    tile is half "not a tile"), not the tile's class."""
    from reference_infer import axis_difference

    for r, cls, visible in truth:
        side = min(r["w"], r["h"])
        if math.hypot(box["cx"] - r["cx"], box["cy"] - r["cy"]) > 0.25 * side or visible < TRUE_VISIBLE:
            continue
        if axis_difference(box["phi"], r["phi"]) > math.radians(20):
            continue
        if all(0.75 <= box[k] / max(r[k], 1e-3) <= 1.33 for k in ("w", "h")):
            return cls
    return -1


def collect(args):
    import reference_infer

    rng = np.random.default_rng(args.seed)
    rec = reference_infer.Recognizer(args.models, threads=2)
    seen, seen_labels = [], []
    teach = rec.classify
    cut = rec.crops
    last = {"boxes": None}
    truth = None

    def cutting(rgb, boxes):
        last["boxes"] = list(boxes)
        return cut(rgb, boxes)

    def recording(crops):
        probs = teach(crops)
        seen.append(crops.copy())
        boxes = last["boxes"]
        if truth and boxes is not None and len(boxes) == len(crops):
            seen_labels.append(np.array([label_of(b, truth) for b in boxes], np.int16))
        else:
            seen_labels.append(np.full(len(crops), -1, np.int16))
        last["boxes"] = None
        return probs

    rec.classify = recording
    rec.crops = cutting
    photos = photos_in(args.dirs)
    crops, labels, photo_of = [], [], []
    t0 = time.time()
    for n, path in enumerate(photos):
        bgr = cv2.imread(path, cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        truth = true_tiles(path) if args.truth else None
        seen.clear()
        seen_labels.clear()
        rec(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        if seen:
            got = np.concatenate(seen)
            crops.append(got)
            labels.append(np.concatenate(seen_labels))
            photo_of.append(np.full(len(got), n, np.int32))
        if (n + 1) % 200 == 0:
            print(f"{n + 1}/{len(photos)} photos, {sum(map(len, crops))} crops, {time.time() - t0:.0f}s", flush=True)
    crops = np.concatenate(crops)
    labels = np.concatenate(labels)
    photo_of = np.concatenate(photo_of)
    turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
    varied = np.stack([variant(c, rng) for c in crops])
    every = np.concatenate([crops, turned, varied])
    probs = np.concatenate([teach(every[i:i + 512]) for i in range(0, len(every), 512)])
    held = np.tile(photo_of % 20 == 19, 3)
    label = np.tile(labels, 3)
    np.savez(args.out, crops=every, probs=probs.astype(np.float32), held=held, label=label)
    known = label >= 0
    wrong = (probs.argmax(1) != label) & known
    print(f"{len(photos)} photos, {len(crops)} crops cut, {len(every)} kept with the teacher's readings "
          f"({held.sum()} held out; {known.sum()} with a true class, the teacher's top reading not it on "
          f"{wrong.sum()}) in {time.time() - t0:.0f}s -> {args.out}", flush=True)


def train(args):
    import torch
    import torch.nn.functional as F
    from models import TileClassifierDS, freeze_bn
    from train_cls import export

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    parts = [np.load(f) for f in args.data]
    crops, probs, held = (np.concatenate([d[k] for d in parts]) for k in ("crops", "probs", "held"))
    label = np.concatenate([d["label"] if "label" in d else np.full(len(d["held"]), -1, np.int16) for d in parts])
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).contiguous()  # uint8 [N,3,64,48]
    teacher = torch.from_numpy(probs)
    known = torch.from_numpy(label >= 0)
    # Classes whose true labels only the report uses: their crops keep the teacher's reading as the target.
    untaught = [CLASSES.index(c) for c in args.truth_except.split(",") if c]
    taught = known & ~torch.from_numpy(np.isin(label, untaught))
    p = teacher.clone()
    if args.truth_weight > 0:
        onehot = F.one_hot(torch.from_numpy(np.maximum(label, 0)).long(), probs.shape[1]).float()
        p[taught] = (1 - args.truth_weight) * teacher[taught] + args.truth_weight * onehot[taught]
    truth = torch.from_numpy(label.astype(np.int64))
    tr, te = np.flatnonzero(~held), np.flatnonzero(held)
    widths = tuple(int(v) for v in args.widths.split(","))
    model = TileClassifierDS(probs.shape[1], widths).to(memory_format=torch.channels_last)
    if args.init:
        state = torch.load(args.init)
        # recover_ckpt.py's checkpoints wrap the state dict; a student's .pt is the bare state dict
        model.load_state_dict(state.get("model", state))
    n_params = sum(v.numel() for v in model.parameters())
    print(f"student widths {widths}: {n_params} parameters; {len(tr)} training crops, {len(te)} held out; "
          f"{int(known.sum())} with a true class, {int(taught.sum())} taught it, weight {args.truth_weight}",
          flush=True)
    has = truth[te] >= 0
    right = (teacher[te].argmax(1) == truth[te])[has].float().mean().item()
    print(f"  held out, teacher: the true class {right * 100:.2f} % of {int(has.sum())}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    step = 0

    def lr_at(frac):
        warm = 0.03
        if frac < warm:
            return args.lr * frac / warm
        return args.lr * 0.5 * (1 + np.cos(np.pi * min(1.0, (frac - warm) / (1 - warm))))

    def batches(ids):
        order = rng.permutation(ids)
        for i in range(0, len(order) - args.batch + 1, args.batch):
            yield order[i:i + args.batch]

    done = False
    epoch = 0
    while not done:
        model.train()
        if args.freeze_bn:
            freeze_bn(model)
        total, count = 0.0, 0
        for b in batches(tr):
            frac = (time.time() - t0) / budget
            if frac >= 1:
                done = True
                break
            for g in opt.param_groups:
                g["lr"] = lr_at(frac)
            xb = (x[b].float() / 255.0).contiguous(memory_format=torch.channels_last)
            # fp32 even where bf16 autocast is native: the narrow student trained at 2,340 crops/s in fp32
            # against 1,448 in bf16 on this machine's 2 cores (2026-12-05).
            logits = model(xb)
            loss = -(p[b] * F.log_softmax(logits, 1)).sum(1).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
            count += len(b)
            step += 1
        epoch += 1
        print(f"epoch {epoch}: soft cross-entropy {total / max(count, 1):.4f}, {time.time() - t0:.0f}s, "
              f"{count / max(time.time() - t0, 1e-9) * epoch:.0f} crops/s", flush=True)
        report(model, x, teacher, te, truth)
        # Saved each epoch so a run cut short, or one to be continued with --init, keeps its weights.
        torch.save(model.state_dict(), os.path.splitext(args.out)[0] + ".pt")
    export(model, args.out)


def report(model, x, p, ids, truth):
    """On the held-out crops: how often the student's top reading is the teacher's, and on those with a true
    class, how often it is that class."""
    import torch

    model.eval()
    agree, sure, sure_agree, known, right = 0, 0, 0, 0, 0
    with torch.no_grad():
        for i in range(0, len(ids), 1024):
            b = ids[i:i + 1024]
            q = model((x[b].float() / 255.0).contiguous(memory_format=torch.channels_last)).argmax(1)
            t = p[b].argmax(1)
            confident = p[b].max(1).values >= 0.9
            agree += (q == t).sum().item()
            sure += confident.sum().item()
            sure_agree += ((q == t) & confident).sum().item()
            has = truth[b] >= 0
            known += has.sum().item()
            right += ((q == truth[b]) & has).sum().item()
    on_truth = f"the true class {right / max(known, 1) * 100:.2f} % of {known}"
    print(f"  held out: top reading the teacher's {agree / len(ids) * 100:.2f} % of {len(ids)}; "
          f"where the teacher is 0.9 sure {sure_agree / max(sure, 1) * 100:.2f} % of {sure}; {on_truth}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("dirs", nargs="+")
    c.add_argument("--out", required=True)
    c.add_argument("--models", default=os.path.join(ROOT, "models"))
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--truth", action="store_true", help="keep the true classes of rendered scenes' crops")
    t = sub.add_parser("train")
    t.add_argument("--data", required=True, nargs="+", help="what collect wrote (one or more files)")
    t.add_argument("--widths", default="16,32,64,128")
    t.add_argument("--minutes", type=float, default=20)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--truth-weight", type=float, default=0.0,
                   help="how far a crop's target moves from the teacher's reading to its true class (0 to 1)")
    t.add_argument("--truth-except", default="",
                   help="classes (e.g. back) whose crops keep the teacher's reading as their target")
    t.add_argument("--init", help="weights to start from: a student's state dict (the .pt written beside --out) or "
                                   "recover_ckpt.py's checkpoint of the committed classifier")
    t.add_argument("--freeze-bn", action="store_true",
                   help="keep BatchNorm in eval mode: needed from recover_ckpt.py's ckpt_cls_onnx.pt, whose "
                        "running statistics are not the training batches'")
    t.add_argument("--out", required=True)
    args = ap.parse_args()
    collect(args) if args.cmd == "collect" else train(args)


if __name__ == "__main__":
    main()
