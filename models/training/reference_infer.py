"""Reference inference pipeline for the riichi-lens tile recognizer (the Rust runtime ports this).

    python models/training/reference_infer.py PHOTO.jpg [--models models/] [--score 0.3]
    -> JSON list of {tile, box [x1,y1,x2,y2], confidence, sideways, det_score, not_tile, angle_deg, quad, probs_top3}
    (not_tile: the box's combined "not a tile" probability, the one the NOT_TILE_T veto compares)

Pipeline (see models/MODEL_CARD.md for the exact contract):
 1. letterbox: s = 640 / max(H, W); resize the RGB image to (round(W*s), round(H*s)) (area filter), pad right and
    bottom with 127 up to multiples of 32; float32 NCHW, value/255.
 2. detector -> scores [1,1,h,w] (peaks only; others are 0), geom [1,6,h,w] = cx, cy, w, h, cos2phi, sin2phi in
    letterboxed-input pixels. Keep cells with score >= SCORE_T; map back: x = (cx+0.5)/s-0.5, y = (cy+0.5)/s-0.5, w/s, h/s;
    phi = 0.5*atan2(sin2phi, cos2phi) (angle of the tile's up axis, image coords, y down; mod pi).
 3. duplicate suppression: sort by score, drop a box whose centre is closer than 0.5*min(w_i, w_j) to a kept box.
    Far shots: when the median of the kept boxes' shorter sides is under ZOOM_BELOW input pixels (3 boxes or more),
    steps 1-3 run again with the long side scaled so that median becomes ZOOM_TARGET (rounded to a multiple of 32,
    at most ZOOM_MAX_LONG; bilinear where this enlarges the image) on the window of that input around the first
    boxes (ZOOM_MARGIN; map back with the window's origin added to cx, cy), and those boxes are used instead.
 4. crop: for each box, pyramid level L = max(0, floor(log2(w / 48))) of the original image (each level = 2x2 mean,
    floor size); sample a 48x64 crop with bilinear interpolation via the affine map of common.crop_affine
    (rotated rectangle w*1.1 x h*1.1 around the centre, tile up axis vertical), coordinates divided by 2^L.
 5. classifier on the crops [N,3,64,48] float32 RGB /255 -> probs [N,38] or [N,39] (softmax already applied).
    With 39 outputs the last is "not a tile": a box whose two readings (along and across the hand's up axis) give it
    NOT_TILE_T or more on average is dropped (a box also read along its own angle, see OWN_ANGLE, keeps the more
    confident reading of each orientation, and is dropped when the two it keeps reach it), and the 38 tile
    probabilities are renormalized to sum to 1.
"""
import argparse
import json
import math
import os
import sys

import cv2
import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(__file__))
from common import CLASSES, CROP_H, CROP_W, crop_affine  # noqa: E402

