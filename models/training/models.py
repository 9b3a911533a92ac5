"""Small PyTorch architectures: 38-class tile crop classifier and class-agnostic rotated-box tile detector."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def cbr(cin, cout, k=3, s=1, groups=1, d=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, padding=d * (k // 2), dilation=d, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class ResBlock(nn.Module):
    def __init__(self, cin, cout, s=1):
        super().__init__()
        self.c1 = cbr(cin, cout, 3, s)
        self.c2 = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.sc = None if (cin == cout and s == 1) else nn.Sequential(
            nn.Conv2d(cin, cout, 1, s, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.c2(self.c1(x))
        return F.relu(y + (x if self.sc is None else self.sc(x)))


class TileClassifier(nn.Module):
    """Input [N,3,64,48] RGB in 0..1. Output logits [N,38]."""

    def __init__(self, n_classes=38, w=(24, 48, 96, 160)):
        super().__init__()
        self.stem = cbr(3, w[0], 3, 1)
        self.l1 = ResBlock(w[0], w[1], 2)   # 32x24
        self.l2 = ResBlock(w[1], w[2], 2)   # 16x12
        self.l3 = ResBlock(w[2], w[3], 2)   # 8x6
        self.l4 = cbr(w[3], w[3], 3, 2)     # 4x3
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[3], n_classes)

    def forward(self, x):
        x = (x - 0.5) / 0.25
        x = self.l4(self.l3(self.l2(self.l1(self.stem(x)))))
        x = x.mean((2, 3))
        return self.fc(self.drop(x))


class TileClassifierDS(nn.Module):
    """Cheaper depthwise-separable variant. Input [N,3,64,48] RGB in 0..1. Output logits [N,38]."""

    def __init__(self, n_classes=38, w=(32, 64, 128, 256)):
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, w[0], 3, 2), DSBlock(w[0]),                      # 32x24
            down(w[0], w[1]), DSBlock(w[1]), DSBlock(w[1]),          # 16x12
            down(w[1], w[2]), DSBlock(w[2]), DSBlock(w[2]),          # 8x6
            down(w[2], w[3]), DSBlock(w[3]),                         # 4x3
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[3], n_classes)

    def forward(self, x):
        x = (x - 0.5) / 0.25
        x = self.body(x).mean((2, 3))
        return self.fc(self.drop(x))


# oneDNN's bf16 backward of *dilated* depthwise convs yields non-finite weight gradients on this CPU: training runs
# those convs in fp32 (set by train_det.py; no effect on inference/export).
FP32_DILATED_DW = False


# bf16 autocast pays off only where the CPU has native bf16 (AVX-512 BF16 / AMX). On an AVX2-only CPU it is emulated:
# measured on such a 2-core machine (2026-11-23), a detector step took 6.8 s in bf16 against 0.57 s in fp32 and the
# classifier trained at 42 against 744 crops/s, so there training runs in fp32.
USE_BF16 = torch.backends.cpu.get_cpu_capability().startswith("AVX512")


def bf16_autocast(device=None):
    """bf16 autocast where it pays: a GPU, or a CPU with native bf16."""
    if device is not None and torch.device(device).type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_BF16)


def freeze_bn(model):
    """Puts every BatchNorm of `model` in eval mode (running statistics used and not updated); their affine
    weights still train."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


@torch.no_grad()
def restore_bn_statistics(model, batches):
    """Gives the BatchNorm layers of a model rebuilt by recover_ckpt.py real batch statistics without changing
    what the model computes in eval mode.

    recover_ckpt.py loads each folded conv as the conv plus a BatchNorm with running mean 0 and variance 1 that only
    adds the bias, so training such a model with live BatchNorm would normalize activations it was never trained
    to see normalized. Here each BatchNorm's input mean m and variance v are measured while the model runs
    unchanged (eval mode) on `batches`, and its weight and bias are set so that it normalizes with (m, v) and then
    maps back: exactly the old affine map in eval mode, and close to it on a training batch."""
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    sums = {m: [0.0, 0.0, 0] for m in bns}

    def record(m, inputs):
        x = inputs[0].float()
        acc = sums[m]
        acc[0] = acc[0] + x.sum((0, 2, 3))
        acc[1] = acc[1] + (x * x).sum((0, 2, 3))
        acc[2] += x.numel() // x.shape[1]

    hooks = [m.register_forward_pre_hook(record) for m in bns]
    was_training = model.training
    model.eval()
    try:
        for x in batches:
            model(x)
    finally:
        for h in hooks:
            h.remove()
    for m in bns:
        s1, s2, n = sums[m]
        mean = s1 / n
        var = (s2 / n - mean * mean).clamp(min=0)
        g = m.weight / torch.sqrt(m.running_var + m.eps)  # the old layer is y = g * (x - running_mean) + bias
        m.bias.copy_(m.bias + g * (mean - m.running_mean))
        m.weight.copy_(g * torch.sqrt(var + m.eps))
        m.running_mean.copy_(mean)
        m.running_var.copy_(var)
    model.train(was_training)


