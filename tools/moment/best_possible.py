#!/usr/bin/env python3
"""What a chooser that sees with the judge's own eyes and ears could reach on the same clips (issue 43).

    best_possible.py OUT.json [OUT.json...]

OUT.json is what `judge.py --out` wrote. For every clip it chooses among the judge's own windows (starts on its
1/8 s grid, one second long, one shot where the clip has a one-shot window), knowing exactly where the judge hears
speech and sees a blink, and ignoring how good each second looks. It prints rows (a), (b) and (c) as judge.py
counts them, for two orders of what matters:

- blinks first, then the edges cut: the floor of row (b) while row (a) is 0;
- edges first, then blinks: the floor of row (b) alone, and what it costs in row (a).

Where the first order leaves row (b) over the goal, no chooser meets the goals for (a) and (b) together on those
clips; where the product's figures lie far above these, its eyes or ears disagree with the judge's (why_cut.py
says which). Nothing here is the product's code.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402

ORDERS = {
    "blinks first": lambda w: (w["blink"], sum(w["edges_in_speech"])),
    "edges first": lambda w: (sum(w["edges_in_speech"]), w["blink"]),
}


def rows(clips, key):
    a = b = c = eyes = edges = both = 0
    for r, windows in clips:
        one_shot = [w for w in windows if not w["crosses_shot"]] or windows
        w = min(one_shot, key=key)
        if r["rows"]["eyes"]:
            eyes += 1
            a += w["blink"]
        if r["rows"]["sound"]:
            edges += 2
            b += sum(w["edges_in_speech"])
        if r["rows"]["both"]:
            both += 1
            c += w["blink_free"] and not any(w["edges_in_speech"])
    return (a, eyes), (b, edges), (c, both)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=judge.CACHE_DIR)
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()
    clips = []
    for path in args.results:
        for r in json.load(open(path))["clips"]:
            if not r["pick"]:
                continue
            clips.append((r, list(judge.windows(judge.cached_measurements(r["clip"], args.cache), 1.0))))
    print("| order | (a) blinks | (b) cuts | (c) open and clean |")
    print("|---|---|---|---|")
    for name, key in ORDERS.items():
        cells = [f"{n} of {d} ({judge.pct(n / d) if d else '-'})" for n, d in rows(clips, key)]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
