"""Evaluate the exported ONNX tile recognizer (run by hand; results go in models/MODEL_CARD.md).

nice -n 19 .venv-train/bin/python models/training/evaluate.py --eval-photos ../shared/eval-photos \
    --peer-python .venv-peer/bin/python [--runtime target/release/riichi-lens] [--json out.json]

Reports:
 * synthetic held-out test scenes (.cache-train/det/test_*.npz, generated with seed 2): per-tile accuracy
   (missed tiles count as errors), detection precision/recall, share of scenes read perfectly; with --peer-python,
   the face-up tiles read by ours and by the peer on its terms (no backs, red fives as plain fives);
 * camerash real crops mapped to riichi classes (held-out 30% split, never trained on) + all crops;
 * roboflow test split (4 photos, never trained on): tile P/R through the full pipeline (with --through-runtime, the
   Rust runtime's), and the peer's on the same 640x360 pixels when --peer-python is given;
 * eval photos (path argument): per image precision / recall / F1 of tile kinds, with and without the
   red-five distinction, and whether the labelled row was read completely; the peer mahjong-detector==0.0.6
   is run on the same photos in the same run (subprocess in its own venv), and with --runtime the Rust
   runtime's own output (`riichi-lens recognize --json`: after its layout step, which this reference lacks);
 * with --fixtures DIR..., the face-up tiles of those rendered winning hands read by the --runtime binary and the peer;
 * latency of both models on a 1280x720 frame on this machine.

`--cast R,G,B` reads the synthetic scenes under other light (each multiplied by those per-channel gains first:
1.2,0.95,0.75 warm, 0.45,0.45,0.45 dim); `--tint-floor`, `--dim-below` and `--light-floor` set the lift of such
photos (model card, "Warm and dim light").
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, os.path.dirname(__file__))
from common import CLASSES, REPO  # noqa: E402
import reference_infer  # noqa: E402
from reference_infer import Recognizer  # noqa: E402
import real_data  # noqa: E402

NORED = {"0m": "5m", "0p": "5p", "0s": "5s"}


def in_rbox(px, py, g, shrink=1.0):
    cls, cx, cy, w, h, phi = g[:6]
    ux, uy = math.cos(phi), math.sin(phi)
    dx, dy = px - cx, py - cy
    a = dx * ux + dy * uy  # along up axis
    b = -dx * uy + dy * ux  # across
    return abs(a) <= h / 2 * shrink and abs(b) <= w / 2 * shrink


# Tile width bands (pixels of the scene, the shorter side of the face) for the synthetic breakdown: where the
# misses and misreads are, since the held-out scenes span 13-170 px wide tiles at 640 px.
WIDTH_BANDS = (0, 16, 24, 40, 10_000)


def width_band(g):
    w = min(g[3], g[4])
    i = next(i for i in range(len(WIDTH_BANDS) - 1) if w < WIDTH_BANDS[i + 1])
    hi = WIDTH_BANDS[i + 1]
    return f"{WIDTH_BANDS[i]}-{hi}px" if hi < WIDTH_BANDS[-1] else f"{WIDTH_BANDS[i]}px+"


def faces_compared(scenes, ours, peer_python):
    """The synthetic `scenes`' face-up tiles as `ours` (one reading per scene) and the peer read them, on the peer's
    terms: it has no tile back and no red-five class, so backs are left out and a red five counts as its plain five on
    both sides. Per tile (found and read right), detection recall, and scenes whose every face is read right. The
    scenes are written as PNGs for the peer (in its own venv), which reads them all in one process."""
    peer, error = peer_readings_of_images(peer_python, [im for im, _ in scenes])
    if error:
        return {"peer_error": error}
    peer = [[dict(t, det_score=t["confidence"]) for t in tiles] for tiles in peer]
    out = {}
    for who, readings in (("ours", ours), ("peer", peer)):
        tiles = right = found = perfect = 0
        for (_, labs), res in zip(scenes, readings):
            used, scene_ok = set(), True
            for g in labs:
                if g[6] or CLASSES[int(g[0])] == "back":
                    continue
                best = best_match(res, g, used)
                tiles += 1
                if best is None:
                    scene_ok = False
                    continue
                used.add(best)
                found += 1
                code = CLASSES[int(g[0])]
                if NORED.get(res[best]["tile"], res[best]["tile"]) == NORED.get(code, code):
                    right += 1
                else:
                    scene_ok = False
            perfect += scene_ok
        out[who] = {"faces": tiles, "per_face_accuracy": right / max(1, tiles), "detection_recall": found / max(1, tiles),
                    "scenes_with_every_face_right": perfect / max(1, len(scenes))}
    return out


def best_match(res, g, used):
    """The reading of `res` not in `used` whose box centre lies within ground-truth tile `g` (shrunk to 0.8), the
    detector's surest if several; None if none."""
    best = None
    for j, r in enumerate(res):
        if j not in used and in_rbox(*box_centre(r), g, 0.8) and (
                best is None or r["det_score"] > res[best]["det_score"]):
            best = j
    return best


