"""Rebuild PyTorch training checkpoints from the committed ONNX files.

The exported graphs have their BatchNorm layers folded into the convolutions (weight `P.K.weight` plus a
`P.K.weight_bias`), so the ONNX file alone is enough to continue training when the `.cache-train/` checkpoints are
gone. Each folded conv `y = W x + b` is loaded as the conv `W` followed by a BatchNorm that adds `b` (running mean 0,
running variance 1 - eps, weight 1, bias b): in eval mode the network computes exactly what the ONNX graph computes
(checked against onnxruntime below). The original batch statistics are not in the ONNX file, so training in train
mode would normalize with new batch statistics and start from a different function: fine-tune these checkpoints
with `--freeze-bn` (BatchNorm kept in eval mode, its affine weights still train).

  .venv-train/bin/python models/training/recover_ckpt.py            # writes .cache-train/ckpt_det_onnx.pt, ckpt_cls_onnx.pt
"""
import argparse
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(__file__))
from common import CACHE, REPO  # noqa: E402
from models import TileClassifierDS, TileDetector  # noqa: E402


def onnx_weights(path, prefix):
    m = onnx.load(path)
    return {i.name[len(prefix):]: torch.from_numpy(numpy_helper.to_array(i).copy())
            for i in m.graph.initializer if i.name.startswith(prefix)}


def next_bn(model, conv_name):
    """The BatchNorm that follows conv `P.K` in its Sequential: `P.(K+1)`."""
    parent, _, k = conv_name.rpartition(".")
    return f"{parent}.{int(k) + 1}"


def load_unfolded(model, weights):
    """Load ONNX weights into `model`, turning each folded conv + bias back into conv + BatchNorm."""
    state = model.state_dict()
    folded = {}
    for name, w in weights.items():
        if name.endswith(".weight_bias"):
            continue
        if name + "_bias" in weights:
            conv = name[: -len(".weight")]
            folded[conv] = weights[name + "_bias"]
        state[name] = w
    for name, w in weights.items():
        if not name.endswith(".weight_bias") and name not in state:
            raise KeyError(f"ONNX initializer {name} has no counterpart in the model")
    for conv, b in folded.items():
        bn = next_bn(model, conv)
        state[f"{bn}.weight"] = torch.ones_like(b)
        state[f"{bn}.bias"] = b.clone()
        state[f"{bn}.running_mean"] = torch.zeros_like(b)
        state[f"{bn}.running_var"] = torch.full_like(b, 1 - 1e-5)
    model.load_state_dict(state)
    model.eval()
    return model


def check(model, path, x, extract):
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: x.numpy()})
    with torch.no_grad():
        want = extract(model(x))
    err = max(float(np.abs(g - w).max()) for g, w in zip(got, want))
    print(f"{os.path.basename(path)}: max |onnx - torch| = {err:.2e}")
    if err > 1e-3:
        raise SystemExit("recovered weights do not reproduce the ONNX outputs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(REPO, "models"))
    ap.add_argument("--out", default=CACHE)
    args = ap.parse_args()
    torch.manual_seed(0)
    os.makedirs(args.out, exist_ok=True)
    det_path = os.path.join(args.models, "tile_detector.onnx")
    det = load_unfolded(TileDetector(), onnx_weights(det_path, "det."))
    x = torch.rand(1, 3, 384, 640)

    def det_out(o):
        from models import DetectorExport
        return [t.numpy() for t in DetectorExport(det).eval()(x)]

    check(det, det_path, x, lambda _o: det_out(_o))
    torch.save({"model": det.state_dict(), "step": 0, "from": det_path}, os.path.join(args.out, "ckpt_det_onnx.pt"))

    cls_path = os.path.join(args.models, "tile_classifier.onnx")
    cls_weights = onnx_weights(cls_path, "cls.")
    # 38 outputs up to version 2, 39 ("not a tile") from version 3 on
    cls = load_unfolded(TileClassifierDS(cls_weights["fc.weight"].shape[0]), cls_weights)
    xc = torch.rand(8, 3, 64, 48)
    check(cls, cls_path, xc, lambda o: [torch.softmax(o, 1).numpy()])
    torch.save({"model": cls.state_dict(), "from": cls_path}, os.path.join(args.out, "ckpt_cls_onnx.pt"))
    print("wrote", os.path.join(args.out, "ckpt_det_onnx.pt"), os.path.join(args.out, "ckpt_cls_onnx.pt"))


if __name__ == "__main__":
    main()
