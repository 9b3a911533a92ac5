#!/usr/bin/env python3
"""Renders the photo fixtures of datasets/fixtures/ from a fixed recipe.

    nice -n 19 .venv-train/bin/python datasets/make_fixtures.py            # seed 7, writes datasets/fixtures/
    nice -n 19 .venv-train/bin/python datasets/make_fixtures.py --out /tmp/x --seed 8

Two steps, both deterministic:
1. `datasets/fixture_hands.py` (run with .venv, which has mahjong==2.1.0) draws one winning hand per scene of
   its RECIPE and scores it with the reference library;
2. each hand is laid out the way a player shows a win (concealed tiles sorted, the winning tile set apart at the
   right, called melds to the right with the called tile sideways, closed kans back-face-face-back, an added
   kan's fourth tile sideways on top of the called one, dora indicators in a row above, sometimes between
   face-down dead-wall tiles) and rendered with the training renderer's parts (models/training/gen_data.py:
   3-D tile boxes, FluffyStuff art, tables, shadows, lighting) by a camera that depends on the scene's shot.

The scene index seeds everything (numpy default_rng([seed, index])); the recognizer is never run here.
Format of the JSON written next to each JPEG: datasets/README.md.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "models", "training"))
import alt_art  # noqa: E402
import gen_data as G  # noqa: E402

W, H = 1280, 720
ALT_ART_P = 0.0  # --alt-art
LIVE_WALL_P = 0.0  # --live-wall
ALT_FONTS = "heldout"  # --alt-fonts
JPEG_QUALITY = 85

# Shots: camera elevation (degrees above the table), azimuth jitter, roll (image rotation), tile width as a share
# of the width at which the whole layout fills the frame ("fit"), with a cap in px at the 640-px detector scale,
# and the light.
SHOTS = {
    "normal": dict(el=(50, 75), az=5, roll=(0.0, 0.03), fill=(0.80, 0.92), cap640=40, light="normal"),
    "tilted": dict(el=(50, 75), az=12, roll=(0.20, 0.45), fill=(0.70, 0.80), cap640=40, light="normal"),
    "dim": dict(el=(50, 75), az=5, roll=(0.0, 0.05), fill=(0.80, 0.92), cap640=40, light="dim"),
    "far": dict(el=(50, 75), az=5, roll=(0.0, 0.05), fill=(0.55, 0.65), cap640=28, light="normal"),
    "steep": dict(el=(30, 40), az=8, roll=(0.0, 0.05), fill=(0.80, 0.92), cap640=40, light="normal"),
}


# ------------------------------------------------------------------------------------------------ tiles
def parse_mpsz(text):
    """'123m0p77z' -> ['1m', '2m', '3m', '0p', '7z', '7z']"""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
        else:
            out += [d + ch for d in digits]
            digits = []
    return out


def code_to_class(code):
    d, s = code[0], code[1]
    if s == "z":
        return 26 + int(d)
    if d == "0":
        return 34 + "mps".index(s)
    return "mps".index(s) * 9 + int(d) - 1


def sort_key(code):
    d, s = code[0], code[1]
    return ("mpsz".index(s), 5 if d == "0" else int(d), d != "0")


def meld_kind(text):
    body = parse_mpsz(text[1:-1])
    if text[0] == "(":
        return "closed_kan", body
    if text[0] == "{":
        return "added_kan", body
    if len(body) == 4:
        return "open_kan", body
    plain = {c.replace("0", "5") for c in body}
    return ("pon" if len(plain) == 1 else "chi"), body


def hand_plan(rng, request):
    """Concealed tiles (sorted, without the winning tile), the winning tile, melds laid out (order, called index)."""
    concealed = parse_mpsz(request["hand"])
    win = request["win"]
    concealed.remove(win)
    concealed.sort(key=sort_key)
    melds = []
    for text in request["melds"]:
        kind, tiles = meld_kind(text)
        tiles = sorted(tiles, key=sort_key)
        if kind == "chi":
            c = int(rng.integers(3))  # the called tile lies first (taken from the player on the left)
            order = [tiles[c]] + [t for i, t in enumerate(tiles) if i != c]
            called = 0
        elif kind == "closed_kan":
            faces = sorted(tiles, key=lambda t: t[0] != "0")[:2]  # a red five shows face up
            rest = [t for t in tiles]
            for f in faces:
                rest.remove(f)
            order = [rest[0], faces[0], faces[1], rest[1]]
            called = None
        elif kind == "added_kan":
            order = list(tiles[:3])
            rng.shuffle(order)
            called = int(rng.integers(3))
            order = order + [tiles[3]]  # the added tile, stacked on the called one
        elif kind == "open_kan":
            order = list(tiles)
            rng.shuffle(order)
            called = int(rng.integers(4))
        else:
            order = list(tiles)
            rng.shuffle(order)
            called = int(rng.integers(3))
        melds.append({"kind": kind, "tiles": order, "called": called, "notation": text})
    return concealed, win, melds


def build_world(rng, style, concealed, win, melds, dora):
    """3-D tiles (gen_data.Tile) with their ground-truth roles, in world units (tile width 1)."""
    b = style["aspect"]
    gap = rng.uniform(0.01, 0.05)
    row_yaw = rng.normal(0, 0.02)
    placed = []  # (Tile, info)

    def put(code, pose, x, y, yaw, info):
        cls = code_to_class(code)
        t = G.Tile(cls, style, pose, (x, y), yaw)
        placed.append((t, dict(info, tile=code if pose != "down" else "back", code=code,
                               back=pose == "down")))

    x = 0.0
    for i, code in enumerate(concealed):
        put(code, "flat", x + 0.5, rng.normal(0, 0.02), row_yaw + rng.normal(0, 0.02),
            {"role": "concealed", "index": i, "sideways": False})
        x += 1 + gap
    x += rng.uniform(0.4, 0.7)
    put(win, "flat", x + 0.5, rng.normal(0, 0.02), row_yaw + rng.normal(0, 0.02),
        {"role": "win", "sideways": False})
    x += 1 + gap + rng.uniform(0.7, 1.2)
    for m, meld in enumerate(melds):
        for j, code in enumerate(meld["tiles"]):
            info = {"role": "meld", "meld": m, "index": j, "sideways": False}
            if meld["kind"] == "added_kan" and j == 3:
                # on top of (further from the player than) the called tile, also sideways
                put(code, "flat", meld["_called_x"], -(b - 1) / 2 + 1 + gap, row_yaw + meld["_yaw"],
                    dict(info, sideways=True))
                continue
            pose = "down" if meld["kind"] == "closed_kan" and j in (0, 3) else "flat"
            if meld["called"] == j:
                yaw = math.pi / 2 * (1 if rng.random() < 0.5 else -1) + rng.normal(0, 0.02)
                meld["_called_x"], meld["_yaw"] = x + b / 2, yaw
                put(code, pose, x + b / 2, -(b - 1) / 2 + rng.normal(0, 0.01), row_yaw + yaw,
                    dict(info, sideways=True))
                x += b + gap
            else:
                put(code, pose, x + 0.5, rng.normal(0, 0.02), row_yaw + rng.normal(0, 0.02), info)
                x += 1 + gap
        x += rng.uniform(0.25, 0.5)
        meld.pop("_called_x", None)
        meld.pop("_yaw", None)
    width = x
    # dora indicators in a row above the hand, sometimes between face-down dead-wall tiles
    wall = rng.random() < 0.5
    dx = rng.uniform(0.1, 0.35) * width
    dy = b + rng.uniform(0.9, 1.5)
    codes = (["back"] if wall else []) + list(dora) + (["back", "back"] if wall else [])
    k = 0
    for j, code in enumerate(codes):
        if code == "back":
            # a face-down dead-wall tile (the face underneath is not seen)
            put("1z", "down", dx + j * (1 + gap) + 0.5, dy,
                row_yaw + rng.normal(0, 0.02), {"role": "wall", "sideways": False})
        else:
            put(code, "flat", dx + j * (1 + gap) + 0.5, dy, row_yaw + rng.normal(0, 0.02),
                {"role": "dora", "index": k, "sideways": False})
            k += 1
    for t, _ in placed:  # centre
        t.p[0] -= width / 2
        t.corners[:, 0] -= width / 2
    return placed


def add_live_wall(rng, style, placed):
    """A wall still on the table beyond the dead wall's row: seventeen face-down tiles in a row across the
    hand's width, a longer row than the hand (labelled as wall tiles, left out of the hand)."""
    b = style["aspect"]
    gap = rng.uniform(0.01, 0.05)
    far = max(t.p[1] for t, _ in placed)
    y = far + b + rng.uniform(0.3, 0.8)
    yaw = rng.normal(0, 0.02)
    x0 = rng.uniform(-1.0, 1.0) - 8 * (1 + gap)
    for j in range(17):
        t = G.Tile(code_to_class("1z"), style, "down", (x0 + j * (1 + gap), y), yaw + rng.normal(0, 0.02))
        placed.append((t, {"role": "wall", "sideways": False, "tile": "back", "code": "1z", "back": True}))


