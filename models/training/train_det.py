"""Train the class-agnostic rotated-box tile detector (CPU, or a GPU with --device cuda), export ONNX.

GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967296:glibc.malloc.trim_threshold=4294967296 \
  nice -n 19 .venv-train/bin/python models/training/train_det.py --minutes 50 --seed 0

With --workers N the batches are made by N processes (torch DataLoader), each drawing from its own random stream,
so that a GPU is not left waiting on one core's augmentation; without it (the CPU default) the loop draws every
batch from the one --seed stream, as it always has.
"""
import argparse
import copy
import math
import os
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from common import CACHE, REPO, decode, iter_scenes  # noqa: E402
import models  # noqa: E402
from models import freeze_bn, restore_bn_statistics  # noqa: E402
from models import DetectorExport, TileDetector  # noqa: E402
import real_data  # noqa: E402

cv2.setNumThreads(1)
STRIDE = 8


def load_scenes(name, with_shard=False, encoded=False):
    """-> list of (rgb uint8 HxWx3, labels [n,7] = cls,cx,cy,w,h,phi,ignore)
    (with_shard=True: also return the shard number of each scene; encoded=True: keep each image as its JPEG bytes,
    decoded by `scene_image` where a batch is made, which spreads the decoding over the batch workers)"""
    out = []
    shards = []
    for shard, im, labels in iter_scenes(name, encoded):
        out.append((im, labels))
        shards.append(shard)
    return (out, shards) if with_shard else out


def scene_image(im):
    return decode(im) if isinstance(im, bytes) else im