SCORE_T = 0.30
INPUT_LONG = 640
# The two-way reading (see Recognizer.__call__), as in src/vision/mod.rs.
ANGLE_WEIGHT = 0.4
SNAP_TOLERANCE = math.radians(15.0)
# A box whose mean "not a tile" probability (39-output classifiers) reaches this is dropped, as in src/vision/mod.rs.
NOT_TILE_T = 0.8
# How a box's readings' "not a tile" probabilities combine before the threshold: "mean" (version 3) or "max".
NOT_TILE_RULE = "mean"
# A box off both hand axes by more than SNAP_TOLERANCE (a loose tile at an angle) is also read along its own angle
# and a quarter turn from it, as in src/vision/mod.rs; False gives the reading before 2026-11-23 (evening).
OWN_ANGLE = True
# A box whose two-way readings are unsure (READ_TURN_BELOW) is read again with its crops turned this many degrees
# either way, and each crop keeps the surest of its three readings (highest tile probability, its "not a tile" output
# with it), as `Settings::read_turn` in src/vision/mod.rs: the detector's angle is often a few degrees off, and the
# classifier misreads a tile turned that much. 0 turns it off (the reading before 2026-11-24, night).
READ_TURN_DEG = 8.0
# Only a box neither of whose two readings reaches this tile probability is read turned (`Settings::read_turn_below`).
READ_TURN_BELOW = 0.9
# A box this many times its upright neighbours' extent along the up axis and across it is the size of two sideways tiles
# stacked (an added kan); it is read as its two halves when both read as the same tile at least STACK_CONFIDENCE sure
# (`stacked_pair_halves` / `split_stacked_pairs` in the Rust runtime).
STACK_ALONG = (1.15, 1.9)
STACK_ACROSS = (1.0, 1.7)
STACK_NEIGHBOURS = 3  # the nearest upright boxes, which must form a row with it:
STACK_ROW_OFFSET = 0.6  # centres at most this many neighbour heights apart along the up axis,
STACK_REACH = 3.5  # at most this many neighbour widths away,
STACK_ROW_SPREAD = 1.25  # and the neighbours' heights within this ratio of each other
STACK_CONFIDENCE = 0.8
STACK_NOT_TILE = 0.3
SPLIT_STACKED = True
# The halves of one sideways tile joined (as `tile_part_pairs` / `Recognizer::join_tile_parts` in the Rust runtime):
# the union of two boxes PART_ACROSS times the upright tiles' width across the up axis and PART_ALONG times their
# height along it, overlapping across by PART_OVERLAP of the narrower, each at most PART_AREA of the union, read as a
# tile at least PART_CONFIDENCE sure.
PART_ACROSS = (1.2, 1.6)
PART_ALONG = (0.7, 1.1)
PART_OVERLAP = 0.15
PART_AREA = 0.8
PART_CONFIDENCE = 0.9
# A box over part of an upright tile read as the whole tile (as `upright_parts` / `Recognizer::join_upright_parts`):
# long side at most PART_LONG of the tiles' around it (the upper quartile of its SIZE_NEAR nearest boxes', at least
# SIZE_MIN_NEAR of them within SIZE_REACH of its own long side), area PART_AREA_MIN to PART_AREA_MAX of theirs.
PART_LONG = 0.9
PART_AREA_MAX = 0.8
PART_AREA_MIN = 0.25
SIZE_NEAR = 6
SIZE_MIN_NEAR = 3
SIZE_REACH = 4.0
JOIN_PARTS = True
# A box beside its tile moved onto it (as `Recognizer::shift_boxes_beside` in the Rust runtime): an upright circles or
# bamboo tile of at most four pips whose box is as long as its neighbours' tiles (more than PART_LONG of them) is read
# again shifted across the hand's up axis by each of BESIDE_SHIFTS of its width, and the surest reading that is a tile
# of its suit with more pips, PART_CONFIDENCE sure, surer than its own and "not a tile" under BESIDE_NOT_TILE, takes
# its place. SHIFT_BESIDE False turns it off.
BESIDE_SHIFTS = (-0.3, -0.2, 0.2, 0.3)
BESIDE_NOT_TILE = 0.1
SHIFT_BESIDE = True
# Faint boxes read surely (as `Recognizer::keep_sure_faint` in the Rust runtime): the best FAINT_TRIED detector peaks
# from FAINT_T up to the score threshold that lie where no tile was read are read, and kept as tiles when they read as
# a face other than a back or a white dragon at least FAINT_SURE sure, "not a tile" under FAINT_NOT_TILE the way they
# are read, their long side FAINT_SIZE times the read tiles' median. FAINT_SURE over 1 turns it off.
FAINT_T = 0.08
FAINT_TRIED = 12
FAINT_SURE = 0.95
FAINT_NOT_TILE = 0.05
FAINT_SIZE = (0.6, 1.6)
# Far shots: when the boxes found at INPUT_LONG are narrower than ZOOM_BELOW input pixels (median of their shorter
# sides), the detector runs again with the long side scaled so that median becomes ZOOM_TARGET, at most ZOOM_MAX_LONG
# (`Settings::zoom_*` in the Rust runtime). The detector misses a fifth of the tiles under 16 px wide at 640 and few
# over 24 px; the classifier's crops come from the photo itself, so only the detector needs the larger input.
ZOOM_BELOW = 22.0
ZOOM_TARGET = 26.0
ZOOM_MAX_LONG = 1024
ZOOM_MIN_BOXES = 3
# The second pass runs on the part of its enlarged input around the first pass's boxes: their bounding rectangle grown
# by ZOOM_MARGIN times the median box's long side, widened to multiples of 32 input pixels so the detector's grid is
# the whole input's (`Settings::zoom_margin`); 0 runs it on the whole input.
ZOOM_MARGIN = 3.0
DARK_FACE_RATIO = 0.6
# A keycap read as a tile is seldom sure, a tile in a shadow usually is; 0.8 made the fewest errors on the synthetic
# test sets with the version-12 classifier (`Settings::dark_face_confidence`; model card, "Dark faces").
DARK_FACE_CONFIDENCE = 0.8
DARK_FACE_MIN = 3


def tile_probs(probs):
    """Classifier rows -> (the 38 tile probabilities given that the crop is a tile, the "not a tile" probability; 0
    for a classifier without that output)."""
    if probs.shape[1] <= len(CLASSES):
        return probs, np.zeros(len(probs), np.float32)
    tiles = probs[:, :len(CLASSES)]
    return tiles / np.maximum(tiles.sum(1, keepdims=True), 1e-6), probs[:, len(CLASSES)]


def not_tile_score(p):
    """The "not a tile" score of one box from its readings' probabilities (see NOT_TILE_RULE)."""
    return float(p.max()) if NOT_TILE_RULE == "max" else float(p.mean())


def face_value(crop):
    """How light a reading's face is: the 75th percentile of max(R, G, B) inside its crop's margin. Max rather than
    luminance so red and green ink count as face (a red five is mostly ink); the percentile ignores the glyph."""
    inner = crop[8:CROP_H - 8, 6:CROP_W - 6]
    return float(np.percentile(inner.max(-1), 75))


# A photo whose tile faces are more tinted (dimmest channel under TINT_FLOOR of the brightest) or darker (brightest
# channel under DIM_BELOW) than the synthetic scenes mostly are is lifted (to TINT_FLOOR, and to a brightest channel
# of LIGHT_FLOOR) and detected again (Settings::tint_floor / dim_below / light_floor in Rust; model card, "Warm and
# dim light"). 0 turns either off. The runtime brightens faces under 110 (to 150) only when the photo's tiles do not
# already lay out a complete hand, which this reference, having no layout, cannot tell: it reads dark photos as they
# are (`evaluate.py --dim-below 110` brightens every one; model card, "a dim-light trigger").
DIM_BELOW = 0.0
LIGHT_FLOOR = 150.0
TINT_FLOOR = 0.8
LIGHT_MIN = 3  # the fewest tiles whose face colour judges a photo's light


