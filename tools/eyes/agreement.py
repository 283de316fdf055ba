#!/usr/bin/env python3
"""Joins the judge (facemesh_ear.py) with ours (iris_reference.py scan, or the Swift bench's CSV) face by
face, and prints openness against EAR, a threshold chosen on the calibration videos, and the confusion
counts on the others.

    python3 tools/eyes/agreement.py JUDGE.csv OURS.csv [--judge-closed 0.15] [--calibrate NAME,...] [--threshold T]

A face in a frame is matched by its image-left eye centre (within a quarter of the eye distance). A face
is closed for the judge when the mean of its two EARs is below --judge-closed; for us when the mean of
its two opennesses is below the threshold.
"""
import argparse
import csv
import math
import os
from collections import defaultdict


def load(path, keys):
    rows = defaultdict(list)
    for r in csv.DictReader(open(path)):
        rows[(os.path.basename(r["video"]), int(r["frame"]))].append(r)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("judge")
    ap.add_argument("ours")
    ap.add_argument("--judge-closed", type=float, default=0.15)
    # Sample/ clips cut from a shared clip go with it (VID_20240505_101500 is weekly_address_aoc, poetry_jam is
    # poetry_jam_2009), so no frame is both calibrated on and tested.
    ap.add_argument("--calibrate", default="weekly_address_aoc.mp4,VID_20240505_101500.mp4,poetry_jam_2009.mp4,poetry_jam.mp4")
    ap.add_argument("--threshold", type=float, default=None)
    a = ap.parse_args()
    judge, ours = load(a.judge, None), load(a.ours, None)
    pairs = []
    for key, js in judge.items():
        for j in js:
            jr = (float(j["rx"]), float(j["ry"])); jl = (float(j["lx"]), float(j["ly"]))
            d = math.dist(jr, jl)
            best = min(ours.get(key, []), key=lambda o: math.dist(jr, (float(o["rx"]), float(o["ry"]))), default=None)
            if best is None or math.dist(jr, (float(best["rx"]), float(best["ry"]))) > 0.25 * d:
                continue
            ear = (float(j["ear_right"]) + float(j["ear_left"])) / 2
            op = (float(best["open_right"]) + float(best["open_left"])) / 2
            pairs.append((key[0], key[1], ear, op))
    cal = set(a.calibrate.split(","))
    calib = [p for p in pairs if p[0] in cal]
    test = [p for p in pairs if p[0] not in cal]
    print(f"matched faces: {len(pairs)} ({len(calib)} calibration, {len(test)} test)")

    def confusion(ps, t):
        tp = sum(1 for p in ps if p[2] < a.judge_closed and p[3] < t)
        fn = sum(1 for p in ps if p[2] < a.judge_closed and p[3] >= t)
        fp = sum(1 for p in ps if p[2] >= a.judge_closed and p[3] < t)
        tn = sum(1 for p in ps if p[2] >= a.judge_closed and p[3] >= t)
        return tp, fn, fp, tn

    t = a.threshold
    if t is None:
        # The threshold with the fewest disagreements on the calibration faces (the middle of the best run).
        cands = [x / 1000 for x in range(50, 500)]
        errs = [sum(confusion(calib, c)[1:3]) for c in cands]
        m = min(errs)
        best = [c for c, e in zip(cands, errs) if e == m]
        t = best[len(best) // 2]
        print(f"threshold {t:.3f} (disagreements on calibration {m}, equally good {best[0]:.3f}-{best[-1]:.3f})")
    for name, ps in (("calibration", calib), ("test", test)):
        tp, fn, fp, tn = confusion(ps, t)
        print(f"{name}: judge closed & we closed {tp}, judge closed & we open {fn}, judge open & we closed {fp}, both open {tn}")
    per = defaultdict(lambda: [0, 0, 0, 0])
    for p in test:
        c = confusion([p], t)
        per[p[0]] = [x + y for x, y in zip(per[p[0]], c)]
    for v, c in sorted(per.items()):
        print(f"  {v}: {c}")


if __name__ == "__main__":
    main()
