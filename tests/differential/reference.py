#!/usr/bin/env python3
"""Reference oracle for riichi-lens differential testing.

Generates random *valid* winning Riichi hands deterministically from a seed,
scores each one with the reference Python library ``mahjong==2.1.0`` and writes
one JSON object per line::

    {"input": {...}, "expected": {...}, "meta": {...}}

``input`` is exactly one line of the ``riichi-lens score --jsonl`` input format,
``expected`` is the reference result translated to riichi-lens' output shape
(yaku names, points fields), ``meta`` is informational (generator template).

Usage::

    python reference.py --n 20000 --seed 20261122 [--out FILE] [--stats]

Hands that the reference library rejects (error or no yaku) are skipped and
counted; the counts are printed to stderr.  ``--n`` is the number of lines
*written*, so skipped hands are replaced by further draws.

See README.md next to this file for the rule mapping.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

try:
    from mahjong.constants import EAST, NORTH, SOUTH, WEST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld
except ImportError:  # pragma: no cover - environment problem, reported clearly
    sys.stderr.write(
        "reference.py: cannot import the `mahjong` package.\n"
        "Create the virtualenv first:  scripts/setup.sh   (or: python3 -m venv .venv && "
        ".venv/bin/pip install -r tests/differential/requirements.txt)\n"
    )
    raise

import importlib.metadata as _md

REFERENCE_VERSION = "2.1.0"

# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


def tenhou_rules() -> OptionalRules:
    """riichi-lens `tenhou` preset expressed with mahjong's OptionalRules."""
    return OptionalRules(
        has_open_tanyao=True,  # kuitan on
        has_aka_dora=True,  # one red five per suit
        has_double_yakuman=False,  # kokushi-13 / suuankou tanki / junsei chuuren / daisuushii = single
        kazoe_limit=HandConstants.KAZOE_LIMITED,  # 13+ han = (single) kazoe yakuman
        kiriage=False,  # no kiriage mangan
        fu_for_open_pinfu=True,  # open "pinfu" ron = 30 fu
        fu_for_pinfu_tsumo=False,  # pinfu tsumo = 20 fu
        renhou_as_yakuman=False,  # renhou is never generated (not a Tenhou yaku)
        has_daisharin=False,
        has_daisharin_other_suits=False,
        has_sashikomi_yakuman=False,
        limit_to_sextuple_yakuman=True,
        paarenchan_needs_yaku=True,
        has_daichisei=False,  # all-honour chiitoitsu = tsuuiisou (single yakuman)
        is_three_player=False,
    )


def mahjongsoul_rules() -> OptionalRules:
    """riichi-lens `mahjongsoul` preset: as tenhou, but double yakuman enabled."""
    rules = tenhou_rules()
    rules.has_double_yakuman = True
    return rules


RULES = {"tenhou": tenhou_rules, "mahjongsoul": mahjongsoul_rules}

# ---------------------------------------------------------------------------
# Tiles (34-format kinds: 0-8 man, 9-17 pin, 18-26 sou, 27-33 honours)
# ---------------------------------------------------------------------------

SUITS = "mpsz"
WIND_LETTERS = ["E", "S", "W", "N"]
WIND_KIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
DRAGONS = [31, 32, 33]
WINDS = [27, 28, 29, 30]
HONORS = WINDS + DRAGONS
TERMINALS = [0, 8, 9, 17, 18, 26]
TERMINALS_AND_HONORS = TERMINALS + HONORS
SIMPLES = [k for k in range(27) if k % 9 not in (0, 8)]
FIVES = [4, 13, 22]
GREEN = [19, 20, 21, 23, 25, 32]


def suit_of(kind: int) -> int:
    return kind // 9


def rank_of(kind: int) -> int:
    return kind % 9 + 1


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def dora_of(indicator: int) -> int:
    if indicator < 27:
        base = indicator // 9 * 9
        return base + (indicator - base + 1) % 9
    if indicator <= 30:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


def indicator_for(dora: int) -> int:
    """Inverse of dora_of."""
    if dora < 27:
        base = dora // 9 * 9
        return base + (dora - base - 1) % 9
    if dora <= 30:
        return 27 + (dora - 27 - 1) % 4
    return 31 + (dora - 31 - 1) % 3


class Tile:
    """One physical tile of the hand."""

    __slots__ = ("kind", "red", "id136")

    def __init__(self, kind: int, red: bool = False) -> None:
        self.kind = kind
        self.red = red
        self.id136 = -1

    def digit(self) -> str:
        return "0" if self.red else str(rank_of(self.kind))