def face_colour(crop):
    """A crop's face colour: the median colour of the pixels inside face_value's margin whose brightest channel is at or
    over its 75th percentile (the face around the glyph)."""
    inner = crop[8:CROP_H - 8, 6:CROP_W - 6].reshape(-1, 3).astype(np.float32)
    m = inner.max(1)
    return np.median(inner[m >= np.percentile(m, 75)], 0)


def light_gains(face):
    """Per-channel gains that bring faces of colour `face` to LIGHT_FLOOR and TINT_FLOOR, or None when they are there."""
    f = np.maximum(np.asarray(face, np.float32), 1)
    dim = f.max() < DIM_BELOW
    if not dim and f.min() >= TINT_FLOOR * f.max():
        return None
    t = f * (max(1.0, LIGHT_FLOOR / f.max()) if dim else 1.0)
    t = np.maximum(t, TINT_FLOOR * t.max())
    return np.clip(t / f, 0.5, 4).astype(np.float32)


def drop_dark_faces(res, values):
    """Drop face readings (not backs) whose face is far darker than the photo's other faces and whose reading is not
    confident: the tiles of one photo are one set, so they share a face colour, while keyboard keys (light legend on
    a dark cap) and other dark clutter pass for tiles only by their glyph."""
    faces = [v for r, v in zip(res, values) if r["tile"] != "back"]
    if len(faces) < DARK_FACE_MIN or DARK_FACE_RATIO <= 0:
        return res
    ref = float(np.median(faces))
    return [r for r, v in zip(res, values)
            if r["tile"] == "back" or v >= DARK_FACE_RATIO * ref or r["confidence"] >= DARK_FACE_CONFIDENCE]


def axis_difference(a, b):
    """Angle difference on axes (mod pi), in 0..pi/2."""
    d = (a - b) % math.pi
    return min(d, math.pi - d)


