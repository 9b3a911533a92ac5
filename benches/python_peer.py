#!/usr/bin/env python3
"""Times the Python reference scorer ``mahjong`` on the bench's 2,000 hands.

Reads the riichi-lens JSON-lines requests of ``benches/hands.jsonl``, converts each one
to ``HandCalculator.estimate_hand_value`` arguments once (136-format tile ids, ``Meld``
objects, ``HandConfig`` with the same optional rules as the differential oracle), then
times ``estimate_hand_value`` over all hands, ``--reps`` passes, and prints the best and
median pass in microseconds per hand, wall time and this thread's CPU time
(``time.thread_time``, which leaves out time spent waiting for a CPU on a shared machine).

The conversion reuses ``tests/differential/reference.py`` (its ``Tile``/``Hand`` classes,
``assign_ids``, ``lib_meld``, ``RULES``, ``WIND_KIND``, ``translate``), which has no
request-to-mahjong function of its own: it builds both sides from its generator state.

``--check FILE`` compares the scored results with the ``expected`` objects of a
``reference.py`` output (same hands, same order), to show the conversion is faithful.

Usage::

    .venv/bin/python benches/python_peer.py [--hands benches/hands.jsonl] [--reps 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "differential"))

import reference as ref  # noqa: E402
from mahjong.hand_calculating.divider import HandDivider  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig  # noqa: E402

SUIT_INDEX = {s: i for i, s in enumerate(ref.SUITS)}


def parse_tiles(text: str) -> list[ref.Tile]:
    """MPSZ digits-then-suit notation as reference.py writes it (0 = red five)."""
    out: list[ref.Tile] = []
    pending: list[str] = []
    for ch in text:
        if ch.isdigit():
            pending.append(ch)
        elif ch in SUIT_INDEX:
            suit = SUIT_INDEX[ch]
            for d in pending:
                rank = 5 if d == "0" else int(d)
                out.append(ref.Tile(suit * 9 + rank - 1, red=d == "0"))
            pending = []
        else:
            raise ValueError("unexpected %r in %r" % (ch, text))
    if pending:
        raise ValueError("digits without suit in %r" % text)
    return out


def parse_meld(text: str) -> tuple[str, list[ref.Tile]]:
    tiles = parse_tiles(text[1:-1])
    if text[0] == "(":
        return "ankan", tiles
    if text[0] == "{":
        return "shouminkan", tiles
    if len(tiles) == 4:
        return "minkan", tiles
    if all(t.kind == tiles[0].kind for t in tiles):
        return "opon", tiles
    return "ochi", tiles


def convert(req: dict) -> tuple[dict, bool, bool, bool]:
    """One request -> (estimate_hand_value kwargs, is_open, tsumo, dealer)."""
    hand = ref.Hand()
    hand.concealed = parse_tiles(req["hand"])
    hand.melds = [parse_meld(m) for m in req.get("melds", [])]
    free = ref.assign_ids(hand)
    win_tile = parse_tiles(req["win"])[0]
    win = next(t for t in hand.concealed if t.kind == win_tile.kind and t.red == win_tile.red)

    def indicator_ids(text: str) -> list[int]:
        return [free[t.kind].pop(0) for t in parse_tiles(text)]

    dora_ids = indicator_ids(req.get("dora_indicators", ""))
    ura_ids = indicator_ids(req.get("ura_indicators", ""))
    double_riichi = req.get("double_riichi", False)
    tsumo = req.get("tsumo", False)
    seat = req.get("seat_wind", "E")
    config = HandConfig(
        is_tsumo=tsumo,
        is_riichi=req.get("riichi", False) and not double_riichi,
        is_daburu_riichi=double_riichi,
        is_ippatsu=req.get("ippatsu", False),
        is_rinshan=req.get("rinshan", False),
        is_chankan=req.get("chankan", False),
        is_haitei=req.get("haitei", False),
        is_houtei=req.get("houtei", False),
        is_tenhou=req.get("tenhou", False),
        is_chiihou=req.get("chiihou", False),
        player_wind=ref.WIND_KIND[seat],
        round_wind=ref.WIND_KIND[req.get("round_wind", "E")],
        tsumi_number=req.get("honba", 0),
        kyoutaku_number=req.get("riichi_sticks", 0),
        options=ref.RULES[req.get("rules", "tenhou")](),
    )
    kwargs = {
        "tiles": [t.id136 for t in hand.all_tiles()],
        "win_tile": win.id136,
        "melds": [ref.lib_meld(m, ts) for m, ts in hand.melds],
        "dora_indicators": dora_ids,
        "ura_dora_indicators": ura_ids,
        "config": config,
    }
    return kwargs, hand.is_open, tsumo, seat == "E"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", default=os.path.join(HERE, "hands.jsonl"))
    ap.add_argument("--reps", type=int, default=5, help="timed passes over all hands (best is reported)")
    ap.add_argument("--check", help="reference.py output with the same hands: compare results")
    args = ap.parse_args(argv)

    with open(args.hands, encoding="utf-8") as f:
        requests = [json.loads(line) for line in f if line.strip()]
    calls = [convert(r) for r in requests]
    n = len(calls)
    estimate = HandCalculator.estimate_hand_value

    errors = [i + 1 for i, (kw, *_rest) in enumerate(calls) if estimate(**kw).error]
    if errors:
        sys.stderr.write("python_peer.py: mahjong rejects lines %s\n" % errors[:10])
        return 1
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            expected = [json.loads(line)["expected"] for line in f if line.strip()]
        if len(expected) != n:
            sys.stderr.write("python_peer.py: %s has %d lines, hands %d\n" % (args.check, len(expected), n))
            return 1
        bad = 0
        for i, ((kw, is_open, tsumo, dealer), exp) in enumerate(zip(calls, expected)):
            got = ref.translate(estimate(**kw), is_open, tsumo, dealer)
            if got != exp:
                bad += 1
                if bad <= 5:
                    sys.stderr.write("line %d: got %s\n  expected %s\n" % (i + 1, got, exp))
        print("check: %d/%d hands match %s" % (n - bad, n, args.check))
        if bad:
            return 1

    wall, cpu = [], []
    for _ in range(args.reps):
        # The divider's lru_cache (128 entries) cannot hold 2,000 hands; clear it anyway so
        # every pass starts cold, like the first.
        HandDivider._divide_hand_impl.cache_clear()
        c0, t0 = time.thread_time(), time.perf_counter()
        for kw, *_rest in calls:
            estimate(**kw)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    us = 1e6 / n
    print(
        "per-hand python mahjong %s: best %.3f us, median %.3f us; thread cpu best %.3f us, median %.3f us"
        " (%d hands x %d passes)"
        % (
            ref._md.version("mahjong"),
            min(wall) * us,
            statistics.median(wall) * us,
            min(cpu) * us,
            statistics.median(cpu) * us,
            n,
            args.reps,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
