"""Tile faces in other art than FluffyStuff's, for gen_data.py --alt-art.

A model that has seen one art style reads the sets that look like it. Real riichi sets differ in the hand of their
characters (brush, Ming, gothic), in how their circles are ringed and coloured, in the shape and colour of their
bamboo sticks, in whether the white dragon has a frame and whether corners carry small index numerals. This module
draws such faces: the characters from glyph sheets rendered from free fonts (render_glyphs.py, assets/tile-glyphs/),
the circles and sticks procedurally in the layouts every riichi set shares. The one-of-bamboo's bird has no common
form, so it keeps the FluffyStuff art (recoloured, as gen_data.py does).

A set's look (`random_alt_style`) is drawn once per scene and shared by its tiles; `ink` draws one face's ink as an
RGB layer and its coverage, in the texture frame gen_data.py composes onto the ivory face.

What must not change across styles is what tells the classes apart: a red five is the five with all its circles or
sticks red (0p, 0s) or its numeral red (0m); a plain five's centre circle or stick may be red, its others never are.
"""
import glob
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import CLASSES, REPO  # noqa: E402

GLYPH_DIR = os.path.join(REPO, "assets", "tile-glyphs")
GLYPHS = "一二三四五伍六七八九萬東南西北中發"
# The font kept out of training, to measure how the classifier reads characters in a hand it never saw
# (gen_data.py --alt-fonts heldout).
HELDOUT_FONTS = ("klee-semibold",)

_SHEETS = {}


