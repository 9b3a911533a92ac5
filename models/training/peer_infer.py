"""Run the peer model mahjong-detector==0.0.6 (AGPL, used only as a comparison; it is NOT a dependency of
riichi-lens) on images, in its own venv:  .venv-peer/bin/python models/training/peer_infer.py IMG... > out.json
Prints JSON {image: {"tiles": [{"tile", "box", "confidence"}], "seconds": t}} plus a 1280x720 latency figure."""
import json
import sys
import time

import numpy as np
from PIL import Image
from mahjong_detector.predict import CLASS_NAMES, predict
from mahjong_detector.preprocess import preprocess_image

NAMES = {"chun": "C", "haku": "P", "hatsu": "F", "nan": "S", "pe": "N", "sha": "W", "tou": "E"}


def run(img):
    im, pad = preprocess_image(img)
    return predict(im, pad)


def main():
    out = {}
    for path in sys.argv[1:]:
        img = Image.open(path)
        img.load()
        run(img)  # warm-up (session creation)
        t0 = time.perf_counter()
        dets = run(img)
        dt = time.perf_counter() - t0
        out[path] = {"seconds": dt, "tiles": [
            {"tile": NAMES.get(CLASS_NAMES[d.class_id], CLASS_NAMES[d.class_id]),
             "box": [int(d.x1), int(d.y1), int(d.x2), int(d.y2)], "confidence": float(d.confidence)} for d in dets]}
    # latency on a 1280x720 frame
    frame = Image.fromarray((np.random.default_rng(0).random((720, 1280, 3)) * 255).astype(np.uint8))
    if len(sys.argv) > 1:
        frame = Image.open(sys.argv[1]).convert("RGB").resize((1280, 720))
    ts = []
    for _ in range(10):
        t0 = time.perf_counter()
        run(frame)
        ts.append(time.perf_counter() - t0)
    out["_latency_1280x720_ms"] = float(np.median(ts) * 1e3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