def box_centre(r):
    return (r["box"][0] + r["box"][2]) / 2, (r["box"][1] + r["box"][3]) / 2


def tile_kind(code):
    """The family a class belongs to, for the synthetic breakdown by kind: characters, circles and bamboo (red fives
    with their suit), winds, dragons, backs. `testalt` draws the characters, winds and dragons in a hand never
    trained on, so its figures are worth reading per kind."""
    if code == "back":
        return "backs"
    if code in ("E", "S", "W", "N"):
        return "winds"
    if code in ("P", "F", "C"):
        return "dragons"
    return {"m": "characters", "p": "circles", "s": "bamboo"}[code[-1]]


def synthetic_scenes(name="test", max_scenes=None, cast=None):
    """The generated scene set `name` (its first `max_scenes`), each under other light when `cast` (per-channel gains)
    is given."""
    from train_det import load_scenes
    scenes = load_scenes(name)[:max_scenes or None]
    if cast:
        scenes = [(np.clip(im.astype(np.float32) * np.array(cast, np.float32), 0, 255).astype(np.uint8), labs)
                  for im, labs in scenes]
    return scenes


def eval_synthetic(rec, scenes):
    """`rec`'s figures on the synthetic `scenes`, and its reading of each."""
    readings = []
    n_gt = n_ok = n_det_tp = n_pred = n_fp = 0
    perfect = 0
    cls_ok = cls_n = 0
    # per width band: tiles, read right, misread, found by the detector but vetoed as "not a tile", not found
    bands = {}
    kinds = {}  # per tile kind: tiles, read right
    for im, labs in scenes:
        res = rec(im)
        readings.append(res)
        detected = rec.detect(im)
        gt = [l for l in labs if not l[6]]
        ign = [l for l in labs if l[6]]
        used = set()
        scene_ok = True
        for g in gt:
            best = best_match(res, g, used)
            n_gt += 1
            band = bands.setdefault(width_band(g), {"tiles": 0, "right": 0, "misread": 0, "vetoed": 0, "missed": 0})
            band["tiles"] += 1
            kind = kinds.setdefault(tile_kind(CLASSES[int(g[0])]), {"tiles": 0, "right": 0})
            kind["tiles"] += 1
            if best is None:
                scene_ok = False
                found = any(in_rbox(d["cx"], d["cy"], g, 0.8) for d in detected)
                band["vetoed" if found else "missed"] += 1
                continue
            used.add(best)
            n_det_tp += 1
            if res[best]["tile"] == CLASSES[int(g[0])]:
                n_ok += 1
                band["right"] += 1
                kind["right"] += 1
            else:
                scene_ok = False
                band["misread"] += 1
        for j, r in enumerate(res):
            if j in used:
                continue
            if any(in_rbox(*box_centre(r), g, 1.2) for g in ign):
                continue
            n_fp += 1
            scene_ok = False
        n_pred += len(res)
        perfect += scene_ok
        # classifier alone on ground-truth boxes
        if gt:
            boxes = [dict(cx=g[1], cy=g[2], w=g[3], h=g[4], phi=g[5]) for g in gt]
            p = rec.classify(rec.crops(im, boxes)).argmax(1)
            cls_ok += int((p == np.array([int(g[0]) for g in gt])).sum())
            cls_n += len(gt)
    return readings, {
        "scenes": len(scenes), "tiles": n_gt,
        "per_tile_accuracy": n_ok / max(1, n_gt),
        "detection_recall": n_det_tp / max(1, n_gt),
        "false_positives": n_fp,
        "detection_precision": n_det_tp / max(1, n_det_tp + n_fp),
        "scenes_read_perfectly": perfect / max(1, len(scenes)),
        "classifier_accuracy_on_gt_boxes": cls_ok / max(1, cls_n),
        "by_tile_width": {k: dict(v, per_tile_accuracy=v["right"] / max(1, v["tiles"]))
                          for k, v in sorted(bands.items(), key=lambda kv: int(kv[0].split("-")[0].rstrip("px+")))},
        "by_tile_kind": {k: dict(v, per_tile_accuracy=v["right"] / max(1, v["tiles"])) for k, v in sorted(kinds.items())},
    }