# ------------------------------------------------------------------------------------------------ render
def project_all(cam, placed):
    qs = []
    for t, _ in placed:
        q, z = cam.project(t.corners)
        if (z < 0.05).any():
            return None
        qs.append(q)
    return np.concatenate(qs)


def place_camera(rng, shot, placed):
    """A camera for the shot that keeps every tile inside the frame (shrinking the tiles until it does)."""
    s = SHOTS[shot]
    el = rng.uniform(*s["el"])
    az = -90 + rng.normal(0, s["az"])
    roll = rng.uniform(*s["roll"]) * (1 if rng.random() < 0.5 else -1)
    allc = np.concatenate([t.corners for t, _ in placed])
    target = (allc.max(0) + allc.min(0)) / 2
    target[2] = 0
    ext = allc.max(0) - allc.min(0)
    fit = W / max(1.0, ext[0])  # tile px at which the layout spans the frame width
    tile_px = min(fit * rng.uniform(*s["fill"]), s["cap640"] * W / 640.0 * rng.uniform(0.9, 1.0))
    cam_rng_state = rng.bit_generator.state
    for _ in range(40):
        rng.bit_generator.state = cam_rng_state
        cam = G.Camera(rng, W, H, target, tile_px, el, az, roll)
        q = project_all(cam, placed)
        margin = 0.04 * H
        if q is not None and q[:, 0].min() > margin and q[:, 1].min() > margin and \
                q[:, 0].max() < W - margin and q[:, 1].max() < H - margin:
            return cam, dict(elevation_deg=round(el, 2), azimuth_deg=round(az, 2), roll_deg=round(math.degrees(roll), 2),
                             focal_px=round(cam.f, 1))
        tile_px *= 0.93
    raise RuntimeError("layout does not fit the frame")


