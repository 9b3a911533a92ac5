"""Synthetic scene generator for the riichi-lens tile recognizer.

Renders riichi tiles as 3-D boxes (ivory face layer + coloured back layer, art on the face, rounded corners)
seen by a pinhole camera over a textured table, with shadows, lighting, glare, blur, noise and JPEG.
Layouts: a winning-hand row (flat or standing), called melds to the right with one tile sideways,
closed kans (back, face, face, back), dora indicators apart, loose / rotated / stacked tiles, distractors.

Outputs (into --out, default .cache-train/):
  det/<name>_<shard>.npz : jpeg bytes of scenes + per-tile labels (class, cx, cy, w, h, phi, ignore)
  cls/<name>_<shard>.npz : 64x48 RGB crops cut from the same (JPEG-degraded) scenes with jittered boxes

Usage: nice -n 19 python models/training/gen_data.py --name train --scenes 3000 --shard 0 --seed 1
"""
import argparse
import glob
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import (ART_DIR, ART_NAMES, BACK, CACHE, CLASSES, CLS, CROP_H, CROP_W,  # noqa: E402
                    cut_crop, load_camerash)
import alt_art  # noqa: E402

cv2.setNumThreads(1)
TEX_W, TEX_H = 96, 128
KEYBOARD_P = 0.0  # share of scenes with a keyboard distractor (--keyboard)
HARDNEG_P = 0.0  # share of scenes with tile-sized hard negatives (--hard-negatives)
HAKU_FRAME_P = 0.0  # --haku-frames: share of white dragons drawn with a printed frame
REAL_KEYBOARD_P = 0.0  # --real-keyboards: share of keyboards drawn by draw_real_keyboard
NO_WHITE_BACKS = False  # --no-white-backs: back colours clearly distinct from the ivory face
ADDED_KAN_P = 0.0  # --added-kans: share of pons shown as added kans (a second sideways tile on the called one)
EXTRA_HAKU_P = 0.0  # --extra-haku: share of tile draws forced to a white dragon
GRID_P = 0.0  # --grids: share of scenes whose tiles lie in a block of rows packed edge to edge (shop photos, sorted sets)
BOOKSHELF_P = 0.0  # --bookshelf: share of scenes with a row of book spines along an edge
BACK_TABLE_P = 0.0  # --back-table: share of scenes whose cloth is the colour of the set's backs
ALT_ART_P = 0.0  # --alt-art: share of (ivory) sets whose faces are drawn by alt_art.py instead of the FluffyStuff art
ALT_FONTS = "train"  # --alt-fonts: the glyph sheets those sets draw their characters from (alt_art.fonts)

# ----------------------------------------------------------------------------------------------- assets
_ART = {}


def load_art():
    if _ART:
        return _ART
    for var in ("Regular", "Black"):
        for fn in glob.glob(os.path.join(ART_DIR, var, "*.png")):
            name = os.path.splitext(os.path.basename(fn))[0]
            im = cv2.imread(fn, cv2.IMREAD_UNCHANGED)
            if im.shape[2] == 3:
                im = np.dstack([im, np.full(im.shape[:2], 255, np.uint8)])
            im = cv2.cvtColor(im, cv2.COLOR_BGRA2RGBA)
            _ART[(var, name)] = im
    return _ART


_REAL = {}