def eval_camerash(rec):
    out = {}
    for split in ("test", "train"):
        items = real_data.camerash_images(split)
        x = np.array([real_data.plain_crop(i) for i, _ in items])
        y = np.array([c for _, c in items])
        p = rec.classify(x)
        pred = p.argmax(1)
        # also: ignoring the half-turn ambiguity is built in; report top-1 and top-3
        top3 = np.argsort(-p, 1)[:, :3]
        out[split] = {"n": len(y), "accuracy": float((pred == y).mean()),
                      "top3": float(np.mean([y[i] in top3[i] for i in range(len(y))])),
                      "errors": [(CLASSES[a], (CLASSES + ["none"])[b]) for a, b in zip(y, pred) if a != b][:40]}
    return out


def match_boxes(preds, labels):
    """Pairs predictions with labelled boxes: a pair needs the prediction's centre in the (10% enlarged) labelled box,
    each side is paired at most once, as many pairs as possible are made, and among those the pairing whose centres
    lie closest (the distance over the labelled box's long side, summed) wins. In a loose pile a prediction can lie in
    two overlapping labelled boxes; it goes to the tile it is on, and the other label keeps its own prediction (the
    first rule, "each label in order takes the surest prediction in it", counted a correct 9s of IMG_3088 as missed and
    as a false detection). Returns list of (label_idx, pred_idx or None) and unmatched preds."""
    apart = 1e6  # the cost of a pair that is not allowed: larger than any sum of allowed ones
    cost = np.full((len(labels), len(preds)), apart)
    for li, l in enumerate(labels):
        x1, y1, x2, y2 = l["box"]
        mx, my = (x2 - x1) * 0.1, (y2 - y1) * 0.1
        lx, ly, size = (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1, 1e-6)
        for j, p in enumerate(preds):
            cx = (p["box"][0] + p["box"][2]) / 2
            cy = (p["box"][1] + p["box"][3]) / 2
            if x1 - mx <= cx <= x2 + mx and y1 - my <= cy <= y2 + my:
                cost[li, j] = math.hypot(cx - lx, cy - ly) / size
    paired = {int(li): int(j) for li, j in zip(*linear_sum_assignment(cost)) if cost[li, j] < apart}
    used = set(paired.values())
    return [(li, paired.get(li)) for li in range(len(labels))], [j for j in range(len(preds)) if j not in used]


def score_photo(preds, entry):
    labels = entry["tiles"]
    pairs, extra = match_boxes(preds, labels)
    out = {}
    for mode in ("with_red", "no_red"):
        f = (lambda c: c) if mode == "with_red" else (lambda c: NORED.get(c, c))
        tp = 0
        n_lab = sum(1 for l in labels if l["code"] != "?")
        n_pred = len(extra) + sum(1 for li, pj in pairs if pj is not None and labels[li]["code"] != "?")
        for li, pj in pairs:
            c = labels[li]["code"]
            if c == "?" or pj is None:
                continue
            if f(preds[pj]["tile"]) == f(c):
                tp += 1
        P = tp / max(1, n_pred)
        R = tp / max(1, n_lab)
        out[mode] = {"tp": tp, "labelled": n_lab, "predicted": n_pred, "precision": P, "recall": R,
                     "f1": 2 * P * R / max(1e-9, P + R)}
    row = entry.get("row") or []
    if row:
        # the row tiles are the contiguous run of labels whose codes equal the row
        codes = [l["code"] for l in labels]
        st = [i for i in range(len(codes) - len(row) + 1) if codes[i:i + len(row)] == row][0]
        got = []
        for li, pj in pairs[st:st + len(row)]:
            got.append(preds[pj]["tile"] if pj is not None else "-")
        out["row"] = {"labelled": " ".join(row), "read": " ".join(got), "complete": got == row}
    out["mistakes"] = [f'{labels[li]["code"]}->{preds[pj]["tile"] if pj is not None else "miss"}'
                       for li, pj in pairs if labels[li]["code"] != "?" and (pj is None or preds[pj]["tile"] != labels[li]["code"])]
    out["extra"] = [preds[j]["tile"] for j in extra]
    return out