def photo_effects(rng, img, light):
    img = img * rng.uniform(0.93, 1.07, 3)[None, None]
    img = img * (rng.uniform(0.35, 0.5) if light == "dim" else rng.uniform(0.9, 1.1))
    img = (img - 128) * rng.uniform(0.9, 1.1) + 128
    img = 255 * (np.clip(img, 0, 255) / 255) ** rng.uniform(0.9, 1.1)
    if rng.random() < 0.4:
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        r = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / (W * W / 4 + H * H / 4)
        img = img * (1 - rng.uniform(0.1, 0.3) * r)[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 0.9))
    sigma = rng.uniform(4, 7) if light == "dim" else rng.uniform(1, 3)
    img = img + rng.normal(0, sigma, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def render(rng, style, placed, shot):
    cam, camera = place_camera(rng, shot, placed)
    tiles = [t for t, _ in placed]
    img = G.make_background(rng, H, W)
    img = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
    G.draw_distractors(rng, img, int(rng.integers(0, 3)))
    img = img.astype(np.float32)
    light = np.array([rng.normal(0, 0.5), rng.normal(0, 0.5), rng.uniform(0.8, 1.5)])
    light /= np.linalg.norm(light)
    amb = rng.uniform(0.55, 0.8)
    smask = np.zeros((H, W), np.float32)
    for t in tiles:
        P = t.corners - (t.corners[:, 2:3] / light[2]) * light[None]
        q, _ = cam.project(P)
        hull = cv2.convexHull(q.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(smask, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
    order = sorted(range(len(tiles)), key=lambda i: -np.linalg.norm(tiles[i].center() - cam.pos))
    k = 3
    smask = cv2.GaussianBlur(smask, (k * 3 | 1, k * 3 | 1), 0)
    img *= (1 - rng.uniform(0.25, 0.45) * smask[..., None])
    idmap = np.full((H, W), -1, np.int32)
    ivory = np.array(style["ivory"], np.float32)
    backc = np.array(style["back"], np.float32)
    tex_mask = G.rounded_mask(G.TEX_W, G.TEX_H, style["corner"] * G.TEX_W)
    for i in order:
        t = tiles[i]
        q_all, _ = cam.project(t.corners)
        for (idx, n_loc, kind_f) in G.FACES:
            n_w = t.R @ np.array(n_loc, np.float64)
            fc = t.corners[list(idx)].mean(0)
            if np.dot(n_w, cam.pos - fc) <= 0:
                continue
            q = q_all[list(idx)]
            g = G.shade(n_w, light, amb)
            if kind_f == "front":
                G.warp_texture(img, G.make_face_texture(rng, t.cls, style), q, tex_mask, g, idmap, i)
                t.face_q = q
            elif kind_f == "back":
                G.warp_texture(img, G.make_back_texture(rng, style), q, tex_mask, g, idmap, i)
                t.face_q = q
            else:
                zb = t.t * (1 - style["face_frac"])
                L = t.corners_local[list(idx)]
                lo = [j for j in range(4) if L[j, 2] < 1e-6]
                hi = [j for j in range(4) if L[j, 2] > 1e-6]
                if len(lo) == 2 and len(hi) == 2:
                    mid = cam.project(t.world([L[j] + np.array([0, 0, zb]) for j in lo]))[0]
                    lo_q = q[lo]
                    G.fill_quad(img, np.array([lo_q[0], lo_q[1], mid[1], mid[0]]), tuple((backc * g).tolist()), idmap, i)
                    hi_sorted = sorted(hi, key=lambda j: np.linalg.norm(L[j, :2] - L[lo[0], :2]))
                    G.fill_quad(img, np.array([mid[0], mid[1], q[hi_sorted[1]], q[hi_sorted[0]]]),
                                tuple((ivory * g * 0.97).tolist()), idmap, i)
                else:
                    G.fill_quad(img, q, tuple((ivory * g * 0.95).tolist()), idmap, i)
    img = photo_effects(rng, img, SHOTS[shot]["light"])
    labels = []
    for i, (t, info) in enumerate(placed):
        q = t.face_q
        area = cv2.contourArea(q.astype(np.float32))
        m = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 1)
        visible = float(((idmap == i) & (m > 0)).sum() / max(1.0, area))
        cx, cy, w, h, phi = G.rbox_from_quad(q)
        labels.append(dict(info, box=[round(float(q[:, 0].min()), 1), round(float(q[:, 1].min()), 1),
                                      round(float(q[:, 0].max()), 1), round(float(q[:, 1].max()), 1)],
                           rotated=dict(cx=round(cx, 1), cy=round(cy, 1), w=round(w, 1), h=round(h, 1),
                                        phi=round(phi, 4)),
                           visible=round(min(1.0, visible), 3)))
    return img, labels, camera


# ------------------------------------------------------------------------------------------------ fixtures
def fixture(seed, scene):
    index = scene["index"]
    rng = np.random.default_rng([seed, index])
    style = G.random_style(rng)
    # a standard riichi set: ivory faces with the FluffyStuff art in its own colours (no camerash faces, no
    # black-faced set, no recolouring or fading)
    if style["black"]:
        style["ivory"] = G.jitter_color(rng, G.IVORY[rng.integers(len(G.IVORY))], 10)
    style.update(black=False, real=False, recolor=False, faded=False)
    # --alt-art: the set's faces in other art (models/training/alt_art.py), drawn after everything above so that
    # without it every scene is the same as before
    if ALT_ART_P > 0 and rng.random() < ALT_ART_P:
        style["alt"] = alt_art.draw_style(rng, ALT_FONTS)
    request = scene["request"]
    concealed, win, melds = hand_plan(rng, request)
    dora = parse_mpsz(request["dora_indicators"])
    placed = build_world(rng, style, concealed, win, melds, dora)
    # --live-wall: from a stream of its own, so that without it every scene is the same as before
    wall_rng = np.random.default_rng([seed, index, 17])
    live_wall = LIVE_WALL_P > 0 and wall_rng.random() < LIVE_WALL_P
    if live_wall:
        add_live_wall(wall_rng, style, placed)
    img, labels, camera = render(rng, style, placed, scene["shot"])
    # ground truth: tile list (reading order: hand row left to right, then the dora row) and layout by index
    tiles = []
    for lab in labels:
        tiles.append({k: lab[k] for k in ("tile", "box", "rotated", "sideways", "back", "role", "visible")})
        if lab["role"] in ("concealed", "dora", "meld"):
            tiles[-1]["index"] = lab["index"]
        if lab["role"] == "meld":
            tiles[-1]["meld"] = lab["meld"]
        if lab["back"]:
            tiles[-1]["face_down"] = lab["code"] if lab["role"] == "meld" else None
    idx = {id(lab): n for n, lab in enumerate(labels)}
    layout = {
        "concealed": [idx[id(l)] for l in sorted((l for l in labels if l["role"] == "concealed"), key=lambda l: l["index"])],
        "win": next(idx[id(l)] for l in labels if l["role"] == "win"),
        "melds": [],
        "dora": [idx[id(l)] for l in sorted((l for l in labels if l["role"] == "dora"), key=lambda l: l["index"])],
        "wall": [idx[id(l)] for l in labels if l["role"] == "wall"],
    }
    for m, meld in enumerate(melds):
        members = sorted((l for l in labels if l["role"] == "meld" and l["meld"] == m), key=lambda l: l["index"])
        layout["melds"].append({"kind": meld["kind"], "tiles": [idx[id(l)] for l in members],
                                "faces": meld["tiles"], "called": meld["called"], "notation": meld["notation"]})
    widths = [min(t["rotated"]["w"], t["rotated"]["h"]) for t in tiles if not t["sideways"]]
    camera["tile_width_px"] = round(float(np.median(widths)), 1)
    camera["tile_width_px_at_640"] = round(float(np.median(widths)) * 640 / max(W, H), 1)
    conditions = {k: v for k, v in request.items() if k not in ("hand", "melds", "win", "dora_indicators")}
    name = f"{index + 1:02d}-{scene['hand_property'].replace('_', '-')}-{scene['shot']}"
    meta = {
        "name": name,
        "image": name + ".jpg",
        "width": W,
        "height": H,
        "recipe": {"seed": seed, "index": index, "hand_property": scene["hand_property"], "shot": scene["shot"],
                   "hand_template": scene["template"], "style_back_rgb": list(style["back"]),
                   **({"alt_art_font": style["alt"]["font"]} if "alt" in style else {}),
                   **({"live_wall": True} if live_wall else {})},
        "camera": camera,
        "tiles": tiles,
        "layout": layout,
        "hand": {"concealed": concealed, "win": win,
                 "melds": [{"kind": m["kind"], "tiles": m["tiles"], "called": m["called"]} for m in melds],
                 "dora_indicators": dora},
        "conditions": conditions,
        "request": request,
        "expected": scene["expected"],
    }
    return img, meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(HERE, "fixtures"))
    ap.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"),
                    help="a python with mahjong==2.1.0 (scripts/setup.sh makes .venv)")
    ap.add_argument("--alt-art", type=float, default=0.0,
                    help="share of the scenes whose set is drawn in other art (gen_data.py --alt-art), e.g. 1.0")
    ap.add_argument("--alt-fonts", default="heldout", choices=("train", "heldout", "all"),
                    help="with --alt-art: the fonts of its characters (heldout: the font no model trained on)")
    ap.add_argument("--live-wall", type=float, default=0.0,
                    help="share of the scenes with a wall of seventeen face-down tiles left on the table beyond "
                         "the dead wall's row, a longer row than the hand, e.g. 1.0")
    args = ap.parse_args()
    global ALT_ART_P, ALT_FONTS, LIVE_WALL_P
    ALT_ART_P, ALT_FONTS, LIVE_WALL_P = args.alt_art, args.alt_fonts, args.live_wall
    hands = json.loads(subprocess.run([args.python, os.path.join(HERE, "fixture_hands.py"), "--seed", str(args.seed)],
                                      check=True, capture_output=True, text=True).stdout)
    os.makedirs(args.out, exist_ok=True)
    for scene in hands["scenes"]:
        img, meta = fixture(args.seed, scene)
        meta["reference"] = hands["reference"]
        ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        assert ok
        with open(os.path.join(args.out, meta["image"]), "wb") as f:
            f.write(buf.tobytes())
        with open(os.path.join(args.out, meta["name"] + ".json"), "w") as f:
            json.dump(meta, f, indent=1)
            f.write("\n")
        low = [t for t in meta["tiles"] if t["visible"] < 0.9]
        print(f"{meta['name']}: {len(meta['tiles'])} tiles, tile width {meta['camera']['tile_width_px_at_640']} px "
              f"at 640, {len(buf) // 1024} KiB" + (f", {len(low)} tiles < 90% visible" if low else ""))


if __name__ == "__main__":
    main()