class Recognizer:
    def __init__(self, model_dir, threads=2, score_t=SCORE_T):
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.det = ort.InferenceSession(os.path.join(model_dir, "tile_detector.onnx"), so,
                                        providers=["CPUExecutionProvider"])
        self.cls = ort.InferenceSession(os.path.join(model_dir, "tile_classifier.onnx"), so,
                                        providers=["CPUExecutionProvider"])
        self.score_t = score_t
        self.timing = {}

    @staticmethod
    def letterbox(rgb, long_side):
        H, W = rgb.shape[:2]
        s = long_side / max(H, W)
        nw, nh = max(1, round(W * s)), max(1, round(H * s))
        # area filter to shrink; bilinear to enlarge (a zoomed far shot smaller than the zoomed input)
        im = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA if s <= 1 else cv2.INTER_LINEAR)
        pw, ph = (-nw) % 32, (-nh) % 32
        im = cv2.copyMakeBorder(im, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(127, 127, 127))
        x = im.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
        return np.ascontiguousarray(x), s

    def detect(self, rgb):
        """Boxes at INPUT_LONG, or at a larger input when they are narrow (see ZOOM_BELOW), from the score threshold;
        the fainter ones from FAINT_T are kept in `self.faint`."""
        boxes = self.detect_at(rgb, INPUT_LONG)
        sure = [b for b in boxes if b["score"] >= self.score_t]
        long_side = self.zoomed_long_side(rgb, sure)
        if long_side:
            boxes = self.detect_at(rgb, long_side, sure if ZOOM_MARGIN else None)
        self.faint = [b for b in boxes if b["score"] < self.score_t]
        return [b for b in boxes if b["score"] >= self.score_t]

    @staticmethod
    def zoom_window(x, s, boxes):
        """The window (X0, Y0, X1, Y1) of the letterboxed input `x` (scale `s`) around `boxes` (see ZOOM_MARGIN)."""
        H, W = x.shape[2:]
        margin = ZOOM_MARGIN * float(np.median([max(b["w"], b["h"]) for b in boxes]))
        corners = [c for b in boxes for c in Recognizer.corners(b)]
        lo = lambda v: max(0, 32 * math.floor((v - margin) * s / 32))  # noqa: E731
        hi = lambda v, n: min(n, 32 * math.ceil((v + margin) * s / 32))  # noqa: E731
        return (lo(min(c[0] for c in corners)), lo(min(c[1] for c in corners)),
                hi(max(c[0] for c in corners), W), hi(max(c[1] for c in corners), H))

    @staticmethod
    def zoomed_long_side(rgb, boxes):
        """The input long side a second detector pass should use, or None when the boxes are wide enough."""
        if len(boxes) < ZOOM_MIN_BOXES:
            return None
        s = INPUT_LONG / max(rgb.shape[:2])
        median = float(np.median([min(b["w"], b["h"]) * s for b in boxes]))
        if median >= ZOOM_BELOW:
            return None
        long_side = min(ZOOM_MAX_LONG, 32 * math.floor(INPUT_LONG * ZOOM_TARGET / median / 32 + 0.5))
        return long_side if long_side > INPUT_LONG else None

    def detect_at(self, rgb, long_side, around=None):
        """Boxes at input long side `long_side`; with `around` (boxes), only on the input's window around them."""
        x, s = self.letterbox(rgb, long_side)
        X0 = Y0 = 0
        if around:
            X0, Y0, X1, Y1 = self.zoom_window(x, s, around)
            x = np.ascontiguousarray(x[:, :, Y0:Y1, X0:X1])
        scores, geom = self.det.run(None, {"image": x})
        floor = min(self.score_t, FAINT_T) if FAINT_SURE <= 1 else self.score_t
        ys, xs = np.nonzero(scores[0, 0] >= floor)
        sc = scores[0, 0, ys, xs]
        g = geom[0][:, ys, xs].T  # n x 6
        order = np.argsort(-sc)
        boxes = []
        for i in order:
            cx, cy, w, h, c2, s2 = g[i]
            cx, cy, w, h, c2, s2 = (float(v) for v in (cx, cy, w, h, c2, s2))
            b = dict(cx=(cx + X0 + 0.5) / s - 0.5, cy=(cy + Y0 + 0.5) / s - 0.5, w=w / s, h=h / s,
                     phi=0.5 * math.atan2(s2, c2),
                     score=float(sc[i]))
            if all(math.hypot(b["cx"] - k["cx"], b["cy"] - k["cy"]) >= 0.5 * min(b["w"], k["w"]) for k in boxes):
                boxes.append(b)
        return boxes

    @staticmethod
    def crops(rgb, boxes):
        pyr = [rgb.astype(np.float32)]
        out = np.zeros((len(boxes), CROP_H, CROP_W, 3), np.uint8)
        for n, b in enumerate(boxes):
            L = max(0, int(math.floor(math.log2(max(b["w"], 1e-3) / CROP_W))))
            while len(pyr) <= L:
                p = pyr[-1]
                h2, w2 = p.shape[0] // 2, p.shape[1] // 2
                pyr.append(p[:2 * h2, :2 * w2].reshape(h2, 2, w2, 2, 3).mean((1, 3), dtype=np.float32))
            k = 2.0 ** L
            # pixel centres: level-L pixel j covers original pixels [j*k, (j+1)*k) -> centre (j+0.5)*k - 0.5
            M = crop_affine((b["cx"] + 0.5) / k - 0.5, (b["cy"] + 0.5) / k - 0.5, b["w"] / k, b["h"] / k, b["phi"])
            c = cv2.warpAffine(pyr[L], M, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            out[n] = np.clip(np.round(c), 0, 255).astype(np.uint8)
        return out

    def classify(self, crops):
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        x = np.ascontiguousarray(crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        return self.cls.run(None, {"crops": x})[0]

    @staticmethod
    def up_axis(phis):
        """The hand's up axis (mod pi) from the tiles' up axes: upright and sideways tiles agree
        mod pi/2, and upright tiles are the majority (as `layout::up_axis` in the Rust runtime)."""
        if not phis:
            return -math.pi / 2
        axis = math.atan2(sum(math.sin(4 * p) for p in phis), sum(math.cos(4 * p) for p in phis)) / 4
        votes = sum(axis_difference(p, axis) < math.pi / 4 for p in phis)
        return axis if 2 * votes >= len(phis) else axis + math.pi / 2

    @staticmethod
    def corners(b):
        """The rotated box's corners: top-left, top-right, bottom-right, bottom-left in the tile's frame."""
        ux, uy = math.cos(b["phi"]), math.sin(b["phi"])
        vx, vy = -uy, ux
        hw, hh = b["w"] / 2, b["h"] / 2
        return [(b["cx"] + sx * vx * hw + sy * ux * hh, b["cy"] + sx * vy * hw + sy * uy * hh)
                for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1))]

    @staticmethod
    def snapped(b, axis):
        """`b` with its up axis turned to `axis`, extents measured along and across it."""
        e1, e2 = Recognizer.extents(b, axis)
        return dict(b, w=min(e1, e2), h=max(e1, e2), phi=axis)

    @staticmethod
    def extents(b, axis):
        """The extents of `b` along `axis` and across it."""
        (a0, a1), (c0, c1) = Recognizer.spans(b, axis)
        return a1 - a0, c1 - c0

    @staticmethod
    def spans(b, axis):
        """The intervals `b` covers along `axis` and across it."""
        corners = Recognizer.corners(b)
        ax, ay = math.cos(axis), math.sin(axis)
        along = [x * ax + y * ay for x, y in corners]
        across = [-x * ay + y * ax for x, y in corners]
        return (min(along), max(along)), (min(across), max(across))

    @staticmethod
    def nearest_upright(boxes, sizes, at, skip):
        """[(distance, index)] of the STACK_NEIGHBOURS upright boxes (longer along the up axis than across it, by
        `sizes` from `extents`) nearest to the point `at`, leaving out the indices `skip`, nearest first (as
        `nearest_upright` in the Rust runtime)."""
        return sorted((math.hypot(n["cx"] - at[0], n["cy"] - at[1]), k) for k, n in enumerate(boxes)
                      if k not in skip and sizes[k][0] > sizes[k][1])[:STACK_NEIGHBOURS]

    @staticmethod
    def stacked_pair_halves(boxes, up):
        """[(index, (half, half))] for the boxes the size of two sideways tiles stacked along `up`, measured against
        their nearest upright neighbours in the same row."""
        sizes = [Recognizer.extents(b, up) for b in boxes]
        ux, uy = math.cos(up), math.sin(up)
        out = []
        for i, b in enumerate(boxes):
            near = Recognizer.nearest_upright(boxes, sizes, (b["cx"], b["cy"]), (i,))
            if len(near) < 2:
                continue
            alongs = [sizes[j][0] for _, j in near]
            along_ref = float(np.sort(alongs)[len(near) // 2])
            across_ref = float(np.sort([sizes[j][1] for _, j in near])[len(near) // 2])
            in_row = [abs((boxes[j]["cx"] - b["cx"]) * ux + (boxes[j]["cy"] - b["cy"]) * uy) <= STACK_ROW_OFFSET * along_ref
                      and d <= STACK_REACH * across_ref for d, j in near]
            if not all(in_row) or max(alongs) > STACK_ROW_SPREAD * min(alongs):
                continue
            along, across = sizes[i]
            if not (STACK_ALONG[0] <= along / along_ref <= STACK_ALONG[1]
                    and STACK_ACROSS[0] <= across / across_ref <= STACK_ACROSS[1]):
                continue
            step = max(along / 2, across_ref)  # a short box's halves at least a tile's size
            half = [dict(b, cx=b["cx"] + k * ux * step / 2, cy=b["cy"] + k * uy * step / 2, w=step,
                         h=max(across, along_ref), phi=up + math.pi / 2) for k in (1, -1)]
            out.append((i, half))
        return out

    @staticmethod
    def box_at(along, across, axis, w, h, phi):
        """The box centred at (`along`, `across`) in coordinates rotated to `axis`."""
        ux, uy = math.cos(axis), math.sin(axis)
        return {"cx": along * ux - across * uy, "cy": along * uy + across * ux, "w": w, "h": h, "phi": phi}

    @staticmethod
    def contains(b, x, y):
        ux, uy = math.cos(b["phi"]), math.sin(b["phi"])
        dx, dy = x - b["cx"], y - b["cy"]
        return abs(dx * ux + dy * uy) <= b["h"] / 2 and abs(dy * ux - dx * uy) <= b["w"] / 2

    @staticmethod
    def tile_part_pairs(boxes, up):
        """[(i, j, union)] for the pairs of boxes that are the two halves of one sideways tile."""
        spans = [Recognizer.spans(b, up) for b in boxes]
        sizes = [(a[1] - a[0], c[1] - c[0]) for a, c in spans]
        out = []
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if math.hypot(a["cx"] - b["cx"], a["cy"] - b["cy"]) > max(sizes[i]):
                    continue
                cx, cy = (a["cx"] + b["cx"]) / 2, (a["cy"] + b["cy"]) / 2
                near = Recognizer.nearest_upright(boxes, sizes, (cx, cy), (i, j))
                if len(near) < 2:
                    continue
                long = float(np.sort([sizes[k][0] for _, k in near])[len(near) // 2])
                short = float(np.sort([sizes[k][1] for _, k in near])[len(near) // 2])
                (ai, ci), (aj, cj) = spans[i], spans[j]
                along = (min(ai[0], aj[0]), max(ai[1], aj[1]))
                across = (min(ci[0], cj[0]), max(ci[1], cj[1]))
                u_along, u_across = along[1] - along[0], across[1] - across[0]
                overlap = (min(ci[1], cj[1]) - max(ci[0], cj[0])) / min(sizes[i][1], sizes[j][1])
                parts = all(sizes[k][0] * sizes[k][1] <= PART_AREA * u_along * u_across for k in (i, j))
                if not (PART_ACROSS[0] <= u_across / short <= PART_ACROSS[1]
                        and PART_ALONG[0] <= u_along / long <= PART_ALONG[1]
                        and overlap >= PART_OVERLAP and parts):
                    continue
                union = Recognizer.box_at((along[0] + along[1]) / 2, (across[0] + across[1]) / 2, up,
                                          u_along, u_across, up + math.pi / 2)
                out.append((i, j, union))
        return out

    @staticmethod
    def sure_tile(tiles, not_tile, confidence):
        """Whether a reading is a face (not a back) at least `confidence` sure and "not a tile" under STACK_NOT_TILE."""
        k = int(tiles.argmax())
        return CLASSES[k] != "back" and tiles[k] >= confidence and not_tile < STACK_NOT_TILE

    def join_tile_parts(self, rgb, boxes, up):
        cands = self.tile_part_pairs(boxes, up)
        if not cands:
            return boxes
        tiles, not_tile = tile_probs(self.classify(self.crops(rgb, [u for _, _, u in cands])))
        order = sorted((k for k in range(len(cands)) if self.sure_tile(tiles[k], not_tile[k], PART_CONFIDENCE)),
                       key=lambda k: -tiles[k].max())
        joined = set()
        unions = []
        for k in order:
            i, j, union = cands[k]
            if i in joined or j in joined:
                continue
            joined |= {i, j}
            unions.append(dict(union, score=max(boxes[i]["score"], boxes[j]["score"])))
        return [b for n, b in enumerate(boxes) if n not in joined] + unions

    @staticmethod
    def box_sides(boxes):
        """Each box's (long, short) sides, as `tile_size` takes them."""
        return [(max(b["w"], b["h"]), min(b["w"], b["h"])) for b in boxes]

    @staticmethod
    def tile_size(boxes, sides, i):
        """(long, short): the upper quartile of the sides of box i's SIZE_NEAR nearest boxes within SIZE_REACH of its own
        long side (`sides` every box's (long, short)), or None with fewer than SIZE_MIN_NEAR of them (as `tile_size` in
        the Rust runtime)."""
        b = boxes[i]
        near = sorted((d, j) for j, n in enumerate(boxes) if j != i
                      for d in [math.hypot(n["cx"] - b["cx"], n["cy"] - b["cy"])]
                      if d <= SIZE_REACH * sides[i][0])[:SIZE_NEAR]
        if len(near) < SIZE_MIN_NEAR:
            return None
        return (float(np.sort([sides[j][0] for _, j in near])[len(near) * 3 // 4]),
                float(np.sort([sides[j][1] for _, j in near])[len(near) * 3 // 4]))

    def shift_beside(self, rgb, res, face_values, colours, up):
        """Moves the boxes of `res` that lie beside their tile onto it (SHIFT_BESIDE), in place."""
        boxes = [r["rbox"] for r in res]
        sides = self.box_sides(boxes)
        cands = []
        for i, r in enumerate(res):
            code = r["tile"]
            if r["sideways"] or code[-1] not in "ps" or int(code[0].replace("0", "5")) > 4:
                continue
            size = self.tile_size(boxes, sides, i)
            if size is None or sides[i][0] <= PART_LONG * size[0]:
                continue
            b = boxes[i]
            upright = b if axis_difference(b["phi"], up) <= SNAP_TOLERANCE else self.snapped(b, up)
            cands.append((i, upright))
        if not cands:
            return
        vx, vy = -math.sin(up), math.cos(up)
        shifted = [dict(b, cx=b["cx"] + f * b["w"] * vx, cy=b["cy"] + f * b["w"] * vy)
                   for _, b in cands for f in BESIDE_SHIFTS]
        tiles, not_tile = tile_probs(self.classify(self.crops(rgb, shifted)))
        n = len(BESIDE_SHIFTS)
        moves = []
        for c, (i, _) in enumerate(cands):
            best = None
            for k in range(c * n, c * n + n):
                code, p = CLASSES[int(tiles[k].argmax())], float(tiles[k].max())
                if (code != "back" and p >= PART_CONFIDENCE and p > res[i]["confidence"]
                        and not_tile[k] < BESIDE_NOT_TILE and self.more_pips(res[i]["tile"], code)
                        and (best is None or p > best[1])):
                    best = (shifted[k], p)
            if best:
                moves.append((i, dict(best[0], score=boxes[i]["score"])))
        timing = self.timing
        for i, b in moves:
            again, col = self._read(rgb, True, boxes=[b], up=up)
            if again:  # the veto may drop the moved box; the tile then keeps its own
                res[i], colours[i], face_values[i] = again[0], col[0], face_value(self.crops(rgb, [b])[0])
        self.timing = timing

    @staticmethod
    def upright_parts(boxes, up):
        """[(i, tile_long, (whole, whole, whole, whole))] for the boxes small against the tiles around them, each
        with the two whole upright tiles, reaching from either of its ends along `up`, and the two sideways ones,
        reaching along the row from either of its ends across `up` (a called 4p boxed over one half), it could be
        a part of."""
        sides = Recognizer.box_sides(boxes)
        out = []
        for i, b in enumerate(boxes):
            size = Recognizer.tile_size(boxes, sides, i)
            if size is None:
                continue
            long, short = size
            l, s_ = sides[i]
            if l > PART_LONG * long or not PART_AREA_MIN <= l * s_ / (long * short) <= PART_AREA_MAX:
                continue
            (a0, a1), (c0, c1) = Recognizer.spans(b, up)
            wholes = tuple(Recognizer.box_at(a, (c0 + c1) / 2, up, short, long, up)
                           for a in (a0 + long / 2, a1 - long / 2))
            wholes += tuple(Recognizer.box_at((a0 + a1) / 2, c, up, short, long, up + math.pi / 2)
                            for c in (c0 + long / 2, c1 - long / 2))
            out.append((i, long, wholes))
        return out

    @staticmethod
    def more_pips(part, whole):
        """Whether `whole` is a circles or bamboo tile of `part`'s suit with more pips (codes such as "2p", "0p")."""
        def number(code):
            return int(code[0].replace("0", "5"))
        return part[-1] == whole[-1] and whole[-1] in "ps" and number(whole) > number(part)

    def join_upright_parts(self, rgb, boxes, up):
        cands = self.upright_parts(boxes, up)
        if not cands:
            return boxes
        crops = []
        for i, _, wholes in cands:
            b = boxes[i]
            crops += [b, dict(b, w=b["h"], h=b["w"], phi=b["phi"] + math.pi / 2), *wholes]
        tiles, not_tile = tile_probs(self.classify(self.crops(rgb, crops)))
        joins = []
        for n, (i, long, wholes) in enumerate(cands):
            t = tiles[6 * n:6 * n + 6]
            part = CLASSES[int(t[1].argmax() if t[1].max() > t[0].max() else t[0].argmax())]
            best = None
            for k in range(2, 6):
                code = CLASSES[int(t[k].argmax())]
                if (self.sure_tile(t[k], not_tile[6 * n + k], PART_CONFIDENCE) and self.more_pips(part, code)
                        and (best is None or t[k].max() > best[1])):
                    best = (wholes[k - 2], float(t[k].max()))
            if best:
                joins.append((i, long, best[0], best[1]))
        boxes = list(boxes)
        gone = [False] * len(boxes)
        for i, long, whole, _ in sorted(joins, key=lambda j: -j[3]):
            if gone[i]:
                continue
            inside = [j for j in range(len(boxes))
                      if j != i and not gone[j] and self.contains(whole, boxes[j]["cx"], boxes[j]["cy"])]
            gone[i] = True
            if any(max(boxes[j]["w"], boxes[j]["h"]) > PART_LONG * long for j in inside):
                continue
            for j in inside:
                gone[j] = True
            boxes.append(dict(whole, score=max([boxes[i]["score"]] + [boxes[j]["score"] for j in inside])))
            gone.append(False)
        return [b for b, g in zip(boxes, gone) if not g]

    def split_stacked_pairs(self, rgb, boxes, up):
        cands = self.stacked_pair_halves(boxes, up)
        if not cands:
            return boxes
        tiles_all, not_tile_all = tile_probs(self.classify(self.crops(rgb, [h for _, pair in cands for h in pair])))
        boxes = list(boxes)
        for n, (i, pair) in enumerate(cands):
            tiles, not_tile = tiles_all[2 * n:2 * n + 2], not_tile_all[2 * n:2 * n + 2]
            best = tiles.argmax(1)
            kinds = [CLASSES[int(k)].replace("0", "5") for k in best]
            if ("back" not in kinds and kinds[0] == kinds[1] and tiles[[0, 1], best].min() >= STACK_CONFIDENCE
                    and not_tile.max() < STACK_NOT_TILE):
                boxes[i] = pair[0]
                boxes.append(pair[1])
        return boxes

    def __call__(self, rgb, two_way=True):
        """Detect and classify (see _read); when the read tiles' faces are more tinted (or darker) than the synthetic
        scenes mostly are, the photo is lifted (light_gains) and read again."""
        res, colours = self._read(rgb, two_way)
        self.face = np.median(np.array(colours), 0) if len(colours) >= LIGHT_MIN else None
        self.gains = light_gains(self.face) if self.face is not None else None
        if self.gains is not None:
            rgb = np.clip(rgb.astype(np.float32) * self.gains, 0, 255).astype(np.uint8)
            res, _ = self._read(rgb, two_way)
        if two_way:
            res = res + self.sure_faint(rgb, res)
        for r in res:
            del r["rbox"]
        return res

    def sure_faint(self, rgb, res):
        """The faint boxes of the last detection (FAINT_T) that read surely as faces where none of `res` lies."""
        kept = [r["rbox"] for r in res]
        faint = [b for b in self.faint
                 if not any(self.contains(k, b["cx"], b["cy"]) or self.contains(b, k["cx"], k["cy"]) for k in kept)]
        faint = faint[:FAINT_TRIED]
        if FAINT_SURE > 1 or not faint:
            return []
        median = float(np.median([max(k["w"], k["h"]) for k in kept])) if kept else None
        timing = self.timing
        more, _ = self._read(rgb, True, boxes=faint, up=self.up)
        self.timing = timing
        return [r for r in more
                if r["tile"] not in ("back", "P") and r["confidence"] >= FAINT_SURE
                and r["not_tile_read"] < FAINT_NOT_TILE
                and (median is None or FAINT_SIZE[0] <= max(r["rbox"]["w"], r["rbox"]["h"]) / median <= FAINT_SIZE[1])]

    def _read(self, rgb, two_way, boxes=None, up=None):
        """Detect and classify. With `two_way` (what the Rust runtime does), every tile is classified
        twice, its up axis along the hand's up axis and across it; the log-ratio of the two top
        probabilities plus ANGLE_WEIGHT times the detector's angle offset is the evidence that it lies
        sideways, and the matching reading is kept. A box more than SNAP_TOLERANCE off both axes is also read
        along its own angle and a quarter turn from it (OWN_ANGLE), and each orientation keeps the more confident of
        its two readings. Without `two_way`, one reading along the detector's angle. `boxes` (with the hand's `up`
        axis): read these instead of detecting."""
        import time
        t0 = time.perf_counter()
        given = boxes is not None
        if not given:
            boxes = self.detect(rgb)
        t1 = time.perf_counter()
        if two_way:
            if not given:
                up = self.up_axis([b["phi"] for b in boxes])
                self.up = up
                if JOIN_PARTS:
                    boxes = self.join_upright_parts(rgb, self.join_tile_parts(rgb, boxes, up), up)
                if SPLIT_STACKED:
                    boxes = self.split_stacked_pairs(rgb, boxes, up)
            hyps = []
            own = {}
            for i, b in enumerate(boxes):
                for axis in (up, up + math.pi / 2):
                    hyps.append(b if axis_difference(b["phi"], axis) <= SNAP_TOLERANCE else self.snapped(b, axis))
            for i, b in enumerate(boxes):
                if OWN_ANGLE and min(axis_difference(b["phi"], up),
                                     axis_difference(b["phi"], up + math.pi / 2)) > SNAP_TOLERANCE:
                    # read along its own angle too: own[i] = (box nearest the up axis, box nearest across it)
                    turned = dict(b, w=b["h"], h=b["w"], phi=b["phi"] + math.pi / 2)
                    pair = (b, turned) if axis_difference(b["phi"], up) < math.pi / 4 else (turned, b)
                    own[i] = len(hyps)
                    hyps += list(pair)
            cr = self.crops(rgb, hyps)
        else:
            cr = self.crops(rgb, boxes)
        t2 = time.perf_counter()
        probs = self.classify(cr)
        if two_way and READ_TURN_DEG and hyps:
            # hyps come in pairs (one box along two axes): a pair with no reading READ_TURN_BELOW sure is read again
            # turned; the turned crops are cut here, so classify_ms includes their cutting
            sure = tile_probs(probs)[0].max(1).reshape(-1, 2).max(1) >= READ_TURN_BELOW
            unsure = [j for j in range(len(hyps)) if not sure[j // 2]]
            if unsure:
                turned = [dict(hyps[j], phi=hyps[j]["phi"] + math.radians(t))
                          for t in (-READ_TURN_DEG, READ_TURN_DEG) for j in unsure]
                readings = np.concatenate([probs[unsure], self.classify(self.crops(rgb, turned))])
                readings = readings.reshape(3, len(unsure), -1)
                surest = tile_probs(readings.reshape(3 * len(unsure), -1))[0].max(1).reshape(3, -1).argmax(0)
                probs = probs.copy()
                probs[unsure] = readings[surest, np.arange(len(unsure))]
        t3 = time.perf_counter()
        self.timing = {"detect_ms": (t1 - t0) * 1e3, "crop_ms": (t2 - t1) * 1e3, "classify_ms": (t3 - t2) * 1e3}
        probs, not_tile = tile_probs(probs)
        res = []
        face_values = []
        colours = []
        for i, b in enumerate(boxes):
            ux, uy = math.cos(b["phi"]), math.sin(b["phi"])
            rejected = not_tile_score(not_tile[2 * i:2 * i + 2]) if two_way else not_tile[i]
            if two_way:
                pu, ps = probs[2 * i], probs[2 * i + 1]
                nu, ns = not_tile[2 * i], not_tile[2 * i + 1]
                if i in own:
                    # read along its own angle too: each orientation keeps its more confident reading, and the box
                    # is judged by the readings it keeps
                    ou, os_ = probs[own[i]], probs[own[i] + 1]
                    if ou.max() > pu.max():
                        pu, nu = ou, not_tile[own[i]]
                    if os_.max() > ps.max():
                        ps, ns = os_, not_tile[own[i] + 1]
                    rejected = not_tile_score(np.array([nu, ns]))
            if rejected >= NOT_TILE_T:
                continue
            if two_way:
                angle = axis_difference(b["phi"], up) / (math.pi / 4) - 1
                evidence = math.log(max(float(ps.max()), 1e-6) / max(float(pu.max()), 1e-6)) + ANGLE_WEIGHT * angle
                sideways = evidence > 0
                p = ps if sideways else pu
                not_tile_read = ns if sideways else nu
            else:
                p = probs[i]
                sideways = abs(ux) > abs(uy)
                not_tile_read = not_tile[i]
            k = int(np.argmax(p))
            quad = self.corners(b)
            xs_, ys_ = [q[0] for q in quad], [q[1] for q in quad]
            top = np.argsort(-p)[:3]
            face_values.append(face_value(cr[2 * i if two_way else i]))
            colours.append(face_colour(cr[2 * i if two_way else i]))
            res.append({
                "tile": CLASSES[k],
                "box": [round(min(xs_), 1), round(min(ys_), 1), round(max(xs_), 1), round(max(ys_), 1)],
                "confidence": round(float(p[k]), 4),
                "sideways": bool(sideways),
                "det_score": round(b["score"], 4),
                "not_tile": round(float(rejected), 4),
                "not_tile_read": round(float(not_tile_read), 4),
                "angle_deg": round(math.degrees(b["phi"]), 1),
                "quad": [[round(a, 1), round(c, 1)] for a, c in quad],
                "probs_top3": {CLASSES[int(j)]: round(float(p[j]), 4) for j in top},
                "rbox": b,
            })
        if two_way and not given and SHIFT_BESIDE:
            self.shift_beside(rgb, res, face_values, colours, up)
        return drop_dark_faces(res, face_values), colours


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("image")
    ap.add_argument("--models", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--score", type=float, default=SCORE_T)
    args = ap.parse_args()
    rgb = cv2.cvtColor(cv2.imread(args.image), cv2.COLOR_BGR2RGB)
    rec = Recognizer(args.models, score_t=args.score)
    print(json.dumps(rec(rgb), indent=1))


if __name__ == "__main__":
    main()