def is_landscape(im):
    if isinstance(im, bytes):  # the shape alone: an eighth-size grey decode is enough
        small = cv2.imdecode(np.frombuffer(im, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8)
        return small.shape[1] > small.shape[0]
    return im.shape[1] > im.shape[0]


def roboflow_scenes(splits):
    out = []
    for split in splits:
        for im, bb in real_data.roboflow_boxes(split):
            labs = []
            for code, x1, y1, x2, y2 in bb:
                labs.append([0, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, -math.pi / 2, 1 if code is None else 0])
            out.append((im, np.array(labs, np.float32).reshape(-1, 7)))
    return out


def affine_sample(rng, im, labs, H, W, scale_range=(0.7, 1.4), rot90=False):
    """Random scale/translate/flip into an HxW canvas (letterbox-style gray padding)."""
    h0, w0 = im.shape[:2]
    s = min(W / w0, H / h0) * math.exp(rng.uniform(math.log(scale_range[0]), math.log(scale_range[1])))
    nw, nh = w0 * s, h0 * s
    tx = rng.uniform(min(0, W - nw), max(0, W - nw))
    ty = rng.uniform(min(0, H - nh), max(0, H - nh))
    M = np.array([[s, 0, tx], [0, s, ty]], np.float64)
    fx = rng.random() < 0.5
    fy = rng.random() < 0.2
    if fx:
        M = np.array([[-1, 0, W], [0, 1, 0]], np.float64) @ np.vstack([M, [0, 0, 1]])
    if fy:
        M = np.array([[1, 0, 0], [0, -1, H], [0, 0, 1]], np.float64)[:2] @ np.vstack([M, [0, 0, 1]])
    out = cv2.warpAffine(im, M, (W, H), flags=cv2.INTER_LINEAR if s > 0.6 else cv2.INTER_AREA,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(127, 127, 127))
    L = labs.copy()
    if len(L):
        pts = np.stack([L[:, 1], L[:, 2], np.ones(len(L))], 1) @ M.T
        L[:, 1], L[:, 2] = pts[:, 0], pts[:, 1]
        L[:, 3] *= s
        L[:, 4] *= s
        ux, uy = np.cos(L[:, 5]), np.sin(L[:, 5])
        if fx:
            ux = -ux
        if fy:
            uy = -uy
        L[:, 5] = np.arctan2(uy, ux)
        # tiles whose centre left the canvas are dropped; tiles cut by the border become ignore
        inside = (L[:, 1] >= 0) & (L[:, 1] < W) & (L[:, 2] >= 0) & (L[:, 2] < H)
        r = np.maximum(L[:, 3], L[:, 4]) / 2
        cut = (L[:, 1] - r * 0.6 < 0) | (L[:, 1] + r * 0.6 > W) | (L[:, 2] - r * 0.6 < 0) | (L[:, 2] + r * 0.6 > H)
        L[cut, 6] = 1
        L = L[inside]
    return out, L


def make_targets(labs, H, W):
    h, w = H // STRIDE, W // STRIDE
    heat = np.zeros((h, w), np.float32)
    ign = np.zeros((h, w), np.float32)
    reg = np.zeros((6, h, w), np.float32)
    regw = np.zeros((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # big tiles first so small ones win shared cells
    order = np.argsort(-(labs[:, 3] * labs[:, 4])) if len(labs) else []
    for k in order:
        _, cx, cy, bw, bh, phi, ig = labs[k]
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5
        if ig:
            r = max(bw, bh) / STRIDE / 2
            ign[(np.abs(xx - gx) <= r) & (np.abs(yy - gy) <= r)] = 1
            continue
        sig = max(0.55, 0.18 * min(bw, bh) / STRIDE)
        x0, x1 = int(max(0, math.floor(gx - 3 * sig))), int(min(w, math.ceil(gx + 3 * sig) + 1))
        y0, y1 = int(max(0, math.floor(gy - 3 * sig))), int(min(h, math.ceil(gy + 3 * sig) + 1))
        if x1 <= x0 or y1 <= y0:
            continue
        ix, iy = int(round(gx)), int(round(gy))
        ix, iy = min(max(ix, 0), w - 1), min(max(iy, 0), h - 1)
        g = np.exp(-((xx[y0:y1, x0:x1] - ix) ** 2 + (yy[y0:y1, x0:x1] - iy) ** 2) / (2 * sig * sig))
        heat[y0:y1, x0:x1] = np.maximum(heat[y0:y1, x0:x1], g)
        heat[iy, ix] = 1.0
        # regression at cells close to the centre (relative to each cell)
        near = g > 0.5
        cys, cxs = np.nonzero(near)
        cys, cxs = cys + y0, cxs + x0
        reg[0, cys, cxs] = gx - cxs
        reg[1, cys, cxs] = gy - cys
        reg[2, cys, cxs] = math.log(max(bw, 1) / STRIDE)
        reg[3, cys, cxs] = math.log(max(bh, 1) / STRIDE)
        reg[4, cys, cxs] = math.cos(2 * phi)
        reg[5, cys, cxs] = math.sin(2 * phi)
        regw[cys, cxs] = np.maximum(regw[cys, cxs], g[near])
        ign[iy, ix] = 0
    ign[heat == 1] = 0
    return heat, ign, reg, regw


def focal_loss(logit, gt, ign):
    p = torch.sigmoid(logit.float()).clamp(1e-4, 1 - 1e-4)
    pos = (gt >= 0.999).float()
    neg = (1 - pos) * (1 - ign)
    pl = -torch.log(p) * (1 - p) ** 2 * pos
    nl = -torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return (pl.sum() + nl.sum()) / npos


def batch_from(rng, pool, idx, H, W, syn=True):
    xs, hs, igs, rs, rws = [], [], [], [], []
    for i in idx:
        im, labs = pool[i]
        im = scene_image(im)
        if syn:
            im2, L = affine_sample(rng, im, labs, H, W, scale_range=(0.8, 1.25))
        else:
            im2, L = affine_sample(rng, im, labs, H, W, scale_range=(0.5, 2.2))
            # photometric jitter for the real photos
            im2 = np.clip(im2.astype(np.float32) * rng.uniform(0.75, 1.2, 3) + rng.uniform(-20, 20), 0, 255).astype(np.uint8)
        hm, ig, rg, rw = make_targets(L, H, W)
        xs.append(im2)
        hs.append(hm)
        igs.append(ig)
        rs.append(rg)
        rws.append(rw)
    x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float().div_(255).contiguous(memory_format=torch.channels_last)
    return (x, torch.from_numpy(np.stack(hs))[:, None], torch.from_numpy(np.stack(igs))[:, None],
            torch.from_numpy(np.stack(rs)), torch.from_numpy(np.stack(rws))[:, None])


def synthetic_batch(rng, syn, pool, bs, portrait):
    """A batch of `bs` scenes drawn from `pool` (indices into `syn`), at the portrait or landscape training size."""
    H, W = (640, 384) if portrait else (384, 640)
    return batch_from(rng, syn, rng.choice(pool, bs), H, W)


def next_batch(rng, args, syn, land, port, real):
    """One training batch: roboflow photos for a share args.real_frac of batches, else synthetic scenes, portrait or
    landscape in proportion to the scenes of each."""
    r = rng.random()
    if r < args.real_frac:
        H, W = (384, 640) if rng.random() < 0.7 else (640, 384)
        idx = rng.integers(0, len(real), args.bs)
        return batch_from(rng, real, idx, H, W, syn=False)
    portrait = r < args.real_frac + (1 - args.real_frac) * len(port) / max(1, len(port) + len(land))
    return synthetic_batch(rng, syn, port if portrait else land, args.bs, portrait)


class BatchStream(torch.utils.data.IterableDataset):
    """Endless `next_batch` batches for a DataLoader worker, each worker on its own stream (seed, worker id)."""

    def __init__(self, args, syn, land, port, real):
        super().__init__()
        self.parts = (args, syn, land, port, real)

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.parts[0].seed, 1 + (info.id if info else 0)])
        while True:
            yield next_batch(rng, *self.parts)


def losses(model, batch):
    x, hm, ig, rg, rw = batch
    with models.bf16_autocast():
        heat, reg = model(x)
    heat, reg = heat.float(), reg.float()
    lh = focal_loss(heat, hm, ig)
    nw = rw.sum().clamp(min=1)
    lo = (torch.abs(reg[:, 0:2] - rg[:, 0:2]) * rw).sum() / nw
    ls = (torch.abs(reg[:, 2:4] - rg[:, 2:4]) * rw).sum() / nw
    la = (torch.abs(reg[:, 4:6] - rg[:, 4:6]) * rw).sum() / nw
    return lh, lo, ls, la


# The light a `--distill-light` student is shown (shares of the batch): the light the photo was taken in, a dim
# room (overall gain 0.3-0.7 with the sensor noise of a dark photo), a warm cast (tungsten) and a cool one, and a dim
# warm room. The generator's scenes reach down to an overall gain of 0.6 only.
LIGHTS = (("same", 0.3), ("dim", 0.3), ("warm", 0.2), ("cool", 0.1), ("dim warm", 0.1))
# `--lights blur-bright`: the conditions the held-out hands read worst (README, "Photos in other light and by other
# cameras"): a hand or camera that moved (a line blur of 3-9 detector pixels, a 1280x720 photo's 6-18), and a webcam
# that exposed for a dark mat (overall gain 1.2-2.2, the faces clipped at white), and both.
LIGHT_SETS = {
    "light": LIGHTS,
    "blur-bright": (("same", 0.25), ("motion", 0.3), ("bright", 0.3), ("bright motion", 0.15)),
}
# Below this heat logit (a score of 0.0025) the teacher and the student count as agreeing: no tile is found there.
DISTILL_FLOOR = -6.0
# The teacher's boxes whose geometry the student learns: scores from 0.05, the faint boxes the runtime's layout
# still looks at.
DISTILL_BOX_LOGIT = math.log(0.05 / 0.95)


def line_kernel(length, angle):
    """A motion blur's kernel: a line of `length` pixels at `angle` (radians), summing to 1."""
    k = int(math.ceil(length)) | 1
    grid = torch.arange(k, dtype=torch.float32) - k // 2
    yy, xx = torch.meshgrid(grid, grid, indexing="ij")
    along = xx * math.cos(angle) + yy * math.sin(angle)
    across = -xx * math.sin(angle) + yy * math.cos(angle)
    w = (1 - across.abs()).clamp(min=0) * (along.abs() <= length / 2).float()
    return w / w.sum()


def in_other_light(x, g, lights=LIGHTS):
    """The batch as taken in other light (`lights`: LIGHTS or another of LIGHT_SETS), one light per image; the
    letterbox padding stays grey, as the runtime pads a photo whatever its light."""
    n = x.shape[0]
    shares = torch.tensor([share for _, share in lights])
    kind = torch.multinomial(shares, n, replacement=True, generator=g)
    names = [lights[k][0] for k in kind.tolist()]

    def u(lo, hi):
        return lo + (hi - lo) * torch.rand((), generator=g).item()

    gain = torch.ones(n, 3, 1, 1)
    noise = torch.zeros(n, 1, 1, 1)
    for i, name in enumerate(names):
        if "dim" in name:
            gain[i] *= u(0.3, 0.7)
            noise[i] = u(0.004, 0.025)
        if "warm" in name:
            gain[i, :, 0, 0] *= torch.tensor([u(1.0, 1.25), u(0.88, 1.0), u(0.6, 0.85)])
        if name == "cool":
            gain[i, :, 0, 0] *= torch.tensor([u(0.7, 0.9), u(0.95, 1.05), u(1.0, 1.2)])
        if "bright" in name:
            gain[i] *= u(1.2, 2.2)
    pad = (x == 127 / 255).all(1, keepdim=True)
    y = x.clone()
    for i, name in enumerate(names):
        if "motion" in name:
            # Most shake is along the row (a hand sweeping the phone), some at any angle.
            angle = u(-0.3, 0.3) if torch.rand((), generator=g).item() < 0.6 else u(0, math.pi)
            k = line_kernel(u(3, 9), angle)
            img = F.pad(x[i:i + 1].float(), [k.shape[1] // 2] * 2 + [k.shape[0] // 2] * 2, mode="replicate")
            y[i] = F.conv2d(img, k[None, None].expand(3, 1, -1, -1).contiguous(), groups=3)[0]
    y = (y * gain + torch.randn(x.shape, generator=g) * noise).clamp(0, 1)
    return torch.where(pad, x, y).contiguous(memory_format=torch.channels_last)


def distill_losses(student, teacher, x, g, anchor=0.0, lights=LIGHTS):
    """What the frozen teacher finds in the photo as taken, the student learns to find in it in other light: its
    scores (heat logits above DISTILL_FLOOR) and, at the teacher's boxes, their geometry. Where the light is the
    same the student is held to the teacher, so its boxes in ordinary light, which the runtime's layout rules were
    measured on, stay where they were. `anchor`: the student also reads each photo as taken, and its differences
    from the teacher there weigh that much more (the other light alone let them drift)."""
    with torch.no_grad():
        t_heat, t_reg = teacher(x)
    n = x.shape[0]
    shown = in_other_light(x, g, lights)
    if anchor > 0:
        shown = torch.cat([shown, x]).contiguous(memory_format=torch.channels_last)
        t_heat, t_reg = torch.cat([t_heat, t_heat]), torch.cat([t_reg, t_reg])
    with models.bf16_autocast():
        s_heat, s_reg = student(shown)
    s_heat, s_reg = s_heat.float(), s_reg.float()
    t_heat, t_reg = t_heat.float(), t_reg.float()
    weight = torch.ones(len(shown), 1, 1, 1)
    weight[n:] = anchor
    return distill_terms(s_heat, s_reg, t_heat, t_reg, weight)


def anchor_losses(student, teacher, x, anchor):
    """distill_terms on the photos as taken, weighted `anchor`: the student held to the teacher (its starting self)
    where the light is ordinary, so that what it learns from labels in other light does not move its boxes there."""
    with torch.no_grad():
        t_heat, t_reg = teacher(x)
    with models.bf16_autocast():
        s_heat, s_reg = student(x)
    weight = torch.full((len(x), 1, 1, 1), float(anchor))
    return distill_terms(s_heat.float(), s_reg.float(), t_heat.float(), t_reg.float(), weight)


def distill_terms(s_heat, s_reg, t_heat, t_reg, weight):
    """distill_losses' four terms (heat, offset, size, angle), each image's differences times its `weight`."""
    live = ((t_heat > DISTILL_FLOOR) | (s_heat > DISTILL_FLOOR)).float()
    lh = ((s_heat.clamp(min=DISTILL_FLOOR) - t_heat.clamp(min=DISTILL_FLOOR)) ** 2 * live * weight).sum() \
        / live.sum().clamp(min=1)
    w = torch.sigmoid(t_heat) * (t_heat > DISTILL_BOX_LOGIT).float() * weight
    nw = w.sum().clamp(min=1)
    lo = (torch.abs(s_reg[:, 0:2] - t_reg[:, 0:2]) * w).sum() / nw
    ls = (torch.abs(s_reg[:, 2:4] - t_reg[:, 2:4]) * w).sum() / nw
    la = (torch.abs(s_reg[:, 4:6] - t_reg[:, 4:6]) * w).sum() / nw
    return lh, lo, ls, la


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=50)
    ap.add_argument("--bs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--real-frac", type=float, default=0.15, help="share of batches drawn from roboflow photos")
    ap.add_argument("--out", default=os.path.join(REPO, "models", "tile_detector.onnx"))
    ap.add_argument("--ckpt", default=os.path.join(CACHE, "ckpt_det.pt"))
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--init", default=None,
                    help="start from this model checkpoint (e.g. recover_ckpt.py's ckpt_det_onnx.pt), fresh optimizer")
    ap.add_argument("--threads-file", default=None, help="switch to 2 threads once this file exists")
    ap.add_argument("--boost-from", type=int, default=None, help="oversample synthetic shards with this number or higher")
    ap.add_argument("--boost", type=int, default=3, help="repeat factor of the --boost-from shards")
    ap.add_argument("--boost-shards", default="", help="comma list of shard numbers also repeated --boost times")
    ap.add_argument("--freeze-bn", action="store_true",
                    help="keep BatchNorm in eval mode (fixed statistics): fine-tuning from weights rebuilt from ONNX "
                         "by recover_ckpt.py, which are exact only with the statistics they were given")
    ap.add_argument("--restore-bn", type=int, default=0, metavar="N",
                    help="with --init from recover_ckpt.py: measure BatchNorm statistics on N training batches first "
                         "(models.restore_bn_statistics), so the model trains with live BatchNorm from where it was")
    ap.add_argument("--distill-light", action="store_true",
                    help="with --init: no labels; the model learns to find in other light what it finds now in the "
                         "light the photo was taken in (distill_losses); BatchNorm kept frozen")
    ap.add_argument("--anchor", type=float, default=0.0,
                    help="with --distill-light: also hold the model to the teacher on the photos as taken, this much "
                         "more strongly; with --show-lights and --init: the labels in other light, and the model held "
                         "to its starting self (a frozen teacher) on the photos as taken with this weight "
                         "(anchor_losses), so its boxes in ordinary light stay where they were")
    ap.add_argument("--lights", choices=sorted(LIGHT_SETS), default="light",
                    help="with --distill-light or --show-lights: the light the model is shown (LIGHT_SETS)")
    ap.add_argument("--show-lights", action="store_true",
                    help="labelled training on the photos shown in --lights' light (no teacher unless --anchor)")
    ap.add_argument("--device", default="cpu", help="where the model trains: cpu, or cuda on a machine with a GPU")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes making batches (BatchStream); 0: the training loop makes them itself")
    args = ap.parse_args()
    if args.distill_light and args.show_lights:
        ap.error("--distill-light (no labels) and --show-lights (labels) are two ways to train: pick one")
    anchored = args.show_lights and args.anchor > 0
    if (args.distill_light or anchored) and not args.init:
        ap.error("--distill-light and --show-lights --anchor need --init (the teacher)")
    if (args.distill_light or anchored) and args.device != "cpu":
        ap.error("--distill-light and --show-lights --anchor train on the CPU only")
    device = torch.device(args.device)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    models.FP32_DILATED_DW = True
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    syn, shard_of = load_scenes("train", with_shard=True, encoded=args.workers > 0)
    named = {int(x) for x in args.boost_shards.split(",") if x}
    rep = [args.boost if (args.boost_from is not None and sh >= args.boost_from) or sh in named else 1
           for sh in shard_of]
    wide = [is_landscape(im) for im, _ in syn]
    land = [i for i in range(len(syn)) if wide[i] for _ in range(rep[i])]
    port = [i for i in range(len(syn)) if not wide[i] for _ in range(rep[i])]
    real = roboflow_scenes(["train", "valid"])
    print(f"scenes: {len(land)} landscape, {len(port)} portrait, {len(real)} roboflow ({time.time() - t0:.0f}s)", flush=True)
    model = TileDetector().to(memory_format=torch.channels_last)
    print("params", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    start_step = 0
    if args.resume and os.path.exists(args.ckpt):
        ck = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        start_step = ck["step"]
    elif args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu")["model"])
        print("initialized from", args.init, flush=True)
        if args.restore_bn:
            restore_bn_statistics(model, (synthetic_batch(rng, syn, port if k % 2 else land, args.bs, k % 2 == 1)[0]
                                          for k in range(args.restore_bn)))
            print(f"BatchNorm statistics measured on {args.restore_bn} batches", flush=True)
    if device.type != "cpu":
        model.to(device)
        opt.load_state_dict(opt.state_dict())  # a --resume's optimizer state follows its parameters to the device
        torch.backends.cudnn.benchmark = True
    stream = None
    if args.workers > 0:
        stream = iter(torch.utils.data.DataLoader(BatchStream(args, syn, land, port, real), batch_size=None,
                                                  num_workers=args.workers, prefetch_factor=4,
                                                  pin_memory=device.type == "cuda"))
    teacher = None
    if args.distill_light or anchored:
        teacher = copy.deepcopy(model).eval()
        for p in teacher.parameters():
            p.requires_grad_(False)
        args.freeze_bn = True
    g = torch.Generator().manual_seed(args.seed)
    budget = args.minutes * 60
    t_train = time.time()
    step = start_step
    hist = []
    while True:
        el = time.time() - t_train
        if el > budget:
            break
        frac = min(1.0, el / budget)
        lr = args.lr * (min(1.0, (step + 1) / 150) if start_step == 0 else 1.0) * (0.5 * (1 + math.cos(math.pi * frac)) * 0.97 + 0.03)
        for gp in opt.param_groups:
            gp["lr"] = lr
        model.train()
        if args.freeze_bn:
            freeze_bn(model)
        batch = next_batch(rng, args, syn, land, port, real) if stream is None else next(stream)
        taken = batch[0]
        if args.show_lights:
            # Light and blur leave the tiles where they are: the labels hold as they are.
            batch = [in_other_light(taken, g, LIGHT_SETS[args.lights]), *batch[1:]]
        if device.type != "cpu":
            batch = [t.to(device, non_blocking=True) for t in batch]
        if args.distill_light:
            lh, lo, ls, la = distill_losses(model, teacher, batch[0], g, args.anchor, LIGHT_SETS[args.lights])
        else:
            lh, lo, ls, la = losses(model, batch)
            if anchored:
                terms = anchor_losses(model, teacher, taken, args.anchor)
                lh, lo, ls, la = (a + b for a, b in zip((lh, lo, ls, la), terms))
        loss = lh + lo + ls + 0.5 * la
        opt.zero_grad(set_to_none=True)
        if not torch.isfinite(loss):
            print("non-finite loss, batch skipped", flush=True)
            continue
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        if not torch.isfinite(gn):
            print("non-finite gradient, step skipped", flush=True)
            opt.zero_grad(set_to_none=True)
            continue
        opt.step()
        if args.threads_file and os.path.exists(args.threads_file) and torch.get_num_threads() != 2:
            torch.set_num_threads(2)  # the other training job finished: take both cores
            print("now using 2 threads", flush=True)
        step += 1
        hist.append([lh.item(), lo.item(), ls.item(), la.item()])
        if step % 50 == 0:
            m = np.mean(hist, 0)
            hist = []
            print(f"step {step} {el / 60:.1f}min lr {lr:.5f} heat {m[0]:.3f} off {m[1]:.3f} size {m[2]:.3f} "
                  f"ang {m[3]:.3f} ({(step - start_step) * args.bs / max(1, el):.1f} img/s)", flush=True)
        if step % 300 == 0:
            save_checkpoint(model, opt, step, args.ckpt)
    save_checkpoint(model, opt, step, args.ckpt)
    print(f"trained {step} steps in {(time.time() - t_train) / 60:.1f} min", flush=True)
    export(model, args.out)


def save_checkpoint(model, opt, step, path):
    """Weights saved as CPU tensors, so that a checkpoint written on a GPU loads anywhere."""
    state = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    torch.save({"model": state, "opt": opt.state_dict(), "step": step}, path)


def export(model, out):
    models.FP32_DILATED_DW = False
    model = model.cpu().float().eval().to(memory_format=torch.contiguous_format)
    m = DetectorExport(model).eval()
    x = torch.rand(1, 3, 384, 640)
    hdim = torch.export.Dim("h32", min=2, max=64)
    wdim = torch.export.Dim("w32", min=2, max=64)
    torch.onnx.export(m, (x,), out, input_names=["image"], output_names=["scores", "geom"], dynamo=True,
                      external_data=False, dynamic_shapes={"x": {2: 32 * hdim, 3: 32 * wdim}})
    print("exported", out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
