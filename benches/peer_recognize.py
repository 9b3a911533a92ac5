"""Times the peer detector mahjong-detector==0.0.6 (AGPL; a comparison only, never a dependency of riichi-lens) on
the same images as benches/recognize.rs, in its own venv (.venv-peer, models/training/requirements-peer.txt):

    .venv-peer/bin/python benches/peer_recognize.py --frames datasets/fixtures/*.jpg \
        --photos target/tmp/bench-12mp-photos/*.jpg --workers 1 2

- per-frame 720p: `predict(preprocess_image(img))` on already decoded 1280x720 frames (the fixtures in turn),
  after a warm-up pass; best and median of 5 passes, milliseconds, ONNX Runtime's default threads; the same on the far
  shots of --far-frames (the fixtures shrunk to half size, written as PNG by benches/recognize.rs).
- batch 12mp: photos per second over the 12 MP JPEGs, each opened, decoded (PIL) and run, like a batch job;
  with N worker processes of 1 ONNX Runtime thread each (N = 1 also once with the default threads).
Prints lines in the format scripts/bench-recognize.sh reads.
"""
import argparse
import importlib
import multiprocessing as mp
import time

import numpy as np
import onnxruntime as rt
from PIL import Image
from mahjong_detector.preprocess import preprocess_image

P = importlib.import_module("mahjong_detector.predict")  # the module (the package exports a function of that name)
THREADS = 0  # 0: ONNX Runtime's default


def _session():
    if not hasattr(P.threadlocal, "session"):
        opts = rt.SessionOptions()
        if THREADS:
            opts.intra_op_num_threads = THREADS
            opts.inter_op_num_threads = 1
        P.threadlocal.session = rt.InferenceSession(str(P.model_path), opts, providers=["CPUExecutionProvider"])
    return P.threadlocal.session


P.get_inference_session = _session


def run(img):
    im, pad = preprocess_image(img)
    return P.predict(im, pad)


def read_and_run(path):
    img = Image.open(path)
    img.load()
    return len(run(img))


def _init(threads, warm):
    global THREADS
    THREADS = threads
    read_and_run(warm)


def batch(photos, workers, threads):
    if workers == 1:
        _init(threads, photos[0])
        t0 = time.perf_counter()
        n = sum(1 for p in photos if read_and_run(p) >= 0)
        return n / (time.perf_counter() - t0)
    with mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(threads, photos[0])) as pool:
        pool.map(read_and_run, photos[:workers], chunksize=1)  # every worker warmed up
        t0 = time.perf_counter()
        n = len(pool.map(read_and_run, photos, chunksize=1))
        return n / (time.perf_counter() - t0)


def _batch_entry(photos, workers, threads, queue):
    queue.put(batch(photos, workers, threads))


def time_frames(label, paths, passes):
    """Times run() on already decoded frames, after a warm-up pass, and prints best and median."""
    frames = []
    for path in paths:
        img = Image.open(path).convert("RGB")
        img.load()
        frames.append(img)
    for img in frames:
        run(img)
    times = []
    for _ in range(passes):
        for img in frames:
            t0 = time.perf_counter()
            run(img)
            times.append(time.perf_counter() - t0)
    times = np.sort(np.array(times) * 1e3)
    print(f"{label} (default threads): best {times[0]:.2f} ms, "
          f"median {times[len(times) // 2]:.2f} ms ({len(times)} runs)")


def main():
    global THREADS
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", nargs="+", required=True)
    ap.add_argument("--photos", nargs="+", required=True)
    ap.add_argument("--far-frames", nargs="*", default=[], help="far shots (benches/recognize.rs writes them)")
    ap.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--passes", type=int, default=5)
    args = ap.parse_args()

    THREADS = 0
    time_frames("peer per-frame 720p recognize", args.frames, args.passes)
    if args.far_frames:
        time_frames("peer per-frame 720p far recognize", args.far_frames, args.passes)

    # each batch configuration runs in a fresh process (spawned, so no ONNX Runtime state is inherited)
    ctx = mp.get_context("spawn")
    for workers in args.workers:
        configs = [(workers, 1)] + ([(1, 0)] if workers == 1 else [])
        for w, threads in configs:
            queue = ctx.Queue()
            proc = ctx.Process(target=_batch_entry, args=(args.photos, w, threads, queue))
            proc.start()
            rate = queue.get()
            proc.join()
            label = "default threads" if threads == 0 else f"{threads} thread each"
            print(f"peer batch 12mp ({w} workers, {label}): {rate:.2f} photos/s ({len(args.photos)} photos)")


if __name__ == "__main__":
    main()