def load_real(split="train"):
    """camerash real crops (train split only), resized to texture size, grouped by class."""
    if _REAL:
        return _REAL
    for path, code, sp in load_camerash():
        if sp != split:
            continue
        im = cv2.imread(path)
        if im is None:
            continue
        im = cv2.cvtColor(cv2.resize(im, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
        _REAL.setdefault(CLS[code], []).append(im)
    return _REAL


# ----------------------------------------------------------------------------------------------- textures
def rounded_mask(w, h, r):
    m = np.zeros((h, w), np.uint8)
    r = int(max(1, r))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for (x, y) in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (x, y), r, 255, -1, cv2.LINE_AA)
    return m


IVORY = [(246, 243, 232), (250, 250, 246), (240, 232, 210), (236, 236, 228), (252, 246, 226), (228, 224, 212)]
# NB: the near-white back (245, 245, 240) makes a face-down tile look like a white dragon; the classifier fine-tune
# (train_cls.py --drop-white-backs) removes those back crops. Kept here so the generated data stays reproducible.
BACKS = [(232, 190, 40), (250, 210, 70), (40, 120, 60), (30, 90, 170), (230, 120, 40), (200, 40, 40),
         (30, 30, 30), (120, 60, 150), (70, 160, 200), (245, 245, 240), (60, 140, 110), (210, 160, 40)]


def back_is_whiteish(c):
    """True for a back colour that could pass for an ivory face (bright and unsaturated)."""
    c = np.asarray(c, np.float32)
    return bool(c.min() > 165 and c.max() - c.min() < 70)


def pick_back(rng):
    """Back colour of a set. With NO_WHITE_BACKS the near-white entry is skipped and jittered colours that come out
    bright and unsaturated (ivory-like) are redrawn, so a face-down tile never looks like a blank white dragon."""
    while True:
        base = BACKS[rng.integers(len(BACKS))]
        if NO_WHITE_BACKS and back_is_whiteish(base):
            continue
        c = jitter_color(rng, base, 25)
        if NO_WHITE_BACKS and back_is_whiteish(c):
            continue
        return c


def jitter_color(rng, c, amt=18):
    return tuple(int(np.clip(v + rng.integers(-amt, amt + 1), 0, 255)) for v in c)


def recolor_art(rng, rgb, alpha):
    """Randomly remap the art's colour groups (keeps reds reddish: red fives / chun stay red)."""
    r, g, b = [rgb[..., i].astype(np.int32) for i in range(3)]
    mx = np.maximum(np.maximum(r, g), b)
    red = (r > g + 50) & (r > b + 50)
    green = (g > r + 20) & (g >= b) & ~red
    blue = (b > r + 20) & (b > g) & ~red
    dark = (mx < 90) & ~red & ~green & ~blue
    out = rgb.astype(np.float32)
    pal = {
        "red": [(200, 30, 30), (170, 20, 40), (220, 50, 30), (190, 40, 70), (230, 60, 60)],
        "green": [(20, 110, 40), (10, 80, 40), (30, 30, 30), (20, 120, 90), (60, 130, 40), (20, 60, 100)],
        "blue": [(20, 40, 140), (20, 20, 30), (30, 60, 120), (20, 90, 130), (60, 30, 110), (20, 110, 40)],
        "dark": [(15, 15, 15), (30, 30, 60), (20, 40, 20), (40, 20, 20), (5, 5, 5)],
    }
    for key, m in (("red", red), ("green", green), ("blue", blue), ("dark", dark)):
        if rng.random() < 0.55 and m.any():
            c = np.array(jitter_color(rng, pal[key][rng.integers(len(pal[key]))], 15), np.float32)
            lum = out[m].mean(axis=1, keepdims=True) / 255.0
            out[m] = c * (0.6 + 0.4 * lum / max(1e-3, lum.mean()))
    return np.clip(out, 0, 255).astype(np.uint8)


def make_face_texture(rng, cls, style):
    """RGB texture (TEX_H x TEX_W) of a tile face, style dict shared by the tiles of one set."""
    if cls == BACK:
        return make_back_texture(rng, style)
    if style["real"] and rng.random() < 0.5:
        real = load_real()
        if cls in real:
            im = real[cls][rng.integers(len(real[cls]))].astype(np.float32)
            im = im * rng.uniform(0.85, 1.1, 3)[None, None] + rng.uniform(-15, 15)
            return np.clip(im, 0, 255).astype(np.uint8)
    base = np.array(style["ivory"], np.float32)
    face = np.ones((TEX_H, TEX_W, 3), np.float32) * base
    # gentle gradient + noise
    gy = np.linspace(-1, 1, TEX_H)[:, None, None] * rng.uniform(-8, 8)
    face = face + gy + rng.normal(0, 2.0, face.shape)
    alt = alt_art.ink(rng, cls, style["alt"], TEX_W, TEX_H) if "alt" in style else None
    if alt is not None:
        canvas_rgb, canvas_a = alt
        canvas_rgb = canvas_rgb * style["ink_gain"]
        if style["faded"]:
            canvas_rgb = canvas_rgb * 0.6 + base * 0.4
    else:
        canvas_rgb, canvas_a = place_art(rng, cls, style, base)
    if style["engrave"]:
        # engraved / embossed: shade the art edges with a directional relief
        sh = np.roll(np.roll(canvas_a, 1, 0), 1, 1) - canvas_a
        face = face + (sh * style["engrave"] * 60)[..., None]
    face = face * (1 - canvas_a[..., None]) + canvas_rgb * canvas_a[..., None]
    if cls == CLS["P"] and HAKU_FRAME_P > 0 and rng.random() < HAKU_FRAME_P:
        # many sets (most Chinese ones) print the white dragon as a frame, usually blue, instead of a blank face
        ink = [(40, 80, 170), (30, 30, 35), (30, 110, 70), (60, 120, 200)][rng.integers(4)]
        m = int(TEX_W * rng.uniform(0.1, 0.2))
        t = int(rng.integers(2, 6))
        cv2.rectangle(face, (m, int(m * 1.2)), (TEX_W - 1 - m, TEX_H - 1 - int(m * 1.2)), ink, t)
        if rng.random() < 0.5:
            cv2.rectangle(face, (m + 2 * t, int(m * 1.2) + 2 * t), (TEX_W - 1 - m - 2 * t, TEX_H - 1 - int(m * 1.2) - 2 * t),
                          ink, max(1, t // 2))
    if style["blur_art"]:
        face = cv2.GaussianBlur(face, (3, 3), 0.8)
    return np.clip(face, 0, 255).astype(np.uint8)


def place_art(rng, cls, style, base):
    """The FluffyStuff art of `cls` in the set's style, as an RGB layer and its coverage in the texture frame."""
    art = load_art()
    name = [k for k, v in ART_NAMES.items() if CLS[v] == cls][0]
    a = art[("Black" if style["black"] else "Regular", name)]
    # art placement
    s = style["art_scale"] * rng.uniform(0.97, 1.03)
    aw, ah = int(TEX_W * s), int(TEX_H * s)
    art_rs = cv2.resize(a, (aw, ah), interpolation=cv2.INTER_AREA)
    rgb, alpha = art_rs[..., :3], art_rs[..., 3].astype(np.float32) / 255.0
    if style["stroke"] != 0:
        k = np.ones((2, 2), np.uint8)
        alpha = cv2.dilate(alpha, k) if style["stroke"] > 0 else cv2.erode(alpha, k)
    if style["recolor"]:
        rgb = recolor_art(style["rng_art"], rgb, alpha)
    rgb = rgb.astype(np.float32) * style["ink_gain"]
    if style["faded"]:
        rgb = rgb * 0.6 + base * 0.4
    ox = (TEX_W - aw) // 2 + rng.integers(-2, 3)
    oy = (TEX_H - ah) // 2 + rng.integers(-2, 3)
    canvas_a = np.zeros((TEX_H, TEX_W), np.float32)
    canvas_rgb = np.zeros((TEX_H, TEX_W, 3), np.float32)
    x0, y0 = max(0, ox), max(0, oy)
    x1, y1 = min(TEX_W, ox + aw), min(TEX_H, oy + ah)
    canvas_a[y0:y1, x0:x1] = alpha[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    canvas_rgb[y0:y1, x0:x1] = rgb[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    return canvas_rgb, canvas_a


def make_back_texture(rng, style):
    c = np.array(style["back"], np.float32)
    face = np.ones((TEX_H, TEX_W, 3), np.float32) * c
    gy = np.linspace(-1, 1, TEX_H)[:, None, None] * rng.uniform(-12, 12)
    face = face + gy + rng.normal(0, 2.0, face.shape)
    if rng.random() < 0.15:  # printed pattern on some backs
        cv2.rectangle(face, (8, 8), (TEX_W - 9, TEX_H - 9), tuple(float(v) * 0.8 for v in c), 2)
    return np.clip(face, 0, 255).astype(np.uint8)


def random_style(rng):
    black = rng.random() < 0.10
    style = {
        "black": black,
        "ivory": jitter_color(rng, (35, 35, 38), 10) if black else jitter_color(rng, IVORY[rng.integers(len(IVORY))], 10),
        "back": pick_back(rng) if NO_WHITE_BACKS else jitter_color(rng, BACKS[rng.integers(len(BACKS))], 25),
        "art_scale": rng.uniform(0.78, 0.98),
        "stroke": int(rng.choice([-1, 0, 0, 0, 1])),
        "recolor": rng.random() < 0.45,
        "rng_art": np.random.default_rng(rng.integers(1 << 30)),
        "ink_gain": rng.uniform(0.75, 1.1),
        "faded": rng.random() < 0.1,
        "engrave": rng.uniform(0.5, 1.5) if rng.random() < 0.3 else 0,
        "blur_art": rng.random() < 0.3,
        "real": rng.random() < 0.3,
        "thick": rng.uniform(0.6, 0.9),  # thickness / width
        "aspect": rng.uniform(1.28, 1.42),  # height / width
        "face_frac": rng.uniform(0.4, 0.8),  # ivory layer share of thickness
        "corner": rng.uniform(0.06, 0.16),
    }
    # Drawn only with --alt-art, so that without it the scenes stay as they were. Dark-faced sets keep the
    # FluffyStuff art's light variant: alt_art.py inks dark on ivory.
    if ALT_ART_P > 0 and rng.random() < ALT_ART_P and not black:
        style["alt"] = alt_art.draw_style(rng, ALT_FONTS)
    return style


# ----------------------------------------------------------------------------------------------- backgrounds
def value_noise(rng, h, w, scale):
    gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    g = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def make_background(rng, h, w, cloth=None):
    """`cloth`: draw a cloth of about this colour (a felt mat the colour of the tiles' backs) instead of a random
    table."""
    kind = "cloth" if cloth is not None else rng.choice(["cloth", "wood", "wood", "plain", "pattern", "dark", "noise"])
    col = np.array([rng.integers(0, 256) for _ in range(3)], np.float32)
    if kind == "cloth":
        base = cloth if cloth is not None else [(20, 110, 70), (30, 140, 160), (30, 60, 130), (120, 30, 30),
                                                (60, 60, 60), (140, 120, 90)][rng.integers(6)]
        col = np.array(jitter_color(rng, base, 30), np.float32)
        n = value_noise(rng, h, w, 40) * 0.15 + rng.normal(0, 0.04, (h, w)).astype(np.float32)
        img = col[None, None] * (0.9 + n[..., None])
    elif kind == "wood":
        col = np.array(jitter_color(rng, [(150, 80, 40), (190, 130, 80), (110, 60, 30), (210, 170, 120),
                                          (80, 45, 25), (170, 100, 60)][rng.integers(6)], 25), np.float32)
        ang = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        warp = value_noise(rng, h, w, 60) * rng.uniform(10, 40)
        grain = np.sin((t + warp) / rng.uniform(2, 8)) * 0.5 + 0.5
        fine = value_noise(rng, h, w, 3)
        v = 0.8 + 0.15 * grain + 0.08 * fine
        img = col[None, None] * v[..., None]
        if rng.random() < 0.4:  # planks
            pw = rng.uniform(60, 200)
            lines = (np.mod(yy * np.cos(ang) - xx * np.sin(ang), pw) < 2).astype(np.float32)
            img = img * (1 - 0.4 * lines[..., None])
    elif kind == "pattern":
        img = np.ones((h, w, 3), np.float32) * col
        col2 = np.array([rng.integers(0, 256) for _ in range(3)], np.float32)
        p = rng.integers(3)
        s = rng.uniform(8, 40)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        if p == 0:
            m = ((xx // s + yy // s) % 2).astype(np.float32)
        elif p == 1:
            m = (np.sin(xx / s * 3 + yy / s) > 0.3).astype(np.float32)
        else:
            m = np.zeros((h, w), np.float32)
            for _ in range(int(h * w / (s * s * 4))):
                cv2.circle(m, (int(rng.integers(w)), int(rng.integers(h))), int(s / 3), 1.0, -1)
        img = img * (1 - m[..., None]) + col2 * m[..., None]
    elif kind == "dark":
        img = np.ones((h, w, 3), np.float32) * rng.uniform(10, 60)
        img = img + value_noise(rng, h, w, 30)[..., None] * 20
    elif kind == "noise":
        img = np.stack([value_noise(rng, h, w, rng.uniform(10, 80)) for _ in range(3)], -1) * 255
    else:
        img = np.ones((h, w, 3), np.float32) * col
    # lighting gradient
    gx = np.linspace(-1, 1, w)[None, :, None] * rng.uniform(-0.25, 0.25)
    gy = np.linspace(-1, 1, h)[:, None, None] * rng.uniform(-0.25, 0.25)
    img = img * (1 + gx + gy)
    return np.clip(img, 0, 255).astype(np.float32)


def draw_distractors(rng, img, n, idmap=None):
    h, w = img.shape[:2]
    for _ in range(n):
        k = rng.integers(7)
        c = tuple(float(v) for v in rng.integers(0, 256, 3))
        x, y = int(rng.integers(w)), int(rng.integers(h))
        s = int(rng.uniform(0.03, 0.25) * min(h, w))
        if k == 0:  # coin / disc
            cv2.circle(img, (x, y), max(3, s // 3), c, -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), max(2, s // 4), tuple(v * 0.8 for v in c), 1, cv2.LINE_AA)
        elif k == 1:  # card / phone / paper
            box = cv2.boxPoints(((x, y), (s * rng.uniform(0.6, 1.6), s * rng.uniform(0.6, 1.6)), rng.uniform(0, 180)))
            cv2.fillConvexPoly(img, box.astype(np.int32), c, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.putText(img, "".join(chr(rng.integers(65, 90)) for _ in range(3)), (x - s // 3, y),
                            cv2.FONT_HERSHEY_SIMPLEX, s / 80, tuple(255 - v for v in c), 1, cv2.LINE_AA)
        elif k == 2:  # keyboard-ish grid of keys
            kk = max(6, s // 5)
            base = rng.uniform(10, 60)
            for i in range(4):
                for j in range(6):
                    px, py = x + j * (kk + 3), y + i * (kk + 3)
                    cv2.rectangle(img, (px, py), (px + kk, py + kk), (base, base, base), -1)
                    if rng.random() < 0.5:
                        cv2.putText(img, chr(rng.integers(65, 90)), (px + 2, py + kk - 2), cv2.FONT_HERSHEY_SIMPLEX,
                                    kk / 40, (200, 200, 200), 1, cv2.LINE_AA)
        elif k == 3:  # text
            cv2.putText(img, "".join(chr(rng.integers(33, 126)) for _ in range(rng.integers(2, 8))), (x, y),
                        cv2.FONT_HERSHEY_SIMPLEX, s / 60, c, rng.integers(1, 4), cv2.LINE_AA)
        elif k == 4:  # stick / pen
            x2, y2 = x + int(rng.normal(0, s * 2)), y + int(rng.normal(0, s))
            cv2.line(img, (x, y), (x2, y2), c, max(2, s // 8), cv2.LINE_AA)
        elif k == 5:  # die-like small white square with pips
            cv2.rectangle(img, (x, y), (x + s // 3, y + s // 3), (235, 235, 230), -1)
            for _ in range(rng.integers(1, 7)):
                cv2.circle(img, (x + int(rng.integers(2, max(3, s // 3 - 2))), y + int(rng.integers(2, max(3, s // 3 - 2)))),
                           max(1, s // 30), (20, 20, 20), -1)
        else:  # blob
            pts = np.array([[x + rng.normal(0, s / 2), y + rng.normal(0, s / 2)] for _ in range(6)], np.int32)
            cv2.fillConvexPoly(img, cv2.convexHull(pts), c, cv2.LINE_AA)


def draw_keyboard(rng, img, tile_px):
    """Laptop / desktop keyboard (rows of keycaps with legends) and maybe a trackpad: a common desk
    distractor whose keys look tile-like from above."""
    H, W = img.shape[:2]
    key = tile_px * rng.uniform(0.55, 1.15)
    pitch = key * rng.uniform(1.08, 1.25)
    ncol, nrow = int(rng.integers(8, 16)), int(rng.integers(3, 7))
    pw, ph = int(ncol * pitch + pitch), int(nrow * pitch + pitch * (2.5 if rng.random() < 0.4 else 0.6))
    if pw * ph > 4 * W * H or pw < 8 or ph < 8:
        return
    dark = rng.random() < 0.65
    plate = rng.uniform(5, 45) if dark else rng.uniform(150, 230)
    keyc = rng.uniform(10, 55) if dark else rng.uniform(200, 250)
    legend = (rng.uniform(170, 255),) * 3 if dark else (rng.uniform(0, 80),) * 3
    patch = np.ones((ph, pw, 3), np.uint8) * np.uint8(plate)
    r = max(1, int(key * rng.uniform(0.05, 0.2)))
    for i in range(nrow):
        off = (i % 3) * pitch * rng.uniform(0, 0.5)
        for j in range(ncol):
            x0, y0 = int(pitch / 2 + j * pitch + off), int(pitch / 2 + i * pitch)
            kw = key * (1 if rng.random() < 0.85 else rng.uniform(1.3, 2.2))
            x1, y1 = int(x0 + kw), int(y0 + key)
            if x1 >= pw:
                continue
            c = keyc + rng.uniform(-6, 6)
            cv2.rectangle(patch, (x0 + r, y0), (x1 - r, y1), (c, c, c), -1)
            cv2.rectangle(patch, (x0, y0 + r), (x1, y1 - r), (c, c, c), -1)
            cv2.line(patch, (x0 + r, y1), (x1 - r, y1), (c * 0.6,) * 3, max(1, r // 2))  # keycap edge
            if rng.random() < 0.85:
                txt = "".join(chr(int(rng.integers(65, 91))) for _ in range(int(rng.choice([1, 1, 1, 2, 4]))))
                fs = key / 45 * rng.uniform(0.6, 1.0)
                cv2.putText(patch, txt, (x0 + int(key * 0.15), y0 + int(key * 0.45)), cv2.FONT_HERSHEY_SIMPLEX, fs,
                            legend, max(1, int(key / 30)), cv2.LINE_AA)
    if ph > nrow * pitch + pitch and rng.random() < 0.7:  # trackpad
        tw = int(pw * rng.uniform(0.25, 0.4))
        tx = int(pw / 2 - tw / 2)
        cv2.rectangle(patch, (tx, int(nrow * pitch + pitch * 0.7)), (tx + tw, ph - 2),
                      (plate + rng.uniform(-10, 15),) * 3, -1)
    ang = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.normal(0, 8)
    cx, cy = rng.uniform(0, W), rng.uniform(0, H)
    M = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
    M[:, 2] += (cx - pw / 2, cy - ph / 2)
    warped = cv2.warpAffine(patch, M, (W, H), flags=cv2.INTER_AREA)
    mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), M, (W, H))
    img[mask > 127] = warped[mask > 127]


KEY_FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL]


def _key_legend(rng, patch, x0, y0, kw, kh, col, key):
    """Legends the way real keycaps carry them: one centred letter, a symbol over a digit, a corner word, or an
    icon (F-keys, media keys)."""
    th = max(1, int(key / 28 + rng.uniform(0, 0.8)))
    font = KEY_FONTS[rng.integers(len(KEY_FONTS))]
    fs = key / 40 * rng.uniform(0.45, 0.9) * (1.6 if font == cv2.FONT_HERSHEY_PLAIN else 1.0)
    k = rng.integers(5)
    if k == 0:
        cv2.putText(patch, chr(int(rng.integers(65, 91))), (x0 + int(kw * 0.3), y0 + int(kh * 0.65)), font, fs, col, th,
                    cv2.LINE_AA)
    elif k == 1:
        cv2.putText(patch, "!@#$%^&*()"[rng.integers(10)], (x0 + int(kw * 0.3), y0 + int(kh * 0.42)), font, fs * 0.8,
                    col, th, cv2.LINE_AA)
        cv2.putText(patch, str(int(rng.integers(10))), (x0 + int(kw * 0.3), y0 + int(kh * 0.85)), font, fs * 0.8, col,
                    th, cv2.LINE_AA)
    elif k == 2:
        word = ["Shift", "Ctrl", "Alt", "Tab", "Enter", "Del", "Home", "End", "PgUp", "Esc", "F" + str(rng.integers(1, 13)),
                "Insert", "PrtSc", "Fn"][rng.integers(14)]
        cv2.putText(patch, word, (x0 + int(kw * 0.12), y0 + int(kh * rng.uniform(0.4, 0.85))), font, fs * 0.55, col,
                    max(1, th - 1), cv2.LINE_AA)
    elif k == 3:  # icon
        c = (x0 + int(kw * rng.uniform(0.3, 0.7)), y0 + int(kh * rng.uniform(0.3, 0.7)))
        r = max(1, int(key * rng.uniform(0.08, 0.2)))
        j = rng.integers(3)
        if j == 0:
            cv2.circle(patch, c, r, col, max(1, th - 1), cv2.LINE_AA)
        elif j == 1:
            cv2.rectangle(patch, (c[0] - r, c[1] - r), (c[0] + r, c[1] + int(r * 0.7)), col, max(1, th - 1))
        else:
            pts = np.array([[c[0] - r, c[1] + r], [c[0] + r, c[1] + r], [c[0], c[1] - r]], np.int32)
            cv2.polylines(patch, [pts], True, col, max(1, th - 1), cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.putText(patch, "F" + str(rng.integers(1, 13)), (x0 + int(kw * 0.45), y0 + int(kh * 0.9)), font,
                        fs * 0.45, col, 1, cv2.LINE_AA)


def draw_real_keyboard(rng, img, tile_px):
    """Chiclet laptop / desktop keyboard seen in perspective: rounded keycaps with a lit rim and a darker skirt,
    a plate that is often as dark as the keys, wide modifier keys, two-legend and icon keys, backlight glow. The
    keys of a laptop under a mahjong hand are about tile-sized and were a large share of false detections on
    real photos, so they are drawn the way they look rather than as flat rectangles."""
    H, W = img.shape[:2]
    key = tile_px * rng.uniform(0.6, 1.25)
    gap = key * rng.uniform(0.12, 0.35)
    pitch = key + gap
    ncol, nrow = int(rng.integers(6, 16)), int(rng.integers(3, 7))
    pw, ph = int(ncol * pitch * 1.25 + pitch), int(nrow * pitch + pitch)
    if pw * ph > 6 * W * H or pw < 8 or ph < 8:
        return
    dark = rng.random() < 0.7
    keyc = rng.uniform(12, 70) if dark else rng.uniform(185, 245)
    plate = keyc + rng.uniform(-15, 10) if rng.random() < 0.6 else (rng.uniform(120, 200) if dark else rng.uniform(40, 120))
    tint = np.array([rng.uniform(0.9, 1.1) for _ in range(3)], np.float32)
    glow = dark and rng.random() < 0.5
    legend = (rng.uniform(150, 250),) * 3 if dark else (rng.uniform(10, 90),) * 3
    patch = np.full((ph, pw, 3), np.clip(plate, 0, 255), np.uint8)
    r = max(1, int(key * rng.uniform(0.08, 0.22)))
    rim = max(1, int(key * rng.uniform(0.03, 0.08)))
    for i in range(nrow):
        x = pitch / 2 + (i % 3) * pitch * rng.uniform(0, 0.4)
        while x < pw - pitch / 2:
            kw = key * (1 if rng.random() < 0.8 else rng.uniform(1.3, 2.4))
            x0, y0 = int(x), int(pitch / 2 + i * pitch)
            x1, y1 = int(x + kw), int(y0 + key)
            x += kw + gap
            if x1 >= pw:
                break
            c = keyc + rng.uniform(-5, 5)
            skirt = rounded_mask(x1 - x0, y1 - y0, r)
            sub = patch[y0:y1, x0:x1]
            sub[skirt > 0] = min(255, c * rng.uniform(0.55, 0.85))  # side of the keycap, seen past its top face
            top_h = int((y1 - y0) * rng.uniform(0.82, 0.95))
            top = rounded_mask(x1 - x0 - 2 * rim, top_h - rim, max(1, r - rim))
            t = sub[rim:rim + top.shape[0], rim:rim + top.shape[1]]
            t[top > 0] = min(255, c * (1.25 if glow else 1.08))  # lit rim
            inner = rounded_mask(max(2, top.shape[1] - 2 * rim), max(2, top.shape[0] - 2 * rim), max(1, r - 2 * rim))
            ti = t[rim:rim + inner.shape[0], rim:rim + inner.shape[1]]
            ti[inner > 0] = c
            if rng.random() < 0.92:
                _key_legend(rng, patch, x0 + rim, y0 + rim, x1 - x0 - 2 * rim, top_h - rim, legend, key)
    patch = patch.astype(np.float32)
    if glow:
        blur = cv2.GaussianBlur(patch, (0, 0), max(0.8, key * 0.06))
        patch = np.maximum(patch, blur * 0.9 + rng.uniform(5, 25))
    patch = np.clip(patch * tint, 0, 255).astype(np.uint8)
    # perspective: a random homography around a rotation
    ang = rng.uniform(-180, 180) if rng.random() < 0.6 else rng.normal(0, 8)
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    jit = np.float32(rng.uniform(-0.12, 0.12, (4, 2))) * np.float32([pw, ph])
    M = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
    spread = 0.3 if rng.random() < 0.5 else 0.5  # often right under the tiles, as when a hand is shown on a laptop
    M[:, 2] += (W * rng.uniform(0.5 - spread, 0.5 + spread) - pw / 2, H * rng.uniform(0.5 - spread, 0.5 + spread) - ph / 2)
    dst = cv2.transform((src + jit)[None], M)[0].astype(np.float32)
    Hm = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(patch, Hm, (W, H), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), Hm, (W, H))
    img[mask > 127] = warped[mask > 127]


def draw_bookshelf(rng, img, tile_px):
    """A row of book spines along one edge of the photo (a shelf behind the table): narrow upright rectangles, many
    of them white or cream, with titles printed down the spine in dark or red ink and coloured bands. Seen end-on
    under a webcam each spine is tile-sized and tile-coloured with glyph-like marks, and real photos had false
    detections on exactly that."""
    H, W = img.shape[:2]
    side = int(rng.integers(4))
    length = int(tile_px * rng.uniform(2.0, 7.0))
    span = W if side < 2 else H
    pos = int(rng.uniform(-0.2, 0.3) * span)
    end = pos + int(rng.uniform(0.4, 1.2) * span)
    shelf = np.zeros((length, max(1, end - pos), 3), np.uint8)
    shelf[:] = int(rng.uniform(10, 70))
    x = 0
    while x < shelf.shape[1]:
        sw = max(3, int(tile_px * rng.uniform(0.3, 1.4)))
        light = rng.random() < 0.5
        col = np.array(jitter_color(rng, (235, 230, 215), 15) if light else rng.integers(20, 256, 3), np.float32)
        top = int(length * rng.uniform(0.0, 0.25))
        shelf[top:, x:x + sw - 1] = col
        shelf[top:, x + sw - 2:x + sw - 1] = col * 0.7
        ink = (25, 25, 25) if rng.random() < 0.55 else tuple(float(v) for v in jitter_color(rng, (190, 30, 30), 30))
        if rng.random() < 0.4:  # coloured bands
            for _ in range(int(rng.integers(1, 3))):
                y0 = int(rng.uniform(top, length - 4))
                shelf[y0:y0 + max(2, sw // 3), x:x + sw - 1] = rng.integers(20, 230, 3)
        y = top + int(sw * rng.uniform(0.3, 1.0))
        fs = sw / 38 * rng.uniform(0.6, 1.1)
        th = max(1, int(sw / 16))
        while y < length - sw * 0.5 and rng.random() < 0.93:
            ch = chr(int(rng.integers(65, 91))) if rng.random() < 0.7 else "#$%&@+*="[rng.integers(8)]
            font = KEY_FONTS[rng.integers(len(KEY_FONTS))]
            cv2.putText(shelf, ch, (x + int(sw * 0.2), y + int(sw * 0.6)), font, fs, ink, th, cv2.LINE_AA)
            y += int(sw * rng.uniform(0.7, 1.1))
        x += sw + int(rng.integers(0, 3))
    shade_ = 1 + np.linspace(-0.15, 0.15, length)[:, None, None] * rng.choice([-1, 1])
    shelf = np.clip(shelf * shade_, 0, 255).astype(np.uint8)
    if side == 1:
        shelf = shelf[::-1]
    elif side >= 2:
        shelf = np.ascontiguousarray(np.transpose(shelf, (1, 0, 2)))
        if side == 3:
            shelf = shelf[:, ::-1]
    sh, sw_ = shelf.shape[:2]
    y0 = 0 if side in (0, 2, 3) else H - sh
    x0 = 0 if side in (0, 1, 2) else W - sw_
    if side == 0 or side == 1:
        x0 = pos
    else:
        y0 = pos
    ys, xs = max(0, y0), max(0, x0)
    ye, xe = min(H, y0 + sh), min(W, x0 + sw_)
    if ye > ys and xe > xs:
        img[ys:ye, xs:xe] = shelf[ys - y0:ye - y0, xs - x0:xe - x0]


def draw_hard_negatives(rng, img, tile_px, n):
    """Tile-sized, tile-like objects that are not tiles (hard negatives for the class-agnostic detector): light and
    dark keycaps with legends, dice, playing cards / dominoes, coins, phone screens with app icons, printed text,
    and isolated two-tone bars that look like a tile's side face. Drawn on the table before the tiles."""
    H, W = img.shape[:2]
    for _ in range(n):
        k = int(rng.integers(8))
        s = tile_px * rng.uniform(0.6, 1.5)
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        ang = rng.uniform(-180, 180)
        if k == 0:  # single keycaps / small key clusters (white or dark, legend)
            nk = int(rng.integers(1, 5))
            light = rng.random() < 0.5
            kc = rng.uniform(205, 252) if light else rng.uniform(15, 60)
            lg = rng.uniform(0, 70) if light else rng.uniform(170, 255)
            pw, ph = int(s * (1.15 * nk + 0.2)) + 2, int(s * 1.35) + 2
            patch = np.full((ph, pw, 3), kc * 0.7, np.uint8)
            for j in range(nk):
                x0, y0 = int(s * (0.15 + 1.15 * j)), int(s * 0.15)
                x1, y1 = int(x0 + s), int(y0 + s * rng.uniform(0.9, 1.1))
                cv2.rectangle(patch, (x0, y0), (x1, y1), (kc,) * 3, -1)
                txt = "".join(chr(int(rng.integers(33, 91))) for _ in range(int(rng.choice([1, 1, 2, 3]))))
                cv2.putText(patch, txt, (x0 + int(s * 0.15), y0 + int(s * 0.55)), cv2.FONT_HERSHEY_SIMPLEX,
                            s / 45 * rng.uniform(0.5, 1.0), (lg,) * 3, max(1, int(s / 30)), cv2.LINE_AA)
        elif k == 1:  # die: white (or coloured) rounded square with pips, shaded side
            d = int(s * rng.uniform(0.5, 0.9)) + 4
            base = rng.uniform(215, 250) if rng.random() < 0.7 else None
            col = (base,) * 3 if base is not None else tuple(float(v) for v in rng.integers(40, 230, 3))
            patch = np.zeros((int(d * 1.3), d, 3), np.uint8)
            patch[:] = tuple(v * 0.7 for v in col)
            cv2.rectangle(patch, (0, 0), (d - 1, d - 1), col, -1)
            pip = (20, 20, 20) if rng.random() < 0.6 else (200, 30, 30)
            for _ in range(int(rng.integers(1, 7))):
                cv2.circle(patch, (int(rng.uniform(0.2, 0.8) * d), int(rng.uniform(0.2, 0.8) * d)),
                           max(1, d // 10), pip, -1, cv2.LINE_AA)
        elif k == 2:  # playing card / domino / business card: white rectangle, tile-like aspect, pips or text
            pw = int(s * rng.uniform(0.8, 1.6)) + 4
            ph = int(pw * rng.uniform(1.2, 1.6)) if rng.random() < 0.6 else int(pw * rng.uniform(0.45, 0.8)) + 4
            base = rng.uniform(215, 252)
            patch = np.full((ph, pw, 3), base, np.uint8)
            ink = (200, 20, 30) if rng.random() < 0.5 else (20, 20, 20)
            if rng.random() < 0.5:  # pips / domino dots
                for _ in range(int(rng.integers(1, 10))):
                    cv2.circle(patch, (int(rng.uniform(0.15, 0.85) * pw), int(rng.uniform(0.15, 0.85) * ph)),
                               max(1, pw // 12), ink, -1, cv2.LINE_AA)
                if ph < pw:
                    cv2.line(patch, (pw // 2, 2), (pw // 2, ph - 3), ink, 1)
            else:  # text lines / corner index
                for r in range(int(rng.integers(1, 5))):
                    txt = "".join(chr(int(rng.integers(48, 91))) for _ in range(int(rng.integers(1, 6))))
                    cv2.putText(patch, txt, (2, int(ph * (0.25 + 0.2 * r))), cv2.FONT_HERSHEY_SIMPLEX,
                                pw / 90, ink, 1, cv2.LINE_AA)
        elif k == 3:  # coin
            d = int(s * rng.uniform(0.6, 1.1)) + 4
            patch = np.zeros((d, d, 3), np.uint8)
            col = jitter_color(rng, [(200, 160, 60), (190, 190, 195), (170, 110, 60)][rng.integers(3)], 20)
            cv2.circle(patch, (d // 2, d // 2), d // 2 - 1, col, -1, cv2.LINE_AA)
            cv2.circle(patch, (d // 2, d // 2), int(d * 0.38), tuple(v * 0.8 for v in col), 1, cv2.LINE_AA)
            cv2.putText(patch, str(int(rng.integers(1, 100))), (d // 4, int(d * 0.62)), cv2.FONT_HERSHEY_SIMPLEX,
                        d / 70, tuple(v * 0.6 for v in col), 1, cv2.LINE_AA)
            mask = np.zeros((d, d), np.uint8)
            cv2.circle(mask, (d // 2, d // 2), d // 2 - 1, 255, -1)
            _paste(img, patch, cx, cy, ang, mask)
            continue
        elif k == 4:  # phone screen with an icon grid
            pw = int(s * rng.uniform(2.0, 4.0)) + 6
            ph = int(pw * rng.uniform(1.8, 2.2))
            patch = np.full((ph, pw, 3), rng.uniform(5, 40), np.uint8)
            ic = max(3, pw // 6)
            for i in range(int(ph / (ic * 1.6))):
                for j in range(4):
                    col = tuple(float(v) for v in rng.integers(30, 256, 3))
                    x0, y0 = int(pw * 0.08 + j * pw * 0.23), int(ph * 0.06 + i * ic * 1.6)
                    if y0 + ic < ph:
                        cv2.rectangle(patch, (x0, y0), (x0 + ic, y0 + ic), col, -1)
        elif k == 5:  # printed text / label
            txt = "".join(chr(int(rng.integers(33, 126))) for _ in range(int(rng.integers(1, 6))))
            fs = s / 35 * rng.uniform(0.5, 1.2)
            (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, fs, max(1, int(s / 20)))
            bg = rng.uniform(0, 255)
            patch = np.full((th * 2 + 4, tw + 4, 3), bg, np.uint8)
            cv2.putText(patch, txt, (2, th + 2), cv2.FONT_HERSHEY_SIMPLEX, fs, (255 - bg,) * 3, max(1, int(s / 20)),
                        cv2.LINE_AA)
        elif k == 6:  # isolated tile side face: ivory strip + coloured back strip (no art)
            pw = int(s * rng.uniform(0.5, 0.9)) + 3
            ph = int(s * rng.uniform(1.25, 1.45)) + 3
            iv = jitter_color(rng, IVORY[rng.integers(len(IVORY))], 10)
            bk = pick_back(rng)
            patch = np.zeros((ph, pw, 3), np.uint8)
            f = rng.uniform(0.4, 0.8)
            patch[:, : int(pw * f)] = iv
            patch[:, int(pw * f):] = bk
        else:  # mouse / remote-like rounded blob with buttons
            pw, ph = int(s * rng.uniform(0.8, 1.4)) + 4, int(s * rng.uniform(1.3, 2.2)) + 4
            col = rng.uniform(20, 240)
            patch = np.full((ph, pw, 3), col, np.uint8)
            cv2.line(patch, (pw // 2, 0), (pw // 2, ph // 3), (col * 0.6,) * 3, 1)
            mask = np.zeros((ph, pw), np.uint8)
            cv2.ellipse(mask, (pw // 2, ph // 2), (pw // 2 - 1, ph // 2 - 1), 0, 0, 360, 255, -1)
            _paste(img, patch, cx, cy, ang, mask)
            continue
        _paste(img, patch, cx, cy, ang)


def _paste(img, patch, cx, cy, ang, mask=None):
    H, W = img.shape[:2]
    ph, pw = patch.shape[:2]
    M = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
    M[:, 2] += (cx - pw / 2, cy - ph / 2)
    warped = cv2.warpAffine(patch, M, (W, H), flags=cv2.INTER_LINEAR)
    m = cv2.warpAffine(np.full((ph, pw), 255, np.uint8) if mask is None else mask, M, (W, H))
    img[m > 127] = warped[m > 127]


# ----------------------------------------------------------------------------------------------- 3-D tiles
def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


class Tile:
    """Box with local x in [-a/2,a/2] (across face), y in [-b/2,b/2] (face up direction), z in [0,t] (face at z=t)."""

    def __init__(self, cls, style, pose, pos, yaw, base_z=0.0, tilt=0.0):
        self.cls, self.style = cls, style
        self.a, self.b, self.t = 1.0, style["aspect"], style["thick"]
        self.pose, self.yaw, self.base_z = pose, yaw, base_z
        a, b, t = self.a, self.b, self.t
        if pose == "flat":  # face up
            M, off = np.eye(3), np.array([0, 0, 0.0])
        elif pose == "down":  # face down: flip about local y
            M, off = np.diag([-1.0, 1.0, -1.0]), np.array([0, 0, t])
        elif pose == "stand":  # standing on its bottom edge, face towards -y (the camera), up = +z
            M = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], np.float64)
            off = np.array([0, t / 2, b / 2])
        elif pose == "standback":  # standing, back towards camera
            M = np.array([[-1, 0, 0], [0, 0, 1], [0, 1, 0]], np.float64)
            off = np.array([0, -t / 2, b / 2])
        else:
            raise ValueError(pose)
        if tilt:
            c, s = math.cos(tilt), math.sin(tilt)
            M = np.array([[1, 0, 0], [0, c, -s], [0, s, c]]) @ M
        R = rot_z(yaw) @ M
        self.R = R
        self.p = rot_z(yaw) @ off + np.array([pos[0], pos[1], base_z])
        xs, ys, zs = [-a / 2, a / 2], [-b / 2, b / 2], [0, t]
        self.corners_local = np.array([[x, y, z] for z in zs for y in ys for x in xs], np.float64)
        self.corners = (R @ self.corners_local.T).T + self.p

    def world(self, pts):
        return (self.R @ np.asarray(pts, np.float64).T).T + self.p

    def center(self):
        return self.corners.mean(0)


# corners index: z0: (y0: x0=0,x1=1), (y1: x0=2, x1=3); z1: 4,5,6,7
# faces as (indices in order, local normal, kind)
FACES = [
    ((6, 7, 5, 4), (0, 0, 1), "front"),  # z=t: TL(-a,+b), TR(+a,+b), BR(+a,-b), BL(-a,-b)
    ((3, 2, 0, 1), (0, 0, -1), "back"),  # z=0, seen from behind: TL is (+a,+b)
    ((0, 1, 5, 4), (0, -1, 0), "side"),  # y=-b/2 (bottom edge)
    ((3, 2, 6, 7), (0, 1, 0), "side"),  # y=+b/2 (top edge)
    ((2, 0, 4, 6), (-1, 0, 0), "side"),
    ((1, 3, 7, 5), (1, 0, 0), "side"),
]


class Camera:
    def __init__(self, rng, W, H, target, tile_px, el, az, roll):
        self.W, self.H = W, H
        self.f = f = max(W, H) * rng.uniform(0.75, 1.6)
        d = f * 1.0 / tile_px  # distance so that a unit-width tile at target spans ~tile_px pixels
        el, az = math.radians(el), math.radians(az)
        dirv = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        self.pos = np.asarray(target, np.float64) + d * dirv
        fwd = -dirv
        right = np.cross(fwd, [0, 0, 1.0])
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        c, s = math.cos(roll), math.sin(roll)
        r2, d2 = c * right + s * down, -s * right + c * down
        self.Rc = np.stack([r2, d2, fwd])
        self.cx = W / 2 + rng.normal(0, W * 0.03)
        self.cy = H / 2 + rng.normal(0, H * 0.03)

    def project(self, P):
        X = (self.Rc @ (np.asarray(P, np.float64) - self.pos).T).T
        z = np.maximum(X[:, 2], 1e-3)
        return np.stack([self.f * X[:, 0] / z + self.cx, self.f * X[:, 1] / z + self.cy], 1), X[:, 2]


def shade(n_world, light, amb):
    return amb + (1 - amb) * max(0.0, float(np.dot(n_world, light)))


def warp_texture(img, tex, quad, mask_tex, gain, idmap=None, tid=None):
    """Perspective-warp tex (with alpha mask) onto quad (4x2 image coords TL,TR,BR,BL) in img, in place."""
    H, W = img.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return 0
    th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    dst = (quad - [x0, y0]).astype(np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    rw, rh = x1 - x0, y1 - y0
    t = cv2.warpPerspective(tex, M, (rw, rh), flags=cv2.INTER_AREA if rw * rh < tw * th / 4 else cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    m = cv2.warpPerspective(mask_tex, M, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=0).astype(np.float32) / 255.0
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - m[..., None]) + t.astype(np.float32) * gain * m[..., None]
    if idmap is not None:
        idmap[y0:y1, x0:x1][m > 0.5] = tid
    return 1


def fill_quad(img, quad, color, idmap=None, tid=None):
    q = np.round(quad * 4).astype(np.int32)
    cv2.fillConvexPoly(img, q, color, cv2.LINE_AA, shift=2)
    if idmap is not None:
        cv2.fillConvexPoly(idmap, np.round(quad).astype(np.int32), int(tid))


def rbox_from_quad(q):
    """q: TL,TR,BR,BL of the face in image coords -> cx, cy, w, h, phi (angle of the up axis)."""
    top = (q[0] + q[1]) / 2
    bot = (q[2] + q[3]) / 2
    up = top - bot
    h = float(np.linalg.norm(up))
    w = float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)
    c = q.mean(0)
    phi = math.atan2(up[1], up[0])
    return float(c[0]), float(c[1]), w, h, phi


# ----------------------------------------------------------------------------------------------- layouts
def random_tile_cls(rng):
    if EXTRA_HAKU_P > 0 and rng.random() < EXTRA_HAKU_P:
        # blank white dragons are the faces a fine-tuned detector lost first: they look like the blank cards, dice
        # and tile sides among the hard negatives
        return CLS["P"]
    return int(rng.integers(0, 37))  # faces only; backs come from pose


def layout_hand(rng, style):
    """Winning-hand layout in world units (tile width = 1). Returns list of Tile."""
    tiles = []
    standing = rng.random() < 0.35
    gap = rng.uniform(0.0, 0.08)
    n_melds = int(rng.choice([0, 0, 1, 1, 2, 3, 4]))
    n_conc = max(2, 14 - 3 * n_melds - int(rng.integers(0, 2)))
    x = 0.0
    b = style["aspect"]
    row_yaw = rng.normal(0, 0.04)
    for i in range(n_conc):
        if standing:
            tiles.append(Tile(random_tile_cls(rng), style, "stand", (x + 0.5, 0), row_yaw + rng.normal(0, 0.03)))
        else:
            yaw = row_yaw + rng.normal(0, 0.03) + (math.pi if rng.random() < 0.05 else 0)
            tiles.append(Tile(random_tile_cls(rng), style, "flat", (x + 0.5, rng.normal(0, 0.03)), yaw))
        x += 1 + gap + rng.uniform(0, 0.02)
        if i == n_conc - 2 and rng.random() < 0.5:
            x += rng.uniform(0.2, 0.8)  # winning tile set apart
    x += rng.uniform(0.3, 1.5)
    for _ in range(n_melds):
        kind = rng.choice(["pon", "chi", "ankan", "minkan"], p=[0.4, 0.3, 0.15, 0.15])
        if ADDED_KAN_P > 0 and kind == "pon" and rng.random() < ADDED_KAN_P:
            kind = "kakan"
        n = 4 if kind in ("ankan", "minkan") else 3
        side = int(rng.integers(n)) if kind != "ankan" else -1
        c0 = random_tile_cls(rng)
        for j in range(n):
            c = c0
            if kind == "chi" and c0 < 27:
                c = (c0 // 9) * 9 + min(c0 % 9, 6) + j
            pose = "flat"
            if kind == "ankan" and j in (0, 3):
                pose = "down"
            if j == side:
                at = (x + b / 2, -(b - 1) / 2 + rng.normal(0, 0.02))
                yaw = row_yaw + math.pi / 2 * (1 if rng.random() < 0.5 else -1) + rng.normal(0, 0.03)
                tiles.append(Tile(c, style, pose, at, yaw))
                if kind == "kakan":
                    # the added tile lies sideways on the far side of the called one, as the fixtures show it
                    tiles.append(Tile(c, style, pose, (x + b / 2 + rng.normal(0, 0.03), -(b - 1) / 2 + 1 + gap
                                                       + rng.uniform(0, 0.04)), yaw + rng.normal(0, 0.03)))
                x += b + gap
            else:
                tiles.append(Tile(c, style, pose, (x + 0.5, rng.normal(0, 0.02)), row_yaw + rng.normal(0, 0.03)))
                x += 1 + gap
        x += rng.uniform(0.1, 0.6)
    # centre the row
    cx = x / 2
    for t in tiles:
        t.p[0] -= cx
        t.corners[:, 0] -= cx
    # dora indicators apart
    if rng.random() < 0.6:
        nd = int(rng.integers(1, 4))
        dx, dy = rng.uniform(-cx, cx * 0.5), rng.uniform(2.0, 4.0) * (1 if rng.random() < 0.7 else -1)
        with_wall = rng.random() < 0.4
        for j in range(nd + (2 if with_wall else 0)):
            pose = "flat" if (not with_wall or 0 < j <= nd) else "down"
            tiles.append(Tile(random_tile_cls(rng), style, pose, (dx + j * (1 + gap), dy), rng.normal(0, 0.05)))
    return tiles


def layout_loose(rng, style, n, spread):
    tiles = []
    placed = []
    for _ in range(n):
        for _try in range(20):
            p = rng.uniform(-spread, spread, 2)
            if all(np.hypot(*(p - q)) > 1.5 for q in placed):
                break
        placed.append(p)
        r = rng.random()
        pose = "flat" if r < 0.75 else ("down" if r < 0.87 else "stand")
        tiles.append(Tile(random_tile_cls(rng), style, pose, p, rng.uniform(-math.pi, math.pi)))
    return tiles


def layout_stack(rng, style):
    """Pyramids / blocks: rows of standing or flat tiles with a second level on top."""
    tiles = []
    stand = rng.random() < 0.6
    n0 = int(rng.integers(2, 6))
    h = style["aspect"] if stand else style["thick"]
    gap = rng.uniform(0, 0.05)
    for lvl in range(int(rng.integers(1, 4))):
        n = max(1, n0 - lvl)
        x0 = -(n - 1) / 2 * (1 + gap)
        for i in range(n):
            pose = "stand" if stand else "flat"
            if not stand and rng.random() < 0.2:
                pose = "down"
            yaw = rng.normal(0, 0.03) + (math.pi / 2 if (not stand and rng.random() < 0.15) else 0)
            tiles.append(Tile(random_tile_cls(rng), style, pose, (x0 + i * (1 + gap), 0), yaw, base_z=lvl * h))
    return tiles


def layout_grid(rng, style):
    """A block of flat tiles in rows and columns packed edge to edge, as in shop photos of a whole set or a set
    sorted on the table: every tile touches its neighbours on all four sides, which hands and piles never show."""
    tiles = []
    rows, cols = int(rng.integers(2, 7)), int(rng.integers(3, 10))
    gap = rng.uniform(0.0, 0.04)
    pitch_y = style["aspect"] + rng.uniform(0.0, 0.04)
    yaw0 = rng.normal(0, 0.02)
    for r in range(rows):
        for c in range(cols):
            pose = "down" if rng.random() < 0.04 else "flat"
            yaw = yaw0 + rng.normal(0, 0.015) + (math.pi if rng.random() < 0.15 else 0)
            at = ((c - (cols - 1) / 2) * (1 + gap), (r - (rows - 1) / 2) * pitch_y)
            tiles.append(Tile(random_tile_cls(rng), style, pose, at, yaw))
    return tiles


# ----------------------------------------------------------------------------------------------- scene
def render_scene(rng, W, H, tile_range=(13, 110), scale=1.0):
    """`scale` > 1 renders the same kind of scene at `scale` times the pixels (W, H and tile_range already
    multiplied by the caller), as a camera of higher resolution would see it."""
    style = random_style(rng)
    kind = rng.choice(["hand", "hand", "hand", "loose", "stack", "mixed"])
    if GRID_P > 0 and rng.random() < GRID_P:
        kind = "grid"
    if kind == "grid":
        tiles = layout_grid(rng, style)
    elif kind == "hand":
        tiles = layout_hand(rng, style)
    elif kind == "loose":
        tiles = layout_loose(rng, style, int(rng.integers(3, 20)), rng.uniform(2, 6))
    elif kind == "stack":
        tiles = layout_stack(rng, style)
    else:
        tiles = layout_hand(rng, style)
        extra = layout_loose(rng, style, int(rng.integers(3, 12)), rng.uniform(3, 6))
        dy = 6 + rng.uniform(0, 3)
        for t in extra:
            t.p[1] += dy
            t.corners = (t.R @ t.corners_local.T).T + t.p
        tiles += extra
    # camera
    standing = any(t.pose in ("stand", "standback") for t in tiles)
    el = rng.uniform(15, 50) if standing and rng.random() < 0.7 else rng.uniform(35, 89)
    az = -90 + rng.normal(0, 12)
    roll = rng.normal(0, 0.05)
    if rng.random() < 0.2:
        roll = rng.uniform(-math.pi, math.pi)
    allc = np.concatenate([t.corners for t in tiles])
    ext = allc.max(0) - allc.min(0)
    target = (allc.max(0) + allc.min(0)) / 2
    target[2] = 0
    # tile size in px: log-uniform; capped so the layout roughly fits
    fit = 0.95 * min(W, H) / max(1.0, min(ext[0], ext[1] * 1.2)) if kind != "hand" else 1.1 * W / max(1.0, ext[0])
    tile_px = float(np.exp(rng.uniform(np.log(tile_range[0]), np.log(tile_range[1]))))
    tile_px = min(tile_px, fit * rng.uniform(0.7, 1.4))
    tile_px = max(tile_px, 9.0 * scale)
    target[:2] += rng.normal(0, 0.15, 2) * ext[:2]
    cam = Camera(rng, W, H, target, tile_px, el, az, roll)

    back_table = BACK_TABLE_P > 0 and rng.random() < BACK_TABLE_P
    img = make_background(rng, H, W, cloth=style["back"] if back_table else None)
    idmap = np.full((H, W), -1, np.int32)
    img = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
    draw_distractors(rng, img, int(rng.integers(0, 6)))
    if KEYBOARD_P > 0 and rng.random() < KEYBOARD_P:
        if REAL_KEYBOARD_P > 0 and rng.random() < REAL_KEYBOARD_P:
            draw_real_keyboard(rng, img, tile_px)
        else:
            draw_keyboard(rng, img, tile_px)
    if HARDNEG_P > 0 and rng.random() < HARDNEG_P:
        draw_hard_negatives(rng, img, tile_px, int(rng.integers(3, 12)))
    if BOOKSHELF_P > 0 and rng.random() < BOOKSHELF_P:
        draw_bookshelf(rng, img, tile_px)
    img = img.astype(np.float32)
    light = np.array([rng.normal(0, 0.6), rng.normal(0, 0.6), rng.uniform(0.5, 1.5)])
    light /= np.linalg.norm(light)
    amb = rng.uniform(0.45, 0.8)
    # shadows
    smask = np.zeros((H, W), np.float32)
    for t in tiles:
        P = t.corners.copy()
        P = P - (P[:, 2:3] / light[2]) * light[None]
        q, z = cam.project(P)
        if (z < 0.05).any():
            continue
        hull = cv2.convexHull(q.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(smask, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
    k = int(max(3, tile_px * 0.15)) | 1
    smask = cv2.GaussianBlur(smask, (k, k), 0)
    img *= (1 - rng.uniform(0.25, 0.6) * smask[..., None])

    # draw tiles far -> near
    order = sorted(range(len(tiles)), key=lambda i: -np.linalg.norm(tiles[i].center() - cam.pos))
    ivory = np.array(style["ivory"], np.float32)
    backc = np.array(style["back"], np.float32)
    tex_mask = rounded_mask(TEX_W, TEX_H, style["corner"] * TEX_W)
    labels = []
    for i in order:
        t = tiles[i]
        q_all, z_all = cam.project(t.corners)
        if (z_all < 0.05).any():
            continue
        if q_all[:, 0].max() < -5 or q_all[:, 1].max() < -5 or q_all[:, 0].min() > W + 5 or q_all[:, 1].min() > H + 5:
            continue
        for (idx, n_loc, kind_f) in FACES:
            n_w = t.R @ np.array(n_loc, np.float64)
            fc = t.corners[list(idx)].mean(0)
            if np.dot(n_w, cam.pos - fc) <= 0:
                continue
            q = q_all[list(idx)]
            g = shade(n_w, light, amb)
            if kind_f == "front":
                tex = make_face_texture(rng, t.cls, style)
                warp_texture(img, tex, q, tex_mask, g * rng.uniform(0.95, 1.05), idmap, i)
                t.face_q = (q, "front")
            elif kind_f == "back":
                tex = make_back_texture(rng, style)
                warp_texture(img, tex, q, tex_mask, g, idmap, i)
                t.face_q = (q, "back")
            else:
                # two layers: back colour (z < t*(1-ff)) and ivory face layer
                zb = t.t * (1 - style["face_frac"])
                L = t.corners_local[list(idx)]
                # split points along local z
                lo = [j for j in range(4) if L[j, 2] < 1e-6]
                hi = [j for j in range(4) if L[j, 2] > 1e-6]
                if len(lo) == 2 and len(hi) == 2:
                    mid_local = [L[j] + np.array([0, 0, zb]) for j in lo]
                    mid = cam.project(t.world(mid_local))[0]
                    lo_q = q[lo]
                    # back layer quad: lo0, lo1, mid1, mid0 ; face layer: mid0, mid1, hi(matching)
                    fill_quad(img, np.array([lo_q[0], lo_q[1], mid[1], mid[0]]), tuple((backc * g).tolist()), idmap, i)
                    # match hi points to lo points by local x/y
                    hi_sorted = sorted(hi, key=lambda j: np.linalg.norm(L[j, :2] - L[lo[0], :2]))
                    fill_quad(img, np.array([mid[0], mid[1], q[hi_sorted[1]], q[hi_sorted[0]]]),
                              tuple((ivory * g * 0.97).tolist()), idmap, i)
                else:
                    fill_quad(img, q, tuple((ivory * g * 0.95).tolist()), idmap, i)
        # glare on some tiles
    # occluders (hands / objects) on top
    if rng.random() < 0.25:
        for _ in range(int(rng.integers(1, 3))):
            skin = np.array(jitter_color(rng, [(220, 170, 140), (190, 140, 110), (150, 100, 70), (240, 200, 180)][rng.integers(4)], 15), np.float32)
            x, y = rng.uniform(0, W), rng.uniform(0, H)
            ang = rng.uniform(0, np.pi)
            L = rng.uniform(0.1, 0.4) * max(W, H)
            wd = tile_px * rng.uniform(0.5, 1.2)
            p2 = (x + L * math.cos(ang), y + L * math.sin(ang))
            cv2.line(img, (int(x), int(y)), (int(p2[0]), int(p2[1])), tuple(skin.tolist()), int(max(2, wd)), cv2.LINE_AA)
            cv2.line(idmap, (int(x), int(y)), (int(p2[0]), int(p2[1])), -2, int(max(2, wd)))
    # glare
    if rng.random() < 0.35:
        gx, gy = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(0.05, 0.3) * max(W, H)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        gmask = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2 * rng.uniform(0.3, 3)) / (2 * r * r))
        img = img + gmask[..., None] * rng.uniform(40, 140)

    # labels
    for i, t in enumerate(tiles):
        if not hasattr(t, "face_q"):
            continue
        q, which = t.face_q
        cls = t.cls if which == "front" else BACK
        # visible fraction of that face
        area = cv2.contourArea(q.astype(np.float32))
        if area < 20 * scale * scale:
            continue
        m = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 1)
        full = np.zeros((H, W), np.uint8)
        # area inside the image vs total
        inside = m.sum()
        vis = ((idmap == i) & (m > 0)).sum()
        frac_vis = vis / max(1.0, area)
        cx, cy, w, h, phi = rbox_from_quad(q)
        # foreshortening: the face seen too obliquely is not a positive
        n_w = t.R @ np.array([0, 0, 1.0 if which == "front" else -1.0])
        view = cam.pos - t.world([[0, 0, t.t if which == "front" else 0]])[0]
        cosv = float(np.dot(n_w, view / np.linalg.norm(view)))
        ignore = 0
        if frac_vis < 0.2 or cosv < 0.12:
            continue
        if frac_vis < 0.65 or cosv < 0.3 or min(w, h) < 6 * scale:
            ignore = 1
        del full, inside
        labels.append([cls, cx, cy, w, h, phi, ignore])

    # camera / photo effects
    img = photo_effects(rng, img, tile_px)
    return img, np.array(labels, np.float32).reshape(-1, 7), tile_px


def photo_effects(rng, img, tile_px):
    H, W = img.shape[:2]
    # white balance / exposure / contrast / gamma
    img = img * rng.uniform(0.8, 1.15, 3)[None, None] * rng.uniform(0.6, 1.25)
    img = (img - 128) * rng.uniform(0.75, 1.2) + 128 + rng.uniform(-20, 20)
    img = np.clip(img, 0, 255)
    img = 255 * (img / 255) ** rng.uniform(0.75, 1.35)
    # vignette
    if rng.random() < 0.4:
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        r = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / (W * W / 4 + H * H / 4)
        img = img * (1 - rng.uniform(0.1, 0.4) * r)[..., None]
    # blur
    r = rng.random()
    if r < 0.35:
        s = rng.uniform(0.3, 1.3) * max(0.5, tile_px / 40)
        img = cv2.GaussianBlur(img, (0, 0), s)
    elif r < 0.5:
        L = int(rng.integers(3, 8))
        k = np.zeros((L, L), np.float32)
        ang = rng.uniform(0, np.pi)
        cv2.line(k, (int(L / 2 - L / 2 * math.cos(ang)), int(L / 2 - L / 2 * math.sin(ang))),
                 (int(L / 2 + L / 2 * math.cos(ang)), int(L / 2 + L / 2 * math.sin(ang))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / max(1e-6, k.sum()))
    else:
        img = cv2.GaussianBlur(img, (0, 0), 0.5)
    # noise
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def jpeg(rng, img):
    q = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    return buf


def jittered_box(rng, cx, cy, w, h, phi):
    """A tile's box as a detector might draw it: centre, size and angle jittered, and a random half turn (the
    classifier is half-turn invariant)."""
    jx, jy = rng.normal(0, 0.06) * w, rng.normal(0, 0.06) * h
    sw, sh = np.exp(rng.normal(0, 0.07, 2))
    ph = phi + rng.normal(0, 0.05)
    if rng.random() < 0.5:
        ph += math.pi
    return cx + jx, cy + jy, w * sw, h * sh, ph


def readable(lab):
    """Whether a label makes a classifier sample: not an ignore region, and not too small to be read."""
    return not lab[6] and min(lab[3], lab[4]) >= 14


def cut_turned_crops(rng, img, labels, share):
    """Crops of a share of the tiles read a quarter turn off, the two ways the runtime reads a box across its up axis:
    the box snapped to the other hand axis keeps its extents (`w` across, `h` along the new axis: the middle of the
    tile, turned), and a loose tile's own box turned keeps its shape (the whole tile, turned and stretched). Labelled
    with the tile's class; train_cls.py decides what a turned crop should read (`--turned`). Drawn from their own
    random stream, so the tile crops of a shard do not change with this option."""
    crops, ys = [], []
    for lab in labels:
        if not readable(lab) or rng.random() >= share:
            continue
        cls, cx, cy, w, h, phi, _ = lab
        x, y, w, h, ph = jittered_box(rng, cx, cy, w, h, phi + math.pi / 2)
        cw, ch = (w, h) if rng.random() < 0.6 else (h, w)
        crops.append(cut_crop(img, x, y, cw, ch, ph, area=cw > 2 * CROP_W))
        ys.append(int(cls))
    return crops, ys


def cut_crops(rng, img, labels):
    crops, ys = [], []
    for lab in labels:
        if not readable(lab):
            continue
        cls, cx, cy, w, h, phi, _ = lab
        x, y, jw, jh, ph = jittered_box(rng, cx, cy, w, h, phi)
        crops.append(cut_crop(img, x, y, jw, jh, ph, area=w > 2 * CROP_W))
        ys.append(int(cls))
    return crops, ys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="train")
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--portrait", type=float, default=0.35)
    ap.add_argument("--tile-min", type=float, default=13, help="smallest tile width in px (log-uniform)")
    ap.add_argument("--tile-max", type=float, default=110, help="largest tile width in px")
    ap.add_argument("--out", default=CACHE)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="render scenes at this many times 640x384 (tile sizes scaled alike): a test set whose "
                         "tiles keep the detail a 720p/1080p camera gives them")
    ap.add_argument("--preview", type=int, default=0, help="also write this many PNG previews with boxes")
    ap.add_argument("--keyboard", type=float, default=0.0, help="share of scenes with a keyboard distractor")
    ap.add_argument("--hard-negatives", type=float, default=0.0,
                    help="share of scenes with 3-11 tile-sized non-tile objects (keycaps, dice, cards, coins, phones, "
                         "text, tile-side bars)")
    ap.add_argument("--no-white-backs", action="store_true",
                    help="never use near-white (ivory-like) back colours")
    ap.add_argument("--real-keyboards", type=float, default=0.0,
                    help="share of the --keyboard keyboards drawn as perspective chiclet keyboards")
    ap.add_argument("--haku-frames", type=float, default=0.0,
                    help="share of white dragons (P) drawn with a printed frame instead of a blank face")
    ap.add_argument("--turned-crops", type=float, default=0.0,
                    help="also cut this share of the tiles a quarter turn off (saved as xt/yt in the crop shard)")
    ap.add_argument("--added-kans", type=float, default=0.0,
                    help="share of pons in hand layouts drawn as added kans (two sideways tiles stacked)")
    ap.add_argument("--extra-haku", type=float, default=0.0, help="share of tile draws forced to a white dragon")
    ap.add_argument("--bookshelf", type=float, default=0.0,
                    help="share of scenes with a row of book spines along an edge of the photo")
    ap.add_argument("--back-table", type=float, default=0.0,
                    help="share of scenes on a cloth the colour of the tiles' backs")
    ap.add_argument("--alt-art", type=float, default=0.0,
                    help="share of ivory-faced sets drawn in other art (alt_art.py: characters from other fonts, "
                         "procedural circles and bamboo)")
    ap.add_argument("--grids", type=float, default=0.0,
                    help="share of scenes whose tiles lie in a block of rows packed edge to edge (layout_grid)")
    ap.add_argument("--alt-fonts", choices=("train", "heldout", "all"), default="train",
                    help="the glyph sheets those sets use: the training fonts, or the font held out to measure on")
    args = ap.parse_args()
    global KEYBOARD_P, HARDNEG_P, NO_WHITE_BACKS, REAL_KEYBOARD_P, HAKU_FRAME_P, ADDED_KAN_P, EXTRA_HAKU_P
    global BOOKSHELF_P, BACK_TABLE_P, ALT_ART_P, ALT_FONTS, GRID_P
    GRID_P = args.grids
    ALT_ART_P, ALT_FONTS = args.alt_art, args.alt_fonts
    BOOKSHELF_P, BACK_TABLE_P = args.bookshelf, args.back_table
    ADDED_KAN_P, EXTRA_HAKU_P = args.added_kans, args.extra_haku
    HAKU_FRAME_P = args.haku_frames
    REAL_KEYBOARD_P = args.real_keyboards
    KEYBOARD_P = args.keyboard
    HARDNEG_P = args.hard_negatives
    NO_WHITE_BACKS = args.no_white_backs
    rng = np.random.default_rng(args.seed * 1000 + args.shard)
    os.makedirs(os.path.join(args.out, "det"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "cls"), exist_ok=True)
    turned_rng = np.random.default_rng(args.seed * 1000 + args.shard + 500_000)
    jpgs, labs, crops, ys, sizes, tcrops, tys = [], [], [], [], [], [], []
    for s in range(args.scenes):
        W, H = (384, 640) if rng.random() < args.portrait else (640, 384)
        k = args.scale
        W, H = round(W * k), round(H * k)
        img, lab, tile_px = render_scene(rng, W, H, (args.tile_min * k, args.tile_max * k), k)
        buf = jpeg(rng, img)
        jpgs.append(buf.tobytes())
        labs.append(lab)
        sizes.append((H, W))
        dec = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        c, y = cut_crops(rng, dec, lab)
        crops += c
        ys += y
        if args.turned_crops > 0:
            c, y = cut_turned_crops(turned_rng, dec, lab, args.turned_crops)
            tcrops += c
            tys += y
        if s < args.preview:
            prev = cv2.cvtColor(dec, cv2.COLOR_RGB2BGR)
            for l in lab:
                cls, cx, cy, w, h, phi, ign = l
                box = cv2.boxPoints(((cx, cy), (h, w), math.degrees(phi)))
                cv2.polylines(prev, [box.astype(np.int32)], True, (0, 0, 255) if ign else (0, 255, 0), 1)
                cv2.putText(prev, CLASSES[int(cls)], (int(cx) - 5, int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 0, 255), 1)
            os.makedirs(os.path.join(args.out, "look"), exist_ok=True)
            cv2.imwrite(os.path.join(args.out, "look", f"{args.name}_{args.shard}_{s}.png"), prev)
    lab_flat = np.concatenate(labs) if labs else np.zeros((0, 7), np.float32)
    offs = np.cumsum([0] + [len(l) for l in labs])
    np.savez(os.path.join(args.out, "det", f"{args.name}_{args.shard}.npz"),
             jpg=np.array(jpgs, dtype=object), labels=lab_flat, offsets=offs, sizes=np.array(sizes))
    turned = {}
    if args.turned_crops > 0:
        turned = dict(xt=np.array(tcrops, np.uint8).reshape(-1, CROP_H, CROP_W, 3), yt=np.array(tys, np.int64))
    np.savez_compressed(os.path.join(args.out, "cls", f"{args.name}_{args.shard}.npz"),
                        x=np.array(crops, np.uint8).reshape(-1, CROP_H, CROP_W, 3), y=np.array(ys, np.int64), **turned)
    print(f"{args.name}_{args.shard}: {args.scenes} scenes, {len(lab_flat)} labels, {len(crops)} crops")


if __name__ == "__main__":
    main()