def dump_photo(rgb, preds, entry, out_png):
    """Contact sheet for error analysis: every detection's crop with its label, plus the photo with boxes
    (written under .cache-train/, never into the repo)."""
    boxes = [dict(cx=(p["box"][0] + p["box"][2]) / 2, cy=(p["box"][1] + p["box"][3]) / 2, w=0, h=0) for p in preds]
    for b, p in zip(boxes, preds):
        q = np.array(p["quad"])
        b["w"] = float(np.linalg.norm(q[1] - q[0]))
        b["h"] = float(np.linalg.norm(q[0] - q[3]))
        b["phi"] = math.radians(p["angle_deg"])
        b["cx"], b["cy"] = float(q[:, 0].mean()), float(q[:, 1].mean())
    crops = Recognizer.crops(rgb, boxes)
    pairs, extra = match_boxes(preds, entry["tiles"])
    truth = {pj: entry["tiles"][li]["code"] for li, pj in pairs if pj is not None}
    tiles = []
    for j, c in enumerate(crops):
        big = cv2.resize(c, (96, 128), interpolation=cv2.INTER_NEAREST)
        t = truth.get(j, "none")
        col = (0, 160, 0) if t == preds[j]["tile"] else (220, 0, 0)
        big = cv2.copyMakeBorder(big, 0, 30, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(big, f"{preds[j]['tile']}/{t}", (2, 142), cv2.FONT_HERSHEY_SIMPLEX, 0.45, col, 1)
        cv2.putText(big, f"{preds[j]['confidence']:.2f}", (2, 155), cv2.FONT_HERSHEY_SIMPLEX, 0.35, col, 1)
        tiles.append(big)
    if tiles:
        rows = [np.hstack(tiles[i:i + 12] + [np.zeros_like(tiles[0])] * (12 - len(tiles[i:i + 12])))
                for i in range(0, len(tiles), 12)]
        cv2.imwrite(out_png, cv2.cvtColor(np.vstack(rows), cv2.COLOR_RGB2BGR))
    v = rgb.copy()
    for p in preds:
        q = np.array(p["quad"], np.int32)
        cv2.polylines(v, [q], True, (0, 255, 0), 3)
        cv2.putText(v, p["tile"], tuple(q[0]), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 0, 255), 3)
    for l in entry["tiles"]:
        x1, y1, x2, y2 = map(int, l["box"])
        cv2.rectangle(v, (x1, y1), (x2, y2), (0, 0, 255), 2)
    cv2.imwrite(out_png.replace(".png", "_boxes.png"), cv2.cvtColor(cv2.resize(v, None, fx=0.4, fy=0.4), cv2.COLOR_RGB2BGR))


# Honour tiles in the Rust runtime's notation -> the codes of labels.json.
HONOURS = dict(zip(["1z", "2z", "3z", "4z", "5z", "6z", "7z"], ["E", "S", "W", "N", "P", "F", "C"]))