def tiles_to_mpsz(tiles: list[Tile], keep_order: bool = False) -> str:
    """MPSZ string; red fives written as 0, sorted as if they were 5."""
    if not keep_order:
        tiles = sorted(tiles, key=lambda t: (t.kind, not t.red))
    out = []
    for s in range(4):
        group = [t.digit() for t in tiles if suit_of(t.kind) == s]
        if group:
            out.append("".join(group) + SUITS[s])
    return "".join(out)


# ---------------------------------------------------------------------------
# Hand shapes
# ---------------------------------------------------------------------------
# A block is (type, kind): "chi" (kind = lowest tile), "pon", "pair".
# After meld assignment a set block becomes one of
#   "chi", "pon" (concealed), "ochi", "opon", "minkan", "ankan", "shouminkan".


class Gen:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    # --- helpers -----------------------------------------------------------
    def chi_start(self, suit=None, starts=range(7)):
        s = self.r.randrange(3) if suit is None else suit
        return s * 9 + self.r.choice(list(starts))

    def any_set(self, chi_p=0.55, suits=(0, 1, 2), honors=True):
        if self.r.random() < chi_p:
            return ("chi", self.chi_start(self.r.choice(suits)))
        pool = [k for k in range(27) if suit_of(k) in suits] + (HONORS if honors else [])
        return ("pon", self.r.choice(pool))

    def any_pair(self, suits=(0, 1, 2), honors=True):
        pool = [k for k in range(27) if suit_of(k) in suits] + (HONORS if honors else [])
        return ("pair", self.r.choice(pool))

    # --- templates: return (blocks, constraints) ---------------------------
    def t_random(self):
        return [self.any_set() for _ in range(4)] + [self.any_pair()], {}

    def t_tanyao(self):
        blocks = []
        for _ in range(4):
            if self.r.random() < 0.7:
                blocks.append(("chi", self.chi_start(starts=range(1, 6))))
            else:
                blocks.append(("pon", self.r.choice(SIMPLES)))
        blocks.append(("pair", self.r.choice(SIMPLES)))
        return blocks, {}

    def t_pinfu(self):
        blocks = [("chi", self.chi_start()) for _ in range(4)]
        pool = list(range(27)) + [27, 28, 29, 30]  # winds may or may not be valued
        blocks.append(("pair", self.r.choice(pool)))
        return blocks, {"closed": True, "no_kan": True, "ryanmen": True}

    def t_honitsu(self):
        suit = self.r.randrange(3)
        blocks = []
        for _ in range(4):
            x = self.r.random()
            if x < 0.45:
                blocks.append(("chi", self.chi_start(suit)))
            elif x < 0.7:
                blocks.append(("pon", suit * 9 + self.r.randrange(9)))
            else:
                blocks.append(("pon", self.r.choice(HONORS)))
        if self.r.random() < 0.5:
            blocks.append(("pair", self.r.choice(HONORS)))
        else:
            blocks.append(("pair", suit * 9 + self.r.randrange(9)))
        return blocks, {}

    def t_chinitsu(self):
        suit = self.r.randrange(3)
        blocks = []
        for _ in range(4):
            if self.r.random() < 0.7:
                blocks.append(("chi", self.chi_start(suit)))
            else:
                blocks.append(("pon", suit * 9 + self.r.randrange(9)))
        blocks.append(("pair", suit * 9 + self.r.randrange(9)))
        return blocks, {}

    def t_ittsu(self):
        suit = self.r.randrange(3)
        blocks = [("chi", suit * 9), ("chi", suit * 9 + 3), ("chi", suit * 9 + 6)]
        if self.r.random() < 0.4:
            blocks.append(self.any_set(suits=(suit,), honors=True))
            blocks.append(self.any_pair(suits=(suit,)))
        else:
            blocks.append(self.any_set())
            blocks.append(self.any_pair())
        return blocks, {}

    def t_sanshoku(self):
        start = self.r.randrange(7)
        blocks = [("chi", start), ("chi", 9 + start), ("chi", 18 + start)]
        blocks.append(self.any_set())
        blocks.append(self.any_pair())
        return blocks, {}

    def t_sanshoku_doukou(self):
        rank = self.r.randrange(9)
        blocks = [("pon", rank), ("pon", 9 + rank), ("pon", 18 + rank)]
        blocks.append(self.any_set(chi_p=0.4))
        blocks.append(self.any_pair())
        return blocks, {}

    def t_chanta(self, junchan=False):
        blocks = []
        th = TERMINALS if junchan else TERMINALS_AND_HONORS
        for i in range(4):
            if i == 0 or self.r.random() < 0.6:
                blocks.append(("chi", self.chi_start(starts=(0, 6))))
            else:
                blocks.append(("pon", self.r.choice(th)))
        blocks.append(("pair", self.r.choice(th)))
        return blocks, {}

    def t_junchan(self):
        return self.t_chanta(junchan=True)

    def t_toitoi(self):
        blocks = [("pon", self.r.randrange(34)) for _ in range(4)]
        blocks.append(("pair", self.r.randrange(34)))
        return blocks, {}

    def t_iipeikou(self):
        start = self.chi_start()
        blocks = [("chi", start), ("chi", start), self.any_set(chi_p=0.7), self.any_set(chi_p=0.7)]
        blocks.append(self.any_pair())
        return blocks, {"closed": True}

    def t_ryanpeikou(self):
        a, b = self.chi_start(), self.chi_start()
        blocks = [("chi", a), ("chi", a), ("chi", b), ("chi", b), self.any_pair()]
        return blocks, {"closed": True, "no_kan": True}

    def t_sanrenkou(self):
        # three consecutive pons in one suit: also reads as three identical chi
        k = self.r.randrange(3) * 9 + self.r.randrange(7)
        blocks = [("pon", k), ("pon", k + 1), ("pon", k + 2), self.any_set(), self.any_pair()]
        return blocks, {}

    def t_dense(self):
        # sets packed into a narrow range of one suit -> many decompositions / wait readings
        suit = self.r.randrange(3)
        lo = self.r.randrange(6)  # ranks lo..lo+3
        blocks = []
        for _ in range(4):
            if self.r.random() < 0.6:
                blocks.append(("chi", suit * 9 + lo + self.r.randrange(2)))
            else:
                blocks.append(("pon", suit * 9 + lo + self.r.randrange(4)))
        if self.r.random() < 0.25:
            blocks[0] = self.any_set()
        blocks.append(("pair", suit * 9 + lo + self.r.randrange(4)))
        return blocks, {}

    def t_yakuhai(self):
        blocks = [("pon", self.r.choice(HONORS))] + [self.any_set() for _ in range(3)]
        blocks.append(self.any_pair())
        return blocks, {}

    def t_shousangen(self):
        d = DRAGONS[:]
        self.r.shuffle(d)
        blocks = [("pon", d[0]), ("pon", d[1]), self.any_set(), self.any_set(), ("pair", d[2])]
        return blocks, {}

    def t_honroutou(self):
        blocks = [("pon", self.r.choice(TERMINALS_AND_HONORS)) for _ in range(4)]
        blocks.append(("pair", self.r.choice(TERMINALS_AND_HONORS)))
        return blocks, {}

    def t_sanankou(self):
        blocks = [("pon", self.r.randrange(34)) for _ in range(3)]
        blocks += [self.any_set(chi_p=0.7), self.any_pair()]
        return blocks, {"concealed_pons": 3}

    def t_sankantsu(self):
        blocks = [("pon", self.r.randrange(34)) for _ in range(3)]
        blocks += [self.any_set(chi_p=0.5), self.any_pair()]
        return blocks, {"kans": 3}

    # yakuman
    def t_daisangen(self):
        blocks = [("pon", 31), ("pon", 32), ("pon", 33), self.any_set(), self.any_pair()]
        return blocks, {}

    def t_suuankou(self):
        blocks = [("pon", self.r.randrange(34)) for _ in range(4)] + [("pair", self.r.randrange(34))]
        return blocks, {"closed": True, "suuankou": True}

    def t_tsuuiisou(self):
        blocks = [("pon", self.r.choice(HONORS)) for _ in range(4)] + [("pair", self.r.choice(HONORS))]
        return blocks, {}

    def t_ryuuiisou(self):
        blocks = []
        for _ in range(4):
            if self.r.random() < 0.4:
                blocks.append(("chi", 19))  # 234s
            else:
                blocks.append(("pon", self.r.choice(GREEN)))
        blocks.append(("pair", self.r.choice(GREEN)))
        return blocks, {}

    def t_chinroutou(self):
        blocks = [("pon", self.r.choice(TERMINALS)) for _ in range(4)] + [("pair", self.r.choice(TERMINALS))]
        return blocks, {}

    def t_shousuushii(self):
        w = WINDS[:]
        self.r.shuffle(w)
        blocks = [("pon", w[0]), ("pon", w[1]), ("pon", w[2]), self.any_set(), ("pair", w[3])]
        return blocks, {}

    def t_daisuushii(self):
        blocks = [("pon", w) for w in WINDS] + [self.any_pair()]
        return blocks, {}

    def t_suukantsu(self):
        blocks = [("pon", self.r.randrange(34)) for _ in range(4)] + [("pair", self.r.randrange(34))]
        return blocks, {"kans": 4}

    # special shapes (return raw tile lists)
    def t_chuuren(self):
        suit = self.r.randrange(3)
        ranks = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, self.r.randrange(1, 10)]
        return [suit * 9 + x - 1 for x in ranks]

    def t_kokushi(self):
        tiles = TERMINALS_AND_HONORS[:]
        tiles.append(self.r.choice(TERMINALS_AND_HONORS))
        return tiles

    def t_chiitoitsu(self):
        theme = self.r.random()
        if theme < 0.45:
            pool = list(range(34))
        elif theme < 0.65:
            pool = SIMPLES
        elif theme < 0.85:
            suit = self.r.randrange(3)
            pool = [suit * 9 + i for i in range(9)] + (HONORS if self.r.random() < 0.6 else [])
        elif theme < 0.95:
            pool = TERMINALS_AND_HONORS
        else:
            pool = HONORS
        kinds = self.r.sample(pool, 7)
        return [k for k in kinds for _ in range(2)]


