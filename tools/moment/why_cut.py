#!/usr/bin/env python3
"""Why each cut inside speech that judge.py counted was made: a table of causes (issue 43).

    why_cut.py OUT.json [OUT.json...]

OUT.json is what `judge.py --out` wrote. For every chosen second with an edge inside speech (row b), it reads the
product's own `flaws` of that pick (kept by the judge from `glimt-pure analyze --no-refs --json`) and the judge's
cached measurements of the clip, and puts the cut in one of four causes:

- every clean-edged window (the judge's) crosses a shot: a cut word or a flash of another shot;
- the product hears the edge in a pause and webrtcvad hears speech: the two ears disagree;
- the product knows the cut, and every one-shot clean-edged window has a blink (the judge's): a trade of a cut
  word against closed eyes, where avoiding both was not possible;
- the product knows the cut, and a one-shot, blink-free, clean-edged window existed: a miss the product could
  have avoided (its ear heard speech there, its eyes read closed, or the window scored under `closeEnough`).

Windows are the judge's: starts on its 1/8 s grid, the pick's length. Nothing here is the product's code.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402

CAUSES = (
    "every clean-edged window crosses a shot",
    "the product hears a pause, webrtcvad speech",
    "a trade: every one-shot clean-edged window has a blink",
    "avoidable: a one-shot, blink-free, clean-edged window existed",
)


def cause(clip_result, cache_dir):
    clip = clip_result["clip"]
    m = judge.cached_measurements(clip, cache_dir)
    clean = [w for w in judge.windows(m, clip_result["pick"]["length"]) if not any(w["edges_in_speech"]) and not w["crosses_shot"]]
    if not clean:
        return CAUSES[0]
    flaws = clip_result["pick"]["flaws"] or []
    if not any("mid-word" in f for f in flaws):
        return CAUSES[1]
    # A clip without a counted face has no blink to trade against.
    faceless = clip_result["frames_with_counted_face"] == 0
    return CAUSES[3] if faceless or any(w["blink_free"] for w in clean) else CAUSES[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=judge.CACHE_DIR)
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()
    counts = collections.Counter()
    total = 0
    for path in args.results:
        for r in json.load(open(path))["clips"]:
            if not r["rows"]["sound"]:
                continue
            cuts = sum(r["chosen"]["edges_in_speech"])
            if cuts:
                counts[cause(r, args.cache)] += cuts
                total += cuts
    print(f"| cause | cuts (of {total}) |\n|---|---|")
    for c in CAUSES:
        print(f"| {c} | {counts[c]} |")


if __name__ == "__main__":
    main()
