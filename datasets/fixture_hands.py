#!/usr/bin/env python3
"""Winning hands for the photo fixtures, scored by the reference library mahjong==2.1.0.

Run with the project's reference environment (.venv, created by scripts/setup.sh); prints one JSON list.
datasets/make_fixtures.py calls it, then renders each hand into a photo.

Hands come from the differential oracle's generator (tests/differential/reference.py `sample`), drawn from
`random.Random(seed)` in recipe order: for each scene of the recipe the first drawn hand that has the
property the scene asks for (an open chi, a closed kan, a red five, ...) is taken. Nothing here looks at
the recognizer. The score is the oracle's: mahjong's HandCalculator translated to riichi-lens' output shape.
"""
import argparse
import json
import os
import random
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import reference  # noqa: E402  (needs mahjong==2.1.0)

# (hand property, shot) for each scene, in order. Shots are described in make_fixtures.py.
RECIPE = [
    ("closed", "normal"),
    ("red", "normal"),
    ("chi", "normal"),
    ("pon", "normal"),
    ("closed_kan", "normal"),
    ("open_kan", "normal"),
    ("added_kan", "normal"),
    ("two_melds", "normal"),
    ("closed", "tilted"),
    ("chi", "tilted"),
    ("closed_kan", "tilted"),
    ("red", "tilted"),
    ("closed", "dim"),
    ("pon", "dim"),
    ("two_melds", "dim"),
    ("closed", "far"),
    ("chi", "far"),
    ("any", "far"),
    ("any", "steep"),
    ("pon", "steep"),
]


def melds_of(rec):
    return rec["input"]["melds"]


def has(rec, prop):
    inp = rec["input"]
    melds = melds_of(rec)

    def chi(m):
        body = m.strip("[]")
        return m.startswith("[") and len(body) == 4 and len(set(body[:3])) == 3

    def pon(m):
        body = m.strip("[]")
        return m.startswith("[") and len(body) == 4 and len(set(body[:3].replace("0", "5"))) == 1

    if prop == "any":
        return True
    if prop == "closed":
        return not melds
    if prop == "red":
        return "0" in inp["hand"] or any("0" in m for m in melds)
    if prop == "chi":
        return any(chi(m) for m in melds)
    if prop == "pon":
        return any(pon(m) for m in melds)
    if prop == "closed_kan":
        return any(m.startswith("(") for m in melds)
    if prop == "open_kan":
        return any(m.startswith("[") and len(m.strip("[]")) == 5 for m in melds)
    if prop == "added_kan":
        return any(m.startswith("{") for m in melds)
    if prop == "two_melds":
        return len(melds) >= 2
    raise ValueError(prop)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    g = reference.Gen(random.Random(args.seed))
    out = []
    draws = 0
    for index, (prop, shot) in enumerate(RECIPE):
        while True:
            draws += 1
            if draws > 200000:
                raise RuntimeError("recipe cannot be met")
            template, rec, _reason = reference.sample(g)
            if rec is not None and has(rec, prop):
                break
        out.append({"index": index, "hand_property": prop, "shot": shot, "template": template,
                    "request": rec["input"], "expected": rec["expected"]})
    json.dump({"seed": args.seed, "draws": draws, "reference": "mahjong==" + reference.REFERENCE_VERSION,
               "scenes": out}, sys.stdout)


if __name__ == "__main__":
    main()