# (template name, weight). Roughly 2/3 "rich" hands, a decent share of yakuman.
TEMPLATES = [
    ("random", 14),
    ("tanyao", 8),
    ("pinfu", 8),
    ("honitsu", 7),
    ("chinitsu", 5),
    ("ittsu", 4),
    ("sanshoku", 4),
    ("sanshoku_doukou", 1.5),
    ("chanta", 3),
    ("junchan", 3),
    ("toitoi", 3),
    ("iipeikou", 3),
    ("ryanpeikou", 2),
    ("sanrenkou", 1.5),
    ("dense", 5),
    ("yakuhai", 6),
    ("shousangen", 2),
    ("honroutou", 1.5),
    ("sanankou", 3),
    ("sankantsu", 1),
    ("chiitoitsu", 7),
    ("daisangen", 1.2),
    ("suuankou", 1.5),
    ("tsuuiisou", 0.8),
    ("ryuuiisou", 0.8),
    ("chinroutou", 0.6),
    ("chuuren", 0.8),
    ("shousuushii", 0.6),
    ("daisuushii", 0.5),
    ("suukantsu", 0.4),
    ("kokushi", 1.2),
]


class Hand:
    """A generated hand before flags: concealed tiles + melds."""

    def __init__(self) -> None:
        self.concealed: list[Tile] = []
        self.melds: list[tuple[str, list[Tile]]] = []  # (type, tiles)

    def all_tiles(self) -> list[Tile]:
        out = list(self.concealed)
        for _, ts in self.melds:
            out.extend(ts)
        return out

    def counts(self) -> Counter:
        return Counter(t.kind for t in self.all_tiles())

    @property
    def is_open(self) -> bool:
        return any(m in ("ochi", "opon", "minkan", "shouminkan") for m, _ in self.melds)

    def kan_count(self) -> int:
        return sum(1 for m, _ in self.melds if m in ("minkan", "ankan", "shouminkan"))


