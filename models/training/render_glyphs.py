"""Render the CJK glyphs of riichi tile faces from system fonts into small glyph sheets for gen_data.py --alt-art.

Real tile sets print the characters tiles (a numeral over 萬), the winds and the dragons in many type styles: brush
(kaishu), Ming (mincho), gothic. The FluffyStuff art has one. gen_data.py draws a share of its sets with other
faces made from these sheets (`alt_art.py`), so the classifier sees characters in several hands.

Each sheet is one font: a grayscale PNG strip of GLYPH cells (CELL x CELL, white ink on black, the glyph cropped to
its ink and scaled to fit the cell, centred). Only the rendered bitmaps are committed (assets/tile-glyphs/), not the
fonts, so training needs nothing installed beyond requirements.txt; this script is needed only to remake them:

  apt-get install fonts-noto-cjk fonts-noto-cjk-extra fonts-arphic-ukai fonts-arphic-uming fonts-ipafont-mincho \
      fonts-hanazono fonts-morisawa-bizud-mincho fonts-klee
  .venv-train/bin/python models/training/render_glyphs.py
"""
import argparse
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(__file__))
from common import REPO  # noqa: E402

# The glyphs, in sheet order: numerals one to nine (with the formal 伍 many sets print on the five), 萬, the winds,
# red and green dragon.
GLYPHS = "一二三四五伍六七八九萬東南西北中發"
CELL = 96
OUT_DIR = os.path.join(REPO, "assets", "tile-glyphs")

# key -> (font file, face index in a collection, licence). The key's prefix is the family, for the README.
FONTS = {
    "noto-sans-bold": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 0, "SIL OFL 1.1"),
    "noto-sans-black": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", 0, "SIL OFL 1.1"),
    "noto-sans-medium": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc", 0, "SIL OFL 1.1"),
    "noto-serif-bold": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0, "SIL OFL 1.1"),
    "noto-serif-black": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", 0, "SIL OFL 1.1"),
    "noto-serif-medium": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Medium.ttc", 0, "SIL OFL 1.1"),
    "arphic-ukai": ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0, "Arphic Public License"),
    "arphic-uming": ("/usr/share/fonts/truetype/arphic/uming.ttc", 0, "Arphic Public License"),
    "ipa-mincho": ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0, "IPA Font License 1.0"),
    "hanazono-mincho": ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0, "SIL OFL 1.1 / Hanazono licence"),
    "bizud-mincho": ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", 0, "SIL OFL 1.1"),
    "klee-semibold": ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", 0, "SIL OFL 1.1"),
}


def render(font, ch, size=112):
    """The glyph's ink as a float array in 0..1, cropped to its bounding box."""
    im = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(im).text((size // 2, size // 4), ch, fill=255, font=font)
    a = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.05)
    if len(ys) == 0:
        return None
    return a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def cell(glyph):
    """The glyph scaled (keeping its aspect) so its longer side is CELL - 4, centred in a CELL x CELL cell."""
    h, w = glyph.shape
    s = (CELL - 4) / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    g = np.asarray(Image.fromarray((glyph * 255).astype(np.uint8)).resize((nw, nh), Image.LANCZOS))
    out = np.zeros((CELL, CELL), np.uint8)
    y0, x0 = (CELL - nh) // 2, (CELL - nw) // 2
    out[y0:y0 + nh, x0:x0 + nw] = g
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=OUT_DIR)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for key, (path, index, _licence) in FONTS.items():
        font = ImageFont.truetype(path, 112, index=index)
        # A character the font lacks renders as its .notdef box: compare with a private-use code point's rendering.
        missing = render(font, "\ue000")
        cells = []
        for ch in GLYPHS:
            g = render(font, ch)
            if g is None or (missing is not None and g.shape == missing.shape and np.allclose(g, missing)):
                raise SystemExit(f"{key}: no glyph for {ch}")
            cells.append(cell(g))
        Image.fromarray(np.hstack(cells)).save(os.path.join(args.out, f"{key}.png"), optimize=True)
        print(key, "ok")


if __name__ == "__main__":
    main()