def runtime_reading(binary, photo):
    """The Rust runtime's own tiles for one photo: `riichi-lens recognize PHOTO --json`, after its layout step (which
    lays tiles upright or sideways by their place in the hand), as predictions in this script's format."""
    t0 = time.perf_counter()
    out = subprocess.run([binary, "recognize", photo, "--json"], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - t0
    tiles = json.loads(out.stdout)["tiles"]
    preds = [{"tile": HONOURS.get(t["tile"], t["tile"]), "box": t["box"], "confidence": t["confidence"],
              "det_score": t["detector_score"]} for t in tiles]
    return preds, seconds


def peer_readings(peer_python, paths):
    """The peer's readings of `paths` (`peer_infer.py` in the peer's own venv): (its JSON, None) or (None, error)."""
    out = subprocess.run([peer_python, os.path.join(os.path.dirname(__file__), "peer_infer.py")] + paths,
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr[-2000:]
    return json.loads(out.stdout), None


def peer_readings_of_images(peer_python, images):
    """The peer's tiles in each of `images` (RGB arrays), each written as a PNG into a temporary folder and all read
    in one process: (a list of tile lists, None) or (None, error)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, f"{i}.png") for i in range(len(images))]
        for path, im in zip(paths, images):
            cv2.imwrite(path, cv2.cvtColor(im, cv2.COLOR_RGB2BGR))
        pj, error = peer_readings(peer_python, paths)
    return (None, error) if error else ([pj[p]["tiles"] for p in paths], None)


def eval_fixtures(dirs, runtime, peer_python):
    """The face-up tiles of rendered winning hands (the photo fixtures' JSON ground truth, `datasets/README.md`) read by
    the Rust runtime (`recognize --json`, after its layout) and by the peer, on the peer's terms (no backs; a red
    five counts as its plain five): per face right, found, and photos whose every face is read right."""
    fixtures = []
    for d in dirs:
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".json"):
                truth = json.load(open(os.path.join(d, fn)))
                labels = [{"code": HONOURS.get(t["tile"], t["tile"]), "box": t["box"]}
                          for t in truth["tiles"] if not t["back"]]
                fixtures.append((os.path.join(d, truth["image"]), labels))
    readers = {"runtime": [runtime_reading(runtime, path)[0] for path, _ in fixtures]} if runtime else {}
    if peer_python:
        pj, error = peer_readings(peer_python, [path for path, _ in fixtures])
        if error:
            return {"peer_error": error}
        readers["peer"] = [pj[path]["tiles"] for path, _ in fixtures]
    out = {}
    for who, readings in readers.items():
        faces = right = found = perfect = 0
        for (_, labels), preds in zip(fixtures, readings):
            pairs, _ = match_boxes(preds, labels)
            every = True
            for li, pj in pairs:
                faces += 1
                found += pj is not None
                ok = pj is not None and NORED.get(preds[pj]["tile"], preds[pj]["tile"]) == NORED.get(
                    labels[li]["code"], labels[li]["code"])
                right += ok
                every &= ok
            perfect += every
        out[who] = {"photos": len(fixtures), "faces": faces, "per_face_accuracy": right / max(1, faces),
                    "found": found / max(1, faces), "photos_with_every_face_right": perfect / max(1, len(fixtures))}
    return out


def eval_photos(rec, path, peer_python, dump_dir=None, runtime=None):
    labels = json.load(open(os.path.join(path, "labels.json")))
    names = [k for k in labels if not k.startswith("_")]
    res = {"ours": {}, "peer": {}, "runtime": {}}
    for n in names:
        rgb = cv2.cvtColor(cv2.imread(os.path.join(path, n)), cv2.COLOR_BGR2RGB)
        rec(rgb)  # warm
        t0 = time.perf_counter()
        preds = rec(rgb)
        dt = time.perf_counter() - t0
        if dump_dir:
            os.makedirs(dump_dir, exist_ok=True)
            dump_photo(rgb, preds, labels[n], os.path.join(dump_dir, n.replace(".jpg", ".png")))
        r = score_photo(preds, labels[n])
        r["seconds"] = dt
        r["timing"] = dict(rec.timing)
        res["ours"][n] = r
    if runtime:
        for n in names:
            preds, seconds = runtime_reading(runtime, os.path.join(path, n))
            r = score_photo(preds, labels[n])
            r["seconds"] = seconds  # the whole process: loading the models and the photo included
            res["runtime"][n] = r
    if peer_python:
        pj, error = peer_readings(peer_python, [os.path.join(path, n) for n in names])
        if error:
            res["peer_error"] = error
        else:
            res["peer_latency_1280x720_ms"] = pj.pop("_latency_1280x720_ms")
            for n in names:
                d = pj[os.path.join(path, n)]
                r = score_photo(d["tiles"], labels[n])
                r["seconds"] = d["seconds"]
                res["peer"][n] = r
    for who in ("ours", "runtime", "peer"):
        if not res[who]:
            continue
        for mode in ("with_red", "no_red"):
            tp = sum(r[mode]["tp"] for r in res[who].values())
            nl = sum(r[mode]["labelled"] for r in res[who].values())
            npred = sum(r[mode]["predicted"] for r in res[who].values())
            P, R = tp / max(1, npred), tp / max(1, nl)
            res[f"{who}_total_{mode}"] = {"precision": P, "recall": R, "f1": 2 * P * R / max(1e-9, P + R)}
    return res


def eval_camerash_photos(rec, dataset_dir, peer_python=None, runtime=None):
    """The camerash dataset's raw photos (shop and catalogue photos of many sets, none of them the riichi set of the
    other real photos), labelled by locating its labelled crops in them (`real_data.camerash_photo_labels`): of the
    labelled riichi tiles, how many each reader finds and reads right (red fives read as plain fives). Not every tile
    of a photo is labelled, so false readings are not counted. The classifier trained on the crops of the `train`
    split (whose sets are the photos' sets), never on `test` ones: both are reported."""
    labels, left_out = real_data.camerash_photo_labels(dataset_dir)
    names = sorted(labels)
    paths = [os.path.join(dataset_dir, "raw-images", n) for n in names]
    readers = {"ours": {}}
    for n, path in zip(names, paths):
        readers["ours"][n] = rec(cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB))
    if runtime:
        readers["runtime"] = {n: runtime_reading(runtime, path)[0] for n, path in zip(names, paths)}
    res = {"crops_left_out": left_out}
    if peer_python:
        pj, error = peer_readings(peer_python, paths)
        if error:
            res["peer_error"] = error
        else:
            readers["peer"] = {n: pj[path]["tiles"] for n, path in zip(names, paths)}

    def total(outcomes):
        return {"tiles": len(outcomes), "found": sum(f for _, f, _ in outcomes), "right": sum(r for _, _, r in outcomes)}

    for who, reading in readers.items():
        # each labelled riichi tile's (split, found, read right), photo by photo
        outcomes = {}
        for n in names:
            tiles = labels[n]["tiles"]
            pairs, _ = match_boxes(reading[n], tiles)
            outcomes[n] = [(tiles[li]["split"], pj is not None, pj is not None and
                            NORED.get(reading[n][pj]["tile"], reading[n][pj]["tile"]) == tiles[li]["code"])
                           for li, pj in pairs if tiles[li]["code"] != "?"]
        every = [o for n in names for o in outcomes[n]]
        res[who] = {"photos": {n: dict(total(outcomes[n]), readings=len(reading[n])) for n in names},
                    "all": total(every), **{split: total([o for o in every if o[0] == split])
                                            for split in ("train", "test")}}
    return res


def eval_roboflow_test(rec, peer_python=None):
    """The roboflow test split's tiles read by `rec`, and by the peer (in its own venv) when `peer_python` is given:
    each photo restored to 640x360 (`roboflow_image`) and written as a PNG for the peer, so both read the same
    pixels."""
    photos = real_data.roboflow_boxes("test")
    out = score_roboflow([rec(im) for im, _ in photos], [bb for _, bb in photos])
    if peer_python:
        peer, error = peer_readings_of_images(peer_python, [im for im, _ in photos])
        if error:
            out["peer_error"] = error
        else:
            out["peer"] = score_roboflow(peer, [bb for _, bb in photos])
    return out


def score_roboflow(readings, boxes):
    """Tile precision and recall of `readings` (one list of predictions per photo) against the roboflow labels."""
    tp = n_lab = n_pred = 0
    det_tp = 0
    for preds, bb in zip(readings, boxes):
        labels = [{"code": c if c else "?", "box": [x1, y1, x2, y2]} for c, x1, y1, x2, y2 in bb]
        pairs, extra = match_boxes(preds, labels)
        for li, pj in pairs:
            c = labels[li]["code"]
            if c == "?":
                continue
            n_lab += 1
            if pj is not None:
                det_tp += 1
                # roboflow labels red fives as plain fives
                if NORED.get(preds[pj]["tile"], preds[pj]["tile"]) == c:
                    tp += 1
        n_pred += len(extra) + sum(1 for li, pj in pairs if pj is not None and labels[li]["code"] != "?")
    P, R = tp / max(1, n_pred), tp / max(1, n_lab)
    return {"tiles": n_lab, "detected": det_tp, "predictions": n_pred, "precision": P, "recall": R,
            "f1": 2 * P * R / max(1e-9, P + R), "detection_recall": det_tp / max(1, n_lab)}


def latency(rec, frame, n=30):
    rec(frame)
    ts, td, tc, tk = [], [], [], []
    for _ in range(n):
        t0 = time.perf_counter()
        res = rec(frame)
        ts.append((time.perf_counter() - t0) * 1e3)
        td.append(rec.timing["detect_ms"])
        tc.append(rec.timing["crop_ms"])
        tk.append(rec.timing["classify_ms"])
    return {"total_ms_median": float(np.median(ts)), "detect_ms": float(np.median(td)),
            "crop_ms": float(np.median(tc)), "classify_ms": float(np.median(tk)), "tiles_in_frame": len(res)}


class OneWay:
    """A Recognizer that reads each tile once (two_way=False)."""

    def __init__(self, rec):
        self.rec = rec

    def __call__(self, rgb):
        return self.rec(rgb, two_way=False)

    def __getattr__(self, name):
        return getattr(self.rec, name)


class Runtime:
    """A Recognizer whose readings are the Rust runtime's (`runtime_reading`, each scene written as a PNG to
    `folder`); its detector boxes and classifier, which the synthetic section also uses, are the reference's."""

    def __init__(self, rec, binary, folder):
        self.rec, self.binary, self.folder = rec, binary, folder

    def __call__(self, rgb):
        path = os.path.join(self.folder, "scene.png")
        cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        return runtime_reading(self.binary, path)[0]

    def __getattr__(self, name):
        return getattr(self.rec, name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eval-photos", default=None)
    ap.add_argument("--peer-python", default=None)
    ap.add_argument("--runtime", default=None,
                    help="also score the Rust runtime's `recognize --json` on the eval photos (path of the "
                         "riichi-lens binary, e.g. target/release/riichi-lens): its tiles after the layout step")
    ap.add_argument("--camerash-photos", default=None,
                    help="the camerash dataset's folder (../shared/assets/camerash-mahjong-dataset): read its raw "
                         "photos, labelled by where its crops lie in them (eval_camerash_photos)")
    ap.add_argument("--models", default=os.path.join(REPO, "models"))
    ap.add_argument("--json", default=None)
    ap.add_argument("--skip", default="", help="comma list of sections to skip: synthetic,camerash,roboflow,photos,latency")
    ap.add_argument("--synthetic-scenes", type=int, default=None)
    ap.add_argument("--synthetic-set", default="test",
                    help="generated scene set for the synthetic section (.cache-train/det/NAME_*.npz), e.g. testneg")
    ap.add_argument("--cast", default=None,
                    help="R,G,B gains applied to each synthetic scene first (other light: 0.45,0.45,0.45 dim, 1.2,0.95,0.75 warm)")
    ap.add_argument("--dim-below", type=float, default=reference_infer.DIM_BELOW,
                    help="brighten photos whose faces are darker than this to --light-floor (0: never)")
    ap.add_argument("--light-floor", type=float, default=reference_infer.LIGHT_FLOOR,
                    help="the brightest channel a face brightened by --dim-below is lifted to")
    ap.add_argument("--tint-floor", type=float, default=reference_infer.TINT_FLOOR,
                    help="lift photos whose faces' dimmest channel is under this share of the brightest (0: never)")
    ap.add_argument("--one-way", action="store_true",
                    help="classify each tile once, along the detector's angle (the runtime before 2026-11-23)")
    ap.add_argument("--no-own-angle", action="store_true",
                    help="do not also read boxes off both hand axes along their own angle (the runtime before "
                         "2026-11-23 evening)")
    ap.add_argument("--read-turn", type=float, default=reference_infer.READ_TURN_DEG,
                    help="read the crops of unsure boxes again turned this many degrees either way and keep the "
                         "surest reading; 0: one reading per crop (the runtime before 2026-11-24, night)")
    ap.add_argument("--read-turn-below", type=float, default=reference_infer.READ_TURN_BELOW,
                    help="a box is read turned when neither of its two readings reaches this tile probability")
    ap.add_argument("--zoom-margin", type=float, default=reference_infer.ZOOM_MARGIN,
                    help="a far shot's second detector pass runs on the window of its input around the first pass's "
                         "boxes grown by this many tile lengths; 0: on the whole input (the runtime before "
                         "2026-11-24, night)")
    ap.add_argument("--not-tile", type=float, default=reference_infer.NOT_TILE_T,
                    help="drop boxes whose mean 'not a tile' probability reaches this (39-output classifiers)")
    ap.add_argument("--not-tile-rule", default=reference_infer.NOT_TILE_RULE, choices=["mean", "max"],
                    help="how a box's readings' 'not a tile' probabilities combine before --not-tile")
    ap.add_argument("--through-runtime", default=None, metavar="DIR",
                    help="read the synthetic scenes and the roboflow test photos with the --runtime binary (after its "
                         "layout) instead of the reference pipeline, each written as a PNG into DIR")
    ap.add_argument("--no-join-parts", action="store_true",
                    help="do not join the boxes over parts of one tile (the halves of a sideways tile, a box over part "
                         "of an upright one) before reading (the reference pipeline before 2026-11-26)")
    ap.add_argument("--faint-sure", type=float, default=reference_infer.FAINT_SURE,
                    help="keep a faint box where no tile was read when it reads as a face this sure; over 1: never "
                         "(the reference pipeline before 2026-11-26)")
    ap.add_argument("--no-shift-beside", action="store_true",
                    help="do not move a box lying beside its tile onto it (the reference pipeline before 2026-11-26, "
                         "fourth session)")
    ap.add_argument("--fixtures", nargs="+", default=None, metavar="DIR",
                    help="photo fixture folders (datasets/fixtures, held-out seeds): their face-up tiles read by the "
                         "--runtime binary and the peer, on the peer's terms")
    ap.add_argument("--dump-dir", default=None, help="write crop contact sheets of the eval photos here (not the repo)")
    args = ap.parse_args()
    reference_infer.FAINT_SURE = args.faint_sure
    reference_infer.JOIN_PARTS = not args.no_join_parts
    reference_infer.SHIFT_BESIDE = not args.no_shift_beside
    reference_infer.NOT_TILE_T = args.not_tile
    reference_infer.NOT_TILE_RULE = args.not_tile_rule
    reference_infer.OWN_ANGLE = not args.no_own_angle
    reference_infer.READ_TURN_DEG = args.read_turn
    reference_infer.READ_TURN_BELOW = args.read_turn_below
    reference_infer.ZOOM_MARGIN = args.zoom_margin
    reference_infer.LIGHT_FLOOR = args.light_floor
    reference_infer.DIM_BELOW = args.dim_below
    reference_infer.TINT_FLOOR = args.tint_floor
    rec = Recognizer(args.models)
    if args.one_way:
        rec = OneWay(rec)
    skip = set(args.skip.split(","))
    out = {}
    reader = rec
    if args.through_runtime:
        if not args.runtime:
            raise SystemExit("--through-runtime needs --runtime")
        os.makedirs(args.through_runtime, exist_ok=True)
        reader = Runtime(rec, args.runtime, args.through_runtime)
    if "synthetic" not in skip:
        scenes = synthetic_scenes(args.synthetic_set, args.synthetic_scenes,
                                  [float(v) for v in args.cast.split(",")] if args.cast else None)
        readings, out["synthetic"] = eval_synthetic(reader, scenes)
        print("synthetic", json.dumps(out["synthetic"]), flush=True)
        if args.peer_python:
            out["synthetic_faces"] = faces_compared(scenes, readings, args.peer_python)
            print("synthetic faces, ours and the peer's", json.dumps(out["synthetic_faces"]), flush=True)
    if "camerash" not in skip:
        out["camerash"] = eval_camerash(rec)
        print("camerash", json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "errors"} for k, v in out["camerash"].items()}), flush=True)
        print("  camerash test errors (true, pred):", out["camerash"]["test"]["errors"], flush=True)
    if "roboflow" not in skip:
        out["roboflow_test"] = eval_roboflow_test(reader, args.peer_python)
        rf = {k: v for k, v in out["roboflow_test"].items() if k not in ("peer", "peer_error")}
        print("roboflow test", "runtime" if args.through_runtime else "reference", json.dumps(rf), flush=True)
        if "peer" in out["roboflow_test"]:
            print("roboflow test peer", json.dumps(out["roboflow_test"]["peer"]), flush=True)
        if "peer_error" in out["roboflow_test"]:
            print("roboflow test peer failed:", out["roboflow_test"]["peer_error"], flush=True)
    if "photos" not in skip and args.eval_photos:
        out["photos"] = eval_photos(rec, args.eval_photos, args.peer_python, args.dump_dir, args.runtime)
        ph = out["photos"]
        for who in ("ours", "runtime", "peer"):
            for n, r in ph.get(who, {}).items():
                print(f"{who:5s} {n}: with-red P {r['with_red']['precision']:.3f} R {r['with_red']['recall']:.3f} "
                      f"F1 {r['with_red']['f1']:.3f} | no-red P {r['no_red']['precision']:.3f} R {r['no_red']['recall']:.3f} "
                      f"F1 {r['no_red']['f1']:.3f} | row {r.get('row', {}).get('complete', '-')} | {r['seconds']:.3f}s")
                print(f"       mistakes {r['mistakes']} extra {r['extra']}")
                if "row" in r:
                    print(f"       row labelled: {r['row']['labelled']}\n       row read:     {r['row']['read']}")
            for mode in ("with_red", "no_red"):
                if f"{who}_total_{mode}" in ph:
                    print(f"{who} total {mode}: {json.dumps(ph[f'{who}_total_{mode}'])}")
        if "peer_error" in ph:
            print("peer error:", ph["peer_error"])
        sys.stdout.flush()
    if args.camerash_photos:
        out["camerash_photos"] = cp = eval_camerash_photos(rec, args.camerash_photos, args.peer_python, args.runtime)
        print("camerash photos: crops placed nowhere", cp["crops_left_out"])
        for who in ("ours", "runtime", "peer"):
            if who not in cp:
                continue
            for n, r in cp[who]["photos"].items():
                print(f"{who:7s} {n}: {r['right']} of {r['tiles']} labelled tiles read right, {r['found']} found; "
                      f"{r['readings']} readings")
            for part in ("all", "train", "test"):
                c = cp[who][part]
                print(f"{who} camerash photos {part}: {json.dumps(c)} read right "
                      f"{c['right'] / max(1, c['tiles']):.3f}, found {c['found'] / max(1, c['tiles']):.3f}")
        if "peer_error" in cp:
            print("peer error:", cp["peer_error"])
        sys.stdout.flush()
    if args.fixtures:
        out["fixtures"] = eval_fixtures(args.fixtures, args.runtime, args.peer_python)
        print("fixtures faces, the runtime's and the peer's", json.dumps(out["fixtures"]), flush=True)
    if "latency" not in skip:
        if args.eval_photos:
            n0 = sorted(f for f in os.listdir(args.eval_photos) if f.endswith(".jpg"))[0]
            frame = cv2.cvtColor(cv2.imread(os.path.join(args.eval_photos, n0)), cv2.COLOR_BGR2RGB)
            frame = cv2.resize(frame, (1280, 720))
        else:
            from train_det import load_scenes
            frame = cv2.resize(load_scenes("test")[0][0], (1280, 720))
        out["latency_1280x720"] = latency(rec, frame)
        print("latency 1280x720 (ours, 2 threads):", json.dumps(out["latency_1280x720"]))
        if "photos" in out and "peer_latency_1280x720_ms" in out["photos"]:
            print("latency 1280x720 (peer):", out["photos"]["peer_latency_1280x720_ms"], "ms")
    if args.json:
        json.dump(out, open(args.json, "w"), indent=1, default=float)


if __name__ == "__main__":
    main()