class DSBlock(nn.Module):
    """Depthwise-separable residual block."""

    def __init__(self, c, d=1):
        super().__init__()
        self.d = d
        self.dw = nn.Sequential(nn.Conv2d(c, c, 3, 1, d, dilation=d, groups=c, bias=False), nn.BatchNorm2d(c),
                                nn.ReLU(inplace=True))
        self.pw = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        if FP32_DILATED_DW and self.d > 1:
            with torch.autocast("cpu", enabled=False):
                y = self.dw(x.float())
            return F.relu(x + self.pw(y))
        return F.relu(x + self.pw(self.dw(x)))


def down(cin, cout):
    """depthwise 3x3 stride 2 + pointwise."""
    return nn.Sequential(nn.Conv2d(cin, cin, 3, 2, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
                         nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileDetector(nn.Module):
    """Class-agnostic CenterNet-style rotated-box tile detector, output stride 8.

    Input [N,3,H,W] RGB 0..1, H and W multiples of 32.
    Outputs (raw, training form): heat logits [N,1,H/8,W/8], reg [N,6,H/8,W/8] =
      (dx, dy) sub-cell centre offset, (log w, log h) in units of 8 px, (cos 2phi, sin 2phi).
    """

    def __init__(self, c=(16, 32, 64, 96, 128)):
        super().__init__()
        self.s2 = cbr(3, c[0], 3, 2)                                                  # /2
        self.s4 = nn.Sequential(down(c[0], c[1]), DSBlock(c[1]))                      # /4
        self.s8 = nn.Sequential(down(c[1], c[2]), DSBlock(c[2]), DSBlock(c[2]))       # /8
        self.s16 = nn.Sequential(down(c[2], c[3]), DSBlock(c[3]), DSBlock(c[3], 2))   # /16
        self.s32 = nn.Sequential(down(c[3], c[4]), DSBlock(c[4]), DSBlock(c[4], 2))   # /32
        self.lat32 = nn.Conv2d(c[4], c[2], 1)
        self.lat16 = nn.Conv2d(c[3], c[2], 1)
        self.fuse = nn.Sequential(DSBlock(c[2]), DSBlock(c[2], 2))
        self.heat = nn.Conv2d(c[2], 1, 1)
        self.reg = nn.Conv2d(c[2], 6, 1)
        nn.init.constant_(self.heat.bias, -2.19)

    def forward(self, x):
        x = (x - 0.5) / 0.25
        x8 = self.s8(self.s4(self.s2(x)))
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y16 = self.lat16(x16) + F.interpolate(self.lat32(x32), size=x16.shape[2:], mode="nearest")
        y8 = x8 + F.interpolate(y16, size=x8.shape[2:], mode="nearest")
        f = self.fuse(y8)
        return self.heat(f), self.reg(f)


class DetectorExport(nn.Module):
    """Inference wrapper: decoded outputs for ONNX.

    scores [N,1,H/8,W/8]: sigmoid heat, zeroed where not a 3x3 local maximum (peak NMS done in-graph).
    geom   [N,6,H/8,W/8]: cx, cy (input pixels), w, h (input pixels; w across the tile, h along its up axis),
                          cos(2phi), sin(2phi) (unit-normalized).
    """

    def __init__(self, det):
        super().__init__()
        self.det = det

    def forward(self, x):
        heat, reg = self.det(x)
        s = torch.sigmoid(heat)
        peak = F.max_pool2d(s, 3, 1, 1)
        s = s * (peak == s).to(s.dtype)
        n, _, h, w = s.shape
        gy = torch.arange(h, dtype=s.dtype, device=s.device).view(1, 1, h, 1).expand(n, 1, h, w)
        gx = torch.arange(w, dtype=s.dtype, device=s.device).view(1, 1, 1, w).expand(n, 1, h, w)
        cx = (gx + 0.5 + reg[:, 0:1]) * 8.0
        cy = (gy + 0.5 + reg[:, 1:2]) * 8.0
        bw = torch.exp(reg[:, 2:3].clamp(-4, 6)) * 8.0
        bh = torch.exp(reg[:, 3:4].clamp(-4, 6)) * 8.0
        cs = reg[:, 4:6]
        cs = cs / torch.sqrt((cs * cs).sum(1, keepdim=True) + 1e-6)
        return s, torch.cat([cx, cy, bw, bh, cs], 1)


class ClassifierExport(nn.Module):
    """Inference wrapper: outputs softmax probabilities [N,38]."""

    def __init__(self, cls):
        super().__init__()
        self.cls = cls

    def forward(self, x):
        return torch.softmax(self.cls(x), dim=1)