def block_tiles(btype: str, kind: int) -> list[int]:
    if btype == "chi":
        return [kind, kind + 1, kind + 2]
    if btype == "pon":
        return [kind] * 3
    return [kind] * 2


def build_standard(g: Gen, blocks, cons) -> tuple[Hand, dict] | None:
    r = g.r
    # validity of chi starts across suits (chi_start guarantees same suit)
    c = Counter()
    for bt, k in blocks:
        for x in block_tiles(bt, k):
            c[x] += 1
    kans_forced = cons.get("kans", 0)
    sets = [(bt, k) for bt, k in blocks if bt != "pair"]
    pair = [(bt, k) for bt, k in blocks if bt == "pair"][0]

    # decide openness
    closed = cons.get("closed", False) or cons.get("suuankou", False)
    if not closed:
        closed = r.random() < 0.55
    if cons.get("concealed_pons"):
        closed = closed or r.random() < 0.5

    roles = ["chi" if bt == "chi" else "pon" for bt, _ in sets]
    pon_idx = [i for i, bt in enumerate(roles) if bt == "pon"]

    # kans
    kan_idx: list[int] = []
    if kans_forced:
        if len(pon_idx) < kans_forced:
            return None
        kan_idx = r.sample(pon_idx, kans_forced)
    elif not cons.get("no_kan"):
        for i in pon_idx:
            if r.random() < 0.12:
                kan_idx.append(i)

    # which sets are called (open)
    open_idx: list[int] = []
    if not closed:
        cand = [i for i in range(4)]
        if cons.get("concealed_pons"):
            # keep the first `concealed_pons` pons concealed so sanankou stays likely
            keep = pon_idx[: cons["concealed_pons"]]
            cand = [i for i in cand if i not in keep]
        if not cand:
            closed = True
        else:
            n_open = min(len(cand), r.choice([1, 1, 2, 2, 2, 3, 3, 4]))
            open_idx = r.sample(cand, n_open)

    hand = Hand()
    concealed_kinds: list[int] = []
    for i, (bt, k) in enumerate(sets):
        if i in kan_idx:
            if i in open_idx:
                mtype = "minkan" if r.random() < 0.5 else "shouminkan"
            else:
                mtype = "ankan"
            hand.melds.append((mtype, [Tile(k) for _ in range(4)]))
            c[k] += 1
        elif i in open_idx:
            mtype = "ochi" if bt == "chi" else "opon"
            hand.melds.append((mtype, [Tile(x) for x in block_tiles(bt, k)]))
        else:
            concealed_kinds.extend(block_tiles(bt, k))
    concealed_kinds.extend(block_tiles("pair", pair[1]))
    if any(v > 4 for v in c.values()):
        return None
    hand.concealed = [Tile(k) for k in sorted(concealed_kinds)]
    meta = {"pair": pair[1], "concealed_sets": [sets[i] for i in range(4) if i not in open_idx and i not in kan_idx]}
    return hand, meta


