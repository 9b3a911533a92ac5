#!/usr/bin/env python3
"""Compare riichi-lens against the reference lines written by reference.py.

    python compare.py --binary target/release/riichi-lens --ref ref.jsonl [--ref more.jsonl]
                      [--show 20] [--summary-out summary.json]
    python compare.py --aggregate summary1.json summary2.json ...   # totals of several runs
    python compare.py --validate ref.jsonl   # sanity-check generated inputs (no binary needed)

Each reference line is {"input": {...}, "expected": {...}}.  All inputs are piped
through `BINARY score --jsonl` (one output line per input line, same order) and
compared field by field:

  * han, yakuman count
  * fu (only when expected yakuman == 0)
  * the sorted multiset of (yaku name, han)
  * points: total, ron, tsumo_dealer, tsumo_non_dealer (absent == null)

`limit` mismatches are counted and reported separately (informational).

Exit status: 0 when every disagreement falls into ALLOWED below, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import threading
from collections import Counter

# Known, documented rule differences between mahjong==2.1.0 and Tenhou rules.
# key: category prefix (see `categorize`), value: reason.  Keep this empty unless
# the *reference* deviates from Tenhou; explain each entry in README.md.
# Mirror of ALLOWED in tests/differential.rs.
ALLOWED: dict[str, str] = {}

POINT_FIELDS = ("total", "ron", "tsumo_dealer", "tsumo_non_dealer")


def yaku_multiset(result: dict) -> list[tuple[str, int]]:
    return sorted((y["name"], int(y["han"])) for y in (result.get("yaku") or []))


def compare(expected: dict, actual: dict) -> list[str]:
    """List of differing field names (empty = agreement)."""
    if "error" in actual:
        return ["error:" + str(actual.get("kind"))]
    diffs = []
    if actual.get("han") != expected["han"]:
        diffs.append("han")
    if actual.get("yakuman", 0) != expected["yakuman"]:
        diffs.append("yakuman")
    if expected["yakuman"] == 0 and actual.get("fu") != expected["fu"]:
        diffs.append("fu")
    if yaku_multiset(actual) != yaku_multiset(expected):
        diffs.append("yaku")
    ap = actual.get("points") or {}
    ep = expected["points"]
    for f in POINT_FIELDS:
        if ap.get(f) != ep.get(f):
            diffs.append("points." + f)
    return diffs


def yaku_delta(expected: dict, actual: dict) -> str:
    e = Counter(yaku_multiset(expected))
    a = Counter(yaku_multiset(actual))
    missing = sorted(("%s/%d" % k) for k in (e - a).elements())
    extra = sorted(("%s/%d" % k) for k in (a - e).elements())
    return " ".join(["-" + m for m in missing] + ["+" + x for x in extra])


def categorize(expected: dict, actual: dict, diffs: list[str]) -> str:
    """Short stable label for grouping disagreements, e.g. 'yaku -pinfu/1 +tanyao/1'."""
    if diffs and diffs[0].startswith("error:"):
        return diffs[0]
    if "yaku" in diffs:
        return "yaku " + yaku_delta(expected, actual)
    return ",".join(diffs)


def is_allowed(category: str) -> bool:
    return any(category.startswith(k) for k in ALLOWED)


def run_binary(binary: str, input_lines: list[str]) -> list[str]:
    proc = subprocess.Popen(
        [binary, "score", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def feed() -> None:
        try:
            for line in input_lines:
                proc.stdin.write(line + "\n")
        except BrokenPipeError:
            pass
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = proc.stdout.read().splitlines()
    t.join()
    rc = proc.wait()
    if rc != 0:
        sys.stderr.write("compare.py: %s exited with status %d\n" % (binary, rc))
    return out


def compare_files(binary: str, ref_paths: list[str], show: int) -> dict:
    records = []
    for p in ref_paths:
        with open(p, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    records.append(json.loads(line))
    inputs = [json.dumps(r["input"], separators=(",", ":")) for r in records]
    outputs = run_binary(binary, inputs)
    if len(outputs) != len(inputs):
        sys.stderr.write(
            "compare.py: binary produced %d output lines for %d inputs\n" % (len(outputs), len(inputs))
        )
    compared = 0
    disagreements = 0
    allowed = 0
    limit_mismatch = 0
    limit_examples: list = []
    categories: Counter = Counter()
    by_template: Counter = Counter()
    examples = []
    for i, rec in enumerate(records):
        if i >= len(outputs):
            break
        try:
            actual = json.loads(outputs[i])
        except json.JSONDecodeError:
            actual = {"error": "unparseable output: " + outputs[i][:200], "kind": "bad_json"}
        compared += 1
        exp = rec["expected"]
        diffs = compare(exp, actual)
        if not diffs:
            if "limit" in actual and actual.get("limit") != exp.get("limit"):
                limit_mismatch += 1
                if len(limit_examples) < 5:
                    limit_examples.append(
                        {"input": inputs[i], "expected_limit": exp.get("limit"), "actual_limit": actual.get("limit"),
                         "han": exp["han"], "fu": exp["fu"], "yakuman": exp["yakuman"]}
                    )
            continue
        cat = categorize(exp, actual, diffs)
        if is_allowed(cat):
            allowed += 1
            continue
        disagreements += 1
        categories[cat] += 1
        by_template[(rec.get("meta") or {}).get("template", "?")] += 1
        if len(examples) < show:
            examples.append(
                {
                    "category": cat,
                    "input": inputs[i],
                    "expected": json.dumps(exp, separators=(",", ":")),
                    "actual": outputs[i],
                }
            )
    missing = len(records) - compared
    return {
        "compared": compared,
        "missing_outputs": missing,
        "disagreements": disagreements + missing,
        "allowed": allowed,
        "limit_mismatch": limit_mismatch,
        "limit_examples": limit_examples,
        "categories": dict(categories),
        "by_template": dict(by_template),
        "examples": examples,
    }


def merge(summaries: list[dict], show: int) -> dict:
    total = {
        "compared": 0,
        "missing_outputs": 0,
        "disagreements": 0,
        "allowed": 0,
        "limit_mismatch": 0,
        "limit_examples": [],
        "categories": Counter(),
        "by_template": Counter(),
        "examples": [],
    }
    for s in summaries:
        for k in ("compared", "missing_outputs", "disagreements", "allowed", "limit_mismatch"):
            total[k] += s[k]
        total["categories"].update(s["categories"])
        total["by_template"].update(s["by_template"])
        total["limit_examples"].extend(s.get("limit_examples", [])[: max(0, 5 - len(total["limit_examples"]))])
        for ex in s["examples"]:
            if len(total["examples"]) < show:
                total["examples"].append(ex)
    return total


def report(s: dict, out=sys.stdout) -> None:
    w = out.write
    for ex in s["examples"]:
        w("--- disagreement [%s]\n" % ex["category"])
        w("  input:    %s\n" % ex["input"])
        w("  expected: %s\n" % ex["expected"])
        w("  actual:   %s\n" % ex["actual"])
    if s["categories"]:
        w("disagreement categories (count):\n")
        for cat, n in Counter(s["categories"]).most_common(40):
            w("  %6d  %s\n" % (n, cat))
        w("by generator template: %s\n" % ", ".join("%s=%d" % kv for kv in Counter(s["by_template"]).most_common()))
    if s["allowed"]:
        w("%d disagreements in allow-listed categories (see ALLOWED)\n" % s["allowed"])
    if s["limit_mismatch"]:
        w("note: %d otherwise-equal results differ only in `limit` (not counted), e.g.\n" % s["limit_mismatch"])
        for ex in s.get("limit_examples", []):
            w("  %s\n" % json.dumps(ex))
    if s["missing_outputs"]:
        w("%d inputs got no output line\n" % s["missing_outputs"])
    w("%d compared, %d disagreements\n" % (s["compared"], s["disagreements"]))


# ---------------------------------------------------------------------------
# Independent sanity check of generated inputs (does not use the generator code)
# ---------------------------------------------------------------------------

_TILE_RE = re.compile(r"(\d+)([mpsz])")


def parse_tiles(s: str) -> list[tuple[int, bool]]:
    """'123m0p' -> [(kind34, red)...]"""
    out = []
    pos = 0
    for m in _TILE_RE.finditer(s.replace("*", "")):
        if m.start() != pos:
            raise ValueError("bad tile string %r" % s)
        pos = m.end()
        suit = "mpsz".index(m.group(2))
        for d in m.group(1):
            v = int(d)
            red = v == 0
            if red:
                if suit == 3:
                    raise ValueError("red honour in %r" % s)
                v = 5
            if suit == 3 and not 1 <= v <= 7:
                raise ValueError("bad honour in %r" % s)
            out.append((suit * 9 + v - 1, red))
    if pos != len(s.replace("*", "")):
        raise ValueError("bad tile string %r" % s)
    return out


def validate_input(inp: dict) -> list[str]:
    problems = []
    hand = parse_tiles(inp["hand"])
    tiles = list(hand)
    n_sets = 0
    is_open = False
    kans = 0
    for m in inp["melds"]:
        o, c = m[0], m[-1]
        ts = parse_tiles(m[1:-1])
        tiles.extend(ts)
        n_sets += 1
        kinds = sorted(k for k, _ in ts)
        if o == "[":
            is_open = True
        if o == "{":
            is_open = True
        if len(ts) == 4:
            kans += 1
            if len(set(kinds)) != 1:
                problems.append("bad kan " + m)
        elif len(ts) == 3:
            if o != "[":
                problems.append("bad bracket " + m)
            if not (len(set(kinds)) == 1 or (kinds[0] < 27 and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
                                             and kinds[0] // 9 == kinds[2] // 9)):
                problems.append("bad meld " + m)
        else:
            problems.append("bad meld size " + m)
    if len(hand) != 14 - 3 * n_sets:
        problems.append("hand size %d with %d melds" % (len(hand), n_sets))
    win = parse_tiles(inp["win"])
    if len(win) != 1 or win[0] not in hand:
        problems.append("win tile not in hand")
    ind = parse_tiles(inp.get("dora_indicators", "")) + parse_tiles(inp.get("ura_indicators", ""))
    allk = Counter(k for k, _ in tiles + ind)
    if any(v > 4 for v in allk.values()):
        problems.append("more than 4 copies")
    reds = Counter(k for k, r in tiles + ind if r)
    if any(v > 1 for v in reds.values()):
        problems.append("more than one red five per suit")
    for five in (4, 13, 22):
        if allk[five] == 4 and reds[five] == 0:
            problems.append("four fives without the red one")
    f = lambda k: bool(inp.get(k, False))  # noqa: E731
    riichi = f("riichi") or f("double_riichi")
    if riichi and is_open:
        problems.append("riichi on open hand")
    if f("ippatsu") and not riichi:
        problems.append("ippatsu without riichi")
    if f("ippatsu") and f("rinshan"):
        problems.append("ippatsu with rinshan")
    if f("rinshan") and (not f("tsumo") or kans == 0):
        problems.append("rinshan without kan/tsumo")
    if f("chankan") and f("tsumo"):
        problems.append("chankan with tsumo")
    if f("chankan") and allk[win[0][0]] != 1:
        problems.append("chankan tile not the last copy")
    if f("haitei") and (not f("tsumo") or f("rinshan")):
        problems.append("bad haitei")
    if f("houtei") and (f("tsumo") or f("chankan")):
        problems.append("bad houtei")
    if inp.get("ura_indicators") and not riichi:
        problems.append("ura without riichi")
    if f("tenhou") and (inp.get("seat_wind") != "E" or not f("tsumo") or inp["melds"]):
        problems.append("bad tenhou")
    if f("chiihou") and (inp.get("seat_wind") == "E" or not f("tsumo") or inp["melds"]):
        problems.append("bad chiihou")
    return problems


def validate_file(path: str) -> int:
    bad = 0
    n = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            n += 1
            p = validate_input(rec["input"])
            if p:
                bad += 1
                if bad <= 20:
                    print("INVALID %s: %s" % (p, json.dumps(rec["input"])))
    print("%d inputs checked, %d invalid" % (n, bad))
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", help="riichi-lens executable")
    ap.add_argument("--ref", action="append", default=[], help="reference .jsonl (repeatable)")
    ap.add_argument("--show", type=int, default=20, help="how many disagreements to print")
    ap.add_argument("--summary-out", help="write the summary as JSON here")
    ap.add_argument("--aggregate", nargs="+", help="merge summary JSON files and report")
    ap.add_argument("--validate", help="sanity-check the inputs of a reference file")
    args = ap.parse_args(argv)

    if args.validate:
        return validate_file(args.validate)
    if args.aggregate:
        summaries = []
        for p in args.aggregate:
            with open(p, encoding="utf-8") as f:
                summaries.append(json.load(f))
        s = merge(summaries, args.show)
        report(s)
        return 0 if s["disagreements"] == 0 else 1
    if not args.binary or not args.ref:
        ap.error("--binary and --ref are required")
    s = compare_files(args.binary, args.ref, args.show)
    if args.summary_out:
        with open(args.summary_out, "w", encoding="utf-8") as f:
            json.dump(s, f)
    else:
        report(s)
    return 0 if s["disagreements"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