def sheets():
    """font key -> {glyph: ink coverage 0..1 cropped to the ink}."""
    if _SHEETS:
        return _SHEETS
    for fn in sorted(glob.glob(os.path.join(GLYPH_DIR, "*.png"))):
        strip = cv2.imread(fn, cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
        cell = strip.shape[0]
        glyphs = {}
        for i, ch in enumerate(GLYPHS):
            g = strip[:, i * cell:(i + 1) * cell]
            ys, xs = np.nonzero(g > 0.05)
            glyphs[ch] = g[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        _SHEETS[os.path.splitext(os.path.basename(fn))[0]] = glyphs
    return _SHEETS


def fonts(which):
    """The font keys of a font set: "train" (all but the held-out ones), "heldout", or "all"."""
    keys = sorted(sheets())
    if which == "heldout":
        return [k for k in keys if k in HELDOUT_FONTS]
    if which == "train":
        return [k for k in keys if k not in HELDOUT_FONTS]
    return keys


def _jit(rng, c, amt=20):
    return tuple(float(np.clip(v + rng.integers(-amt, amt + 1), 0, 255)) for v in c)


RED = [(200, 30, 30), (180, 20, 40), (215, 45, 35), (190, 35, 60)]
BLUE = [(25, 45, 140), (20, 60, 120), (30, 30, 90), (40, 80, 170)]
GREEN = [(20, 110, 50), (15, 85, 45), (30, 120, 90), (50, 130, 40)]
BLACK = [(20, 20, 22), (35, 30, 30), (25, 30, 45)]


def _pick(rng, pal):
    return _jit(rng, pal[rng.integers(len(pal))])


def random_alt_style(rng, font_keys):
    """One set's look."""
    numeral_font = font_keys[rng.integers(len(font_keys))]
    return {
        # the numerals and 萬 are usually one hand, the winds and dragons sometimes another
        "font": numeral_font,
        "honour_font": numeral_font if rng.random() < 0.6 else font_keys[rng.integers(len(font_keys))],
        "five": "伍" if rng.random() < 0.4 else "五",
        "numeral": _pick(rng, BLACK if rng.random() < 0.7 else BLUE),
        "man": _pick(rng, RED),
        "wind": _pick(rng, [BLACK, BLUE, GREEN][rng.choice(3, p=[0.5, 0.4, 0.1])]),
        "chun": _pick(rng, RED),
        "hatsu": _pick(rng, GREEN if rng.random() < 0.75 else BLACK + BLUE),
        "red": _pick(rng, RED),
        "coin_a": _pick(rng, BLUE if rng.random() < 0.6 else BLACK + GREEN),
        "coin_b": _pick(rng, GREEN if rng.random() < 0.6 else BLUE),
        "coin_red_others": rng.random() < 0.7,  # the traditional red circles of 3p, 6p, 7p, 9p
        "coin_rings": int(rng.integers(1, 4)),
        "coin_centre": int(rng.integers(3)),  # 0 dot, 1 ring, 2 flower
        "stick": _pick(rng, GREEN if rng.random() < 0.7 else BLUE + BLACK),
        "stick_b": _pick(rng, BLUE if rng.random() < 0.5 else GREEN),
        "stick_w": rng.uniform(0.10, 0.17),  # stick width / face width
        "stick_nodes": int(rng.integers(1, 4)),
        "stick_outline": rng.random() < 0.5,
        "bold": int(rng.choice([0, 1, 1, 2, 3])),  # dilation of the glyphs, px at the texture scale
        "squash": rng.uniform(0.8, 1.1),  # glyph width / height scale
        "margin": rng.uniform(0.08, 0.16),
        "haku_frame": rng.random() < 0.3,
        "haku_ink": _pick(rng, BLUE + BLACK + GREEN),
        "index": rng.random() < 0.25,  # small corner numerals / wind letters, as beginner sets print
        "index_ink": _pick(rng, BLACK + RED + BLUE),
    }


def draw_style(rng, which):
    """A set's look drawn from the scene's `rng` with the fonts of font set `which` (see fonts): one draw from `rng`
    seeds the look's own generator, so the scene's other draws do not depend on the look's."""
    return random_alt_style(np.random.default_rng(rng.integers(1 << 30)), fonts(which))


class Canvas:
    """An RGB ink layer and its coverage, in the texture frame (w x h)."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.a = np.zeros((h, w), np.float32)

    def put(self, cover, colour):
        """Composite a coverage map (h x w, 0..1) of one colour over what is drawn."""
        c = np.clip(cover, 0, 1)[..., None]
        self.rgb = self.rgb * (1 - c) + np.asarray(colour, np.float32) * c
        self.a = np.maximum(self.a, c[..., 0])

    def layer(self):
        return np.zeros((self.h, self.w), np.float32)


def _aa(fn, w, h, ss=4):
    """Anti-aliased drawing: `fn(img, ss)` draws with cv2 on a supersampled single-channel image."""
    big = np.zeros((h * ss, w * ss), np.uint8)
    fn(big, ss)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def glyph(cv, st, rng, ch, box, colour, font=None):
    """Draw a glyph fitted (keeping its aspect, squashed by the set's factor) into box = (x0, y0, x1, y1), a pixel
    off centre at random."""
    g = sheets()[font or st["font"]][ch]
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    gh, gw = g.shape
    s = min(bw / (gw * st["squash"]), bh / gh)
    nw, nh = max(1, int(round(gw * s * st["squash"]))), max(1, int(round(gh * s)))
    g = cv2.resize(g, (nw, nh), interpolation=cv2.INTER_AREA)
    if st["bold"]:
        k = np.ones((st["bold"] + 1, st["bold"] + 1), np.uint8)
        g = cv2.dilate(g, k)
    layer = cv.layer()
    gx = int(round(x0 + (bw - nw) / 2 + rng.integers(-1, 2)))
    gy = int(round(y0 + (bh - nh) / 2 + rng.integers(-1, 2)))
    sx0, sy0 = max(0, -gx), max(0, -gy)
    dx0, dy0 = max(0, gx), max(0, gy)
    dx1, dy1 = min(cv.w, gx + g.shape[1]), min(cv.h, gy + g.shape[0])
    layer[dy0:dy1, dx0:dx1] = g[sy0:sy0 + dy1 - dy0, sx0:sx0 + dx1 - dx0]
    cv.put(layer, colour)


def coin(cv, st, cx, cy, r, colour, inner):
    """A circle: an outer ring, the set's number of inner rings, and a centre."""
    rings = st["coin_rings"]

    def outer(img, ss):
        cv2.circle(img, (int(cx * ss), int(cy * ss)), int(r * ss), 255, max(1, int(r * ss * 0.22)), cv2.LINE_AA)

    cv.put(_aa(outer, cv.w, cv.h), colour)
    for k in range(1, rings):
        rr = r * (1 - 0.3 * k)

        def ring(img, ss, rr=rr):
            cv2.circle(img, (int(cx * ss), int(cy * ss)), int(rr * ss), 255, max(1, int(r * ss * 0.1)), cv2.LINE_AA)

        cv.put(_aa(ring, cv.w, cv.h), inner if k % 2 else colour)

    def centre(img, ss):
        c = (int(cx * ss), int(cy * ss))
        if st["coin_centre"] == 0:
            cv2.circle(img, c, int(r * ss * 0.28), 255, -1, cv2.LINE_AA)
        elif st["coin_centre"] == 1:
            cv2.circle(img, c, int(r * ss * 0.25), 255, max(1, int(r * ss * 0.1)), cv2.LINE_AA)
        else:
            for k in range(6):
                a = k * math.pi / 3
                p = (int((cx + 0.2 * r * math.cos(a)) * ss), int((cy + 0.2 * r * math.sin(a)) * ss))
                cv2.circle(img, p, max(1, int(r * ss * 0.12)), 255, -1, cv2.LINE_AA)

    cv.put(_aa(centre, cv.w, cv.h), inner)


# Circle layouts in face units (x across 0..1, y down 0..1) with the radius in face widths, and which circles are
# traditionally red (indices), for the tiles other than the one-of-circles.
PIN_LAYOUT = {
    2: ([(0.5, 0.25), (0.5, 0.75)], 0.27, ()),
    3: ([(0.22, 0.18), (0.5, 0.5), (0.78, 0.82)], 0.2, (1,)),
    4: ([(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)], 0.21, ()),
    5: ([(0.25, 0.2), (0.75, 0.2), (0.5, 0.5), (0.25, 0.8), (0.75, 0.8)], 0.19, (2,)),
    6: ([(0.27, y) for y in (0.18, 0.5, 0.82)] + [(0.73, y) for y in (0.18, 0.5, 0.82)], 0.18, (1, 2, 4, 5)),
    7: ([(0.18, 0.12), (0.5, 0.24), (0.82, 0.36), (0.28, 0.6), (0.72, 0.6), (0.28, 0.86), (0.72, 0.86)], 0.15,
        (3, 4, 5, 6)),
    8: ([(0.28, y) for y in (0.13, 0.38, 0.62, 0.87)] + [(0.72, y) for y in (0.13, 0.38, 0.62, 0.87)], 0.15, ()),
    9: ([(x, y) for y in (0.17, 0.5, 0.83) for x in (0.18, 0.5, 0.82)], 0.15, (3, 4, 5)),
}


def pins(cv, st, n, red_five, rng, area):
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    if n == 1:
        r = 0.42 * w
        coin(cv, st, x0 + w / 2, y0 + h / 2, r, st["coin_a"], st["coin_b"])
        coin(cv, st, x0 + w / 2, y0 + h / 2, r * 0.55, st["red"] if st["coin_red_others"] else st["coin_b"],
             st["coin_a"])
        return
    pts, r, reds = PIN_LAYOUT[n]
    for i, (u, v) in enumerate(pts):
        if red_five:
            col, inner = st["red"], st["red"]
        elif i in reds and (n == 5 or st["coin_red_others"]):
            col, inner = st["red"], st["coin_a"]
        else:
            col = st["coin_a"] if (i + n) % 2 == 0 or n in (2, 8) else st["coin_b"]
            inner = st["coin_b"] if col == st["coin_a"] else st["coin_a"]
        jx, jy = rng.normal(0, 0.004, 2)
        coin(cv, st, x0 + (u + jx) * w, y0 + (v + jy) * h, r * w, col, inner)


# Stick layouts: (x, y, angle in degrees from upright) in face units, the stick length in face heights, red indices.
SOU_LAYOUT = {
    2: ([(0.5, 0.26, 0), (0.5, 0.74, 0)], 0.33, ()),
    3: ([(0.5, 0.26, 0), (0.3, 0.74, 0), (0.7, 0.74, 0)], 0.33, ()),
    4: ([(0.3, 0.26, 0), (0.7, 0.26, 0), (0.3, 0.74, 0), (0.7, 0.74, 0)], 0.33, ()),
    5: ([(0.25, 0.26, 0), (0.75, 0.26, 0), (0.5, 0.5, 0), (0.25, 0.74, 0), (0.75, 0.74, 0)], 0.31, (2,)),
    6: ([(x, y, 0) for y in (0.26, 0.74) for x in (0.2, 0.5, 0.8)], 0.33, ()),
    7: ([(0.5, 0.15, 0)] + [(x, y, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)], 0.23, (0,)),
    8: ([(0.16, 0.26, 0), (0.38, 0.26, 28), (0.62, 0.26, -28), (0.84, 0.26, 0),
         (0.16, 0.74, 0), (0.38, 0.74, -28), (0.62, 0.74, 28), (0.84, 0.74, 0)], 0.33, ()),
    9: ([(x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)], 0.23, (1, 4, 7)),
}


def stick(cv, st, cx, cy, length, width, angle, colour):
    """A bamboo stick: a rounded bar with the set's number of nodes across it."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)  # along the stick, up

    def bar(img, ss):
        p0 = (int((cx - ux * length / 2) * ss), int((cy - uy * length / 2) * ss))
        p1 = (int((cx + ux * length / 2) * ss), int((cy + uy * length / 2) * ss))
        cv2.line(img, p0, p1, 255, max(1, int(width * ss)), cv2.LINE_AA)

    cv.put(_aa(bar, cv.w, cv.h), colour)
    nodes = st["stick_nodes"]
    node_col = tuple(v * 0.45 for v in colour) if st["stick_outline"] else (246.0, 243.0, 232.0)

    def node(img, ss):
        for k in range(nodes):
            t = (k + 1) / (nodes + 1) - 0.5
            mx, my = cx + ux * length * t, cy + uy * length * t
            p0 = (int((mx - uy * width * 0.55) * ss), int((my + ux * width * 0.55) * ss))
            p1 = (int((mx + uy * width * 0.55) * ss), int((my - ux * width * 0.55) * ss))
            cv2.line(img, p0, p1, 255, max(1, int(width * ss * 0.22)), cv2.LINE_AA)

    cv.put(_aa(node, cv.w, cv.h), node_col)


def sous(cv, st, n, red_five, rng, area):
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    pts, length, reds = SOU_LAYOUT[n]
    for i, (u, v, ang) in enumerate(pts):
        if red_five or i in reds:
            col = st["red"]
        else:
            col = st["stick"] if n != 9 or i % 3 != 1 else st["stick_b"]
        jx, jy = rng.normal(0, 0.004, 2)
        stick(cv, st, x0 + (u + jx) * w, y0 + (v + jy) * h, length * h, st["stick_w"] * w, ang + rng.normal(0, 1.5),
              col)


def corner_index(cv, st, text):
    def draw(img, ss):
        fs = cv.w / 96 * 0.55 * ss
        cv2.putText(img, text, (int(cv.w * 0.06 * ss), int(cv.h * 0.15 * ss)), cv2.FONT_HERSHEY_SIMPLEX, fs, 255,
                    max(1, int(ss * 1.2)), cv2.LINE_AA)

    cv.put(_aa(draw, cv.w, cv.h, ss=2), st["index_ink"])


def ink(rng, cls, st, w, h):
    """The ink of class `cls` in set style `st` as (rgb, coverage) at w x h, or None for a face this module leaves to
    the FluffyStuff art (the one-of-bamboo)."""
    code = CLASSES[cls]
    if code == "1s":
        return None
    cv = Canvas(w, h)
    m = st["margin"]
    area = (w * m, h * m * 0.8, w * (1 - m), h * (1 - m * 0.8))
    ax0, ay0, ax1, ay1 = area
    ah = ay1 - ay0
    if code[-1] in "mps" and code[0].isdigit():
        n = int(code[0]) or 5
        red_five = code[0] == "0"
        if code[-1] == "m":
            numeral = st["five"] if n == 5 else GLYPHS[n - 1 if n < 5 else n]
            glyph(cv, st, rng, numeral, (ax0 + 0.05 * w, ay0, ax1 - 0.05 * w, ay0 + ah * 0.42),
                  st["red"] if red_five else st["numeral"])
            glyph(cv, st, rng, "萬", (ax0, ay0 + ah * 0.47, ax1, ay1), st["red"] if red_five else st["man"])
        elif code[-1] == "p":
            pins(cv, st, n, red_five, rng, area)
        else:
            sous(cv, st, n, red_five, rng, area)
        if st["index"]:
            corner_index(cv, st, str(n))
    elif code in "ESWN":
        glyph(cv, st, rng, "東南西北"["ESWN".index(code)], (ax0, ay0 + ah * 0.1, ax1, ay1 - ah * 0.1), st["wind"],
              font=st["honour_font"])
        if st["index"]:
            corner_index(cv, st, code)
    elif code == "C":
        glyph(cv, st, rng, "中", (ax0, ay0 + ah * 0.12, ax1, ay1 - ah * 0.12), st["chun"], font=st["honour_font"])
    elif code == "F":
        glyph(cv, st, rng, "發", (ax0, ay0 + ah * 0.08, ax1, ay1 - ah * 0.08), st["hatsu"], font=st["honour_font"])
    elif code == "P":
        if st["haku_frame"]:
            t = max(2, int(w * 0.04))

            def frame(img, ss):
                cv2.rectangle(img, (int(ax0 * ss), int((ay0 + ah * 0.05) * ss)),
                              (int(ax1 * ss), int((ay1 - ah * 0.05) * ss)), 255, t * ss)

            cv.put(_aa(frame, w, h), st["haku_ink"])
    return cv.rgb, cv.a