def generate_shape(g: Gen, template: str):
    """Returns (Hand, meta) or None if the draw is invalid (caller retries)."""
    if template in ("chuuren", "kokushi", "chiitoitsu"):
        kinds = getattr(g, "t_" + template)()
        if any(v > 4 for v in Counter(kinds).values()):
            return None
        hand = Hand()
        hand.concealed = [Tile(k) for k in sorted(kinds)]
        return hand, {"special": template}
    blocks, cons = getattr(g, "t_" + template)()
    res = build_standard(g, blocks, cons)
    if res is None:
        return None
    hand, meta = res
    meta["cons"] = cons
    return hand, meta


def choose_win(g: Gen, hand: Hand, meta: dict, template: str) -> int:
    """Index into hand.concealed of the winning tile."""
    r = g.r
    n = len(hand.concealed)
    cons = meta.get("cons", {})
    if cons.get("ryanmen") and r.random() < 0.75:
        # win on an outer tile of a concealed chi that is not an edge wait
        cands = []
        for bt, k in meta.get("concealed_sets", []):
            if bt != "chi":
                continue
            if k % 9 != 6:
                cands.append(k)  # low tile of e.g. 234 (wait 1-4 / 2-5 ...), not 789
            if k % 9 != 0:
                cands.append(k + 2)
        if cands:
            kind = r.choice(cands)
            idxs = [i for i, t in enumerate(hand.concealed) if t.kind == kind]
            return r.choice(idxs)
    if cons.get("suuankou") and r.random() < 0.4:
        kind = meta["pair"]
        idxs = [i for i, t in enumerate(hand.concealed) if t.kind == kind]
        return r.choice(idxs)
    return r.randrange(n)


def assign_red_fives(g: Gen, hand: Hand) -> None:
    tiles = hand.all_tiles()
    for five in FIVES:
        inst = [t for t in tiles if t.kind == five]
        if not inst:
            continue
        # with red fives in play, four fives of a suit always include the red one
        if len(inst) == 4 or g.r.random() < 0.4:
            g.r.choice(inst).red = True


def assign_ids(hand: Hand) -> dict:
    """136-format ids; red five = kind*4 (16/52/88).  Returns remaining free ids per kind."""
    free = {k: [k * 4 + i for i in range(4)] for k in range(34)}
    for k in FIVES:
        free[k].remove(k * 4)  # the red id is only used by a red tile
    for t in hand.all_tiles():
        if t.red:
            t.id136 = t.kind * 4
        else:
            t.id136 = free[t.kind].pop(0)
    return free


# ---------------------------------------------------------------------------
# Conversion of a generated hand into riichi-lens input + mahjong call
# ---------------------------------------------------------------------------

MELD_BRACKETS = {
    "ochi": "[]",
    "opon": "[]",
    "minkan": "[]",
    "ankan": "()",
    "shouminkan": "{}",
}


def meld_string(mtype: str, tiles: list[Tile]) -> str:
    ts = sorted(tiles, key=lambda t: (t.kind, not t.red))
    if mtype in ("opon", "minkan", "ankan", "shouminkan") and any(t.red for t in ts):
        # put the red five second, e.g. [505s], (5055p)
        red = [t for t in ts if t.red]
        plain = [t for t in ts if not t.red]
        ts = plain[:1] + red + plain[1:]
    o, c = MELD_BRACKETS[mtype]
    return o + tiles_to_mpsz(ts, keep_order=True) + c


def lib_meld(mtype: str, tiles: list[Tile]) -> Meld:
    ids = sorted(t.id136 for t in tiles)
    if mtype == "ochi":
        return Meld(meld_type=Meld.CHI, tiles=ids, opened=True)
    if mtype == "opon":
        return Meld(meld_type=Meld.PON, tiles=ids, opened=True)
    if mtype == "minkan":
        return Meld(meld_type=Meld.KAN, tiles=ids, opened=True)
    if mtype == "ankan":
        return Meld(meld_type=Meld.KAN, tiles=ids, opened=False)
    if mtype == "shouminkan":
        return Meld(meld_type=Meld.SHOUMINKAN, tiles=ids, opened=True)
    raise ValueError(mtype)


def pick_indicators(g: Gen, hand: Hand, free: dict, n: int, reserved: set) -> list[int]:
    """Pick n indicator ids from the free ids (respecting 4 copies per kind)."""
    r = g.r
    out = []
    hand_kinds = sorted(set(t.kind for t in hand.all_tiles()))
    for _ in range(n):
        for _attempt in range(50):
            if r.random() < 0.35 and hand_kinds:
                kind = indicator_for(r.choice(hand_kinds))  # make it hit
            else:
                kind = r.randrange(34)
            if kind in reserved or not free[kind]:
                continue
            out.append(free[kind].pop(0))
            break
    return out


def ids_to_mpsz(ids: list[int]) -> str:
    return tiles_to_mpsz([Tile(i // 4) for i in ids], keep_order=True)


YAKU_NAME = {
    "Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan": "rinshan",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haku": "yakuhai_haku",
    "Hatsu": "yakuhai_hatsu",
    "Chun": "yakuhai_chun",
    "SeatWindEast": "yakuhai_seat_wind",
    "SeatWindSouth": "yakuhai_seat_wind",
    "SeatWindWest": "yakuhai_seat_wind",
    "SeatWindNorth": "yakuhai_seat_wind",
    "RoundWindEast": "yakuhai_round_wind",
    "RoundWindSouth": "yakuhai_round_wind",
    "RoundWindWest": "yakuhai_round_wind",
    "RoundWindNorth": "yakuhai_round_wind",
    "Chiitoitsu": "chiitoitsu",
    "Chantai": "chanta",
    "Ittsu": "ittsu",
    "Sanshoku": "sanshoku_doujun",
    "SanshokuDoukou": "sanshoku_doukou",
    "SanKantsu": "sankantsu",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "Shosangen": "shousangen",
    "Honroto": "honroutou",
    "Ryanpeikou": "ryanpeikou",
    "Junchan": "junchan",
    "Honitsu": "honitsu",
    "Chinitsu": "chinitsu",
    "NagashiMangan": "nagashi_mangan",
    "Renhou": "renhou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "RenhouYakuman": "renhou_yakuman",
    "Daisangen": "daisangen",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou",
    "Chinroutou": "chinroutou",
    "ChuurenPoutou": "chuuren",
    "DaburuChuurenPoutou": "chuuren_9",
    "KokushiMusou": "kokushi",
    "DaburuKokushiMusou": "kokushi_13",
    "DaiSuushii": "daisuushii",
    "Shousuushii": "shousuushii",
    "Suukantsu": "suukantsu",
    "Dora": "dora",
    "AkaDora": "aka_dora",
    "UraDora": "ura_dora",
}

MULTI_YAKUMAN = {
    1: "yakuman",
    2: "double_yakuman",
    3: "triple_yakuman",
    4: "quadruple_yakuman",
}  # 5+ -> "5x_yakuman", ... (riichi-lens' spelling)


def limit_name(han: int, fu: int, yakuman: int):
    """riichi-lens `limit` field.  (mahjong's own yaku_level says "yakuman" for kazoe
    hands because it overwrites its "kazoe yakuman" label, so it is derived here.)"""
    if yakuman:
        return MULTI_YAKUMAN.get(yakuman, "%dx_yakuman" % yakuman)
    if han >= 13:
        return "kazoe_yakuman"
    if han >= 11:
        return "sanbaiman"
    if han >= 8:
        return "baiman"
    if han >= 6:
        return "haneman"
    if han == 5 or fu * 2 ** (2 + han) > 2000:
        return "mangan"
    return None


def translate(resp, is_open: bool, is_tsumo: bool, is_dealer: bool) -> dict:
    """mahjong HandResponse -> riichi-lens output shape."""
    yaku = []
    yakuman_han = 0
    for y in resp.yaku:
        han = y.han_open if (is_open and y.han_open) else y.han_closed
        name = YAKU_NAME[type(y).__name__]
        yaku.append({"name": name, "han": han})
        if y.is_yakuman:
            yakuman_han += han
    assert sum(y["han"] for y in yaku) == resp.han, (yaku, resp.han)
    yakuman = yakuman_han // 13
    cost = resp.cost
    if is_tsumo:
        points = {"total": cost["total"]}
        if is_dealer:
            points["tsumo_non_dealer"] = cost["additional"] + cost["additional_bonus"]
        else:
            points["tsumo_dealer"] = cost["main"] + cost["main_bonus"]
            points["tsumo_non_dealer"] = cost["additional"] + cost["additional_bonus"]
    else:
        points = {"total": cost["total"], "ron": cost["main"] + cost["main_bonus"]}
    return {
        "han": resp.han,
        "fu": resp.fu,
        "yaku": sorted(yaku, key=lambda y: (y["name"], y["han"])),
        "yakuman": yakuman,
        "limit": limit_name(resp.han, resp.fu, yakuman),
        "points": points,
    }


# ---------------------------------------------------------------------------
# One full sample
# ---------------------------------------------------------------------------


def weighted_choice(r: random.Random, items):
    total = sum(w for _, w in items)
    x = r.random() * total
    for name, w in items:
        x -= w
        if x < 0:
            return name
    return items[-1][0]


def sample(g: Gen):
    """Returns (template, record_or_None, skip_reason_or_None)."""
    r = g.r
    template = weighted_choice(r, TEMPLATES)
    shape = None
    for _ in range(20):
        shape = generate_shape(g, template)
        if shape is not None:
            break
    if shape is None:
        return template, None, "shape_retry_exhausted"
    hand, meta = shape
    win_idx = choose_win(g, hand, meta, template)
    assign_red_fives(g, hand)
    free = assign_ids(hand)
    win = hand.concealed[win_idx]
    counts = hand.counts()

    is_open = hand.is_open
    has_kan = hand.kan_count() > 0
    cons = meta.get("cons", {})

    # --- situation flags (only legal combinations) ---
    seat = r.choice(WIND_LETTERS)
    rnd = weighted_choice(r, [("E", 50), ("S", 40), ("W", 7), ("N", 3)])
    dealer = seat == "E"
    tsumo = r.random() < (0.6 if cons.get("suuankou") else 0.45)
    riichi = (not is_open) and r.random() < 0.5
    double_riichi = riichi and r.random() < 0.06
    ippatsu = riichi and r.random() < 0.2
    rinshan = has_kan and tsumo and r.random() < 0.3
    if rinshan:
        ippatsu = False  # the own kan breaks ippatsu
    # chankan: ron on a tile whose other three copies are in an opponent's pon
    chankan = (not tsumo) and counts[win.kind] == 1 and r.random() < 0.06
    haitei = tsumo and not rinshan and r.random() < 0.05
    houtei = (not tsumo) and not chankan and r.random() < 0.05
    tenhou = chiihou = False
    if not hand.melds and r.random() < 0.015:
        # blessing of heaven / earth: first draw, nothing else applies
        tsumo = True
        riichi = double_riichi = ippatsu = rinshan = chankan = haitei = houtei = False
        if dealer:
            tenhou = True
        else:
            chiihou = True

    # --- dora / ura indicators ---
    reserved = {win.kind} if chankan else set()
    n_ind = min(5, 1 + hand.kan_count() + (1 if r.random() < 0.08 else 0))
    if r.random() < 0.03:
        n_ind = 0  # e.g. a hand record without indicators
    dora_ids = pick_indicators(g, hand, free, n_ind, reserved)
    ura_ids = pick_indicators(g, hand, free, len(dora_ids), reserved) if riichi else []

    honba = weighted_choice(r, [(0, 60), (1, 20), (2, 10), (3, 5), (4, 2), (5, 1.5), (8, 1)])
    sticks = weighted_choice(r, [(0, 65), (1, 22), (2, 9), (3, 3), (5, 1)])
    if riichi and sticks == 0 and r.random() < 0.3:
        sticks = 1
    rules_name = "mahjongsoul" if r.random() < 0.15 else "tenhou"

    # --- mahjong library call ---
    tiles136 = [t.id136 for t in hand.all_tiles()]
    melds = [lib_meld(m, ts) for m, ts in hand.melds]
    config = HandConfig(
        is_tsumo=tsumo,
        is_riichi=riichi and not double_riichi,
        is_daburu_riichi=double_riichi,
        is_ippatsu=ippatsu,
        is_rinshan=rinshan,
        is_chankan=chankan,
        is_haitei=haitei,
        is_houtei=houtei,
        is_tenhou=tenhou,
        is_chiihou=chiihou,
        player_wind=WIND_KIND[seat],
        round_wind=WIND_KIND[rnd],
        tsumi_number=honba,
        kyoutaku_number=sticks,
        options=RULES[rules_name](),
    )
    resp = HandCalculator.estimate_hand_value(
        tiles136,
        win.id136,
        melds=melds,
        dora_indicators=dora_ids,
        ura_dora_indicators=ura_ids,
        config=config,
    )
    if resp.error:
        return template, None, resp.error

    inp = {
        "hand": tiles_to_mpsz(hand.concealed),
        "melds": [meld_string(m, ts) for m, ts in hand.melds],
        "win": win.digit() + SUITS[suit_of(win.kind)],
        "tsumo": tsumo,
        "riichi": riichi,
    }
    for name, val in (
        ("double_riichi", double_riichi),
        ("ippatsu", ippatsu),
        ("haitei", haitei),
        ("houtei", houtei),
        ("rinshan", rinshan),
        ("chankan", chankan),
        ("tenhou", tenhou),
        ("chiihou", chiihou),
    ):
        if val:
            inp[name] = True
    inp.update(
        {
            "seat_wind": seat,
            "round_wind": rnd,
            "dora_indicators": ids_to_mpsz(dora_ids),
            "ura_indicators": ids_to_mpsz(ura_ids),
            "honba": honba,
            "riichi_sticks": sticks,
            "rules": rules_name,
        }
    )
    expected = translate(resp, is_open, tsumo, dealer)
    return template, {"input": inp, "expected": expected, "meta": {"template": template}}, None


def generate(n: int, seed: int, out, stats: bool = True) -> dict:
    rng = random.Random(seed)
    g = Gen(rng)
    written = 0
    attempts = 0
    skips: Counter = Counter()
    templates: Counter = Counter()
    yaku_counter: Counter = Counter()
    misc: Counter = Counter()
    t0 = time.perf_counter()
    while written < n:
        attempts += 1
        if attempts > 20 * n + 1000:
            raise RuntimeError("too many skipped hands; generator is broken")
        template, rec, reason = sample(g)
        if rec is None:
            skips[reason] += 1
            continue
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        written += 1
        templates[template] += 1
        if stats:
            e, i = rec["expected"], rec["input"]
            for y in e["yaku"]:
                yaku_counter[y["name"]] += 1
            misc["open" if any(m.startswith("[") or m.startswith("{") for m in i["melds"]) else "closed"] += 1
            misc["tsumo" if i["tsumo"] else "ron"] += 1
            misc["rules=" + i["rules"]] += 1
            misc["limit=" + str(e["limit"])] += 1
            if e["yakuman"] > 1:
                misc["multi/double yakuman"] += 1
            if any(m.startswith("(") for m in i["melds"]):
                misc["has closed kan"] += 1
            if any(m.startswith("{") for m in i["melds"]):
                misc["has added kan"] += 1
            if any(m.startswith("[") and len(m.strip("[]")) == 5 for m in i["melds"]):
                misc["has open kan"] += 1
            if "0" in i["hand"] or any("0" in m for m in i["melds"]):
                misc["has red five"] += 1
            if i["honba"]:
                misc["honba>0"] += 1
            if i["riichi_sticks"]:
                misc["riichi_sticks>0"] += 1
            if i["ura_indicators"]:
                misc["ura indicators"] += 1
            misc["yaku count=%d" % min(len(e["yaku"]), 8)] += 1
    elapsed = time.perf_counter() - t0
    return {
        "written": written,
        "attempts": attempts,
        "skips": skips,
        "templates": templates,
        "yaku": yaku_counter,
        "misc": misc,
        "elapsed": elapsed,
    }


def print_stats(s: dict) -> None:
    w = sys.stderr.write
    skipped = sum(s["skips"].values())
    w(
        "reference.py: wrote %d hands from %d draws (%d skipped, %.1f%%) in %.1fs\n"
        % (s["written"], s["attempts"], skipped, 100.0 * skipped / max(1, s["attempts"]), s["elapsed"])
    )
    if skipped:
        w("  skipped: " + ", ".join("%s=%d" % kv for kv in s["skips"].most_common()) + "\n")
    if s["templates"]:
        w("  templates: " + ", ".join("%s=%d" % kv for kv in s["templates"].most_common()) + "\n")
    if s["yaku"]:
        w("  yaku (hands containing): " + ", ".join("%s=%d" % kv for kv in s["yaku"].most_common()) + "\n")
    if s["misc"]:
        w("  misc: " + ", ".join("%s=%d" % kv for kv in sorted(s["misc"].items())) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, required=True, help="number of scored hands to write")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", help="output file (default stdout)")
    ap.add_argument("--quiet", action="store_true", help="only print the one-line summary")
    args = ap.parse_args(argv)

    try:
        version = _md.version("mahjong")
    except _md.PackageNotFoundError:  # pragma: no cover
        version = "?"
    if version != REFERENCE_VERSION:
        sys.stderr.write(
            "reference.py: expected mahjong==%s, found %s; run scripts/setup.sh\n" % (REFERENCE_VERSION, version)
        )
        return 2

    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            s = generate(args.n, args.seed, f, stats=not args.quiet)
    else:
        s = generate(args.n, args.seed, sys.stdout, stats=not args.quiet)
    if args.quiet:
        s["templates"] = s["yaku"] = s["misc"] = Counter()
    print_stats(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
