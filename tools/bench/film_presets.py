#!/usr/bin/env python3
"""The film's x264 preset and CRF: picture quality against CPU and size (issue 44).

Renders the same films with `glimt-pure film --picks` at every preset x CRF and measures, for each:
  - SSIM (FFmpeg's `ssim` filter, Y and All) against a reference: the same film at CRF 1, which is
    as close to the source crop (the frames the renderer hands x264) as an H.264 High film gets;
    the reference's own distance from the source is estimated by two CRF-1 films of different
    presets against each other;
  - CPU seconds (user + sys of the child, from wait4) per day, and file size per day.
Then, because the machine is shared, it times each chosen candidate against medium/20 (the default
before issue 44) in interleaved pairs and reports the median CPU ratio and its range.

Films (not committed, made in OUT):
  sample  the 9 clips of Sample/videos, one day each, each cut where `analyze --no-refs` picks it
  phone   the 4K HEVC 10-bit clip of tools/bench/make_bench_clips.sh (phone-like, with grain),
          8 days a few seconds apart, cropped where `analyze --no-refs` picks

Usage: tools/bench/film_presets.py [--glimt BIN] [--out DIR] [--sets sample,phone] [--clip 4K.mov] [--pairs N]
       [--presets a,b] [--crfs 16-24] [--candidates preset/crf,...]
Needs python3 and the ffmpeg CLI. Prints a Markdown table per film and writes OUT/results.json.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def cpu_of(cmd):
    """CPU seconds (user + sys) and wall seconds of one run of cmd, from wait4."""
    start = time.monotonic()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"film_presets: failed: {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime, wall


def analysed_pick(glimt, video):
    """The pick `analyze --no-refs` makes of one video."""
    out = json.loads(run([glimt, "analyze", video, "--no-refs", "--json", "-q"]).stdout)
    if not out["picks"]:
        sys.exit(f"film_presets: no pick in {video}")
    return out["picks"][0]


def sample_picks(glimt):
    folder = os.path.join(ROOT, "Sample", "videos")
    picks = []
    for i, name in enumerate(sorted(os.listdir(folder))):
        p = analysed_pick(glimt, os.path.join(folder, name))
        p["day"] = f"2024-05-{i + 1:02d}"
        picks.append(p)
    return picks


def phone_picks(glimt, clip):
    clip = clip or run([os.path.join(HERE, "make_bench_clips.sh")]).stdout.strip()
    first = analysed_pick(glimt, clip)
    picks = []
    for i in range(8):
        p = dict(first)
        p["start"], p["day"] = 1.0 + 2.75 * i, f"2024-06-{i + 1:02d}"
        picks.append(p)
    return picks


def film(glimt, picks_file, path, preset, crf):
    cmd = [glimt, "film", "--picks", picks_file, "--out", path, "-y", "-q", "--quality", str(crf)]
    if preset is not None:
        cmd += ["--preset", preset]
    return cpu_of(cmd)


def ssim(test, ref):
    err = run(["ffmpeg", "-hide_banner", "-nostats", "-i", test, "-i", ref, "-lavfi", "[0:v][1:v]ssim", "-f", "null", "-"]).stderr
    m = re.search(r"SSIM Y:([0-9.]+).*All:([0-9.]+)", err)
    if not m:
        sys.exit(f"film_presets: no SSIM for {test}: {err[-400:]}")
    return float(m.group(1)), float(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--glimt", default=os.path.join(ROOT, ".build", "release", "glimt-pure"))
    ap.add_argument("--out", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "glimt-film-presets"))
    ap.add_argument("--sets", default="sample,phone")
    ap.add_argument("--clip", help="the phone film's clip, if made already (default: tools/bench/make_bench_clips.sh makes it)")
    ap.add_argument("--presets", default="ultrafast,superfast,veryfast,faster,fast,medium,slow")
    ap.add_argument("--crfs", default="16-24", help="CRFs: a range, a list, or both (14,16-18)")
    ap.add_argument("--pairs", type=int, default=5, help="timing pairs per candidate against medium/20")
    ap.add_argument("--candidates", default="", help="preset/crf,...: time these (default: the cheapest of each preset that keeps SSIM)")
    ap.add_argument("--tolerance", type=float, default=0.0001, help="SSIM All a candidate may lose against medium/20")
    a = ap.parse_args()
    crfs = [c for part in a.crfs.split(",") for lo, _, hi in [part.partition("-")] for c in range(int(lo), int(hi or lo) + 1)]
    presets = a.presets.split(",")
    os.makedirs(a.out, exist_ok=True)
    results_file = os.path.join(a.out, "results.json")
    results = json.load(open(results_file)) if os.path.exists(results_file) else {}

    for name in a.sets.split(","):
        folder = os.path.join(a.out, name)
        os.makedirs(folder, exist_ok=True)
        picks_file = os.path.join(folder, "picks.json")
        if not os.path.exists(picks_file):
            picks = sample_picks(a.glimt) if name == "sample" else phone_picks(a.glimt, a.clip)
            json.dump({"picks": picks}, open(picks_file, "w"))
        days = len(json.load(open(picks_file))["picks"])
        res = results.setdefault(name, {"days": days, "grid": {}, "pairs": {}})
        ref = os.path.join(folder, "ref-crf1-medium.mp4")
        if not os.path.exists(ref):
            film(a.glimt, picks_file, ref, "medium", 1)
        if "reference" not in res:
            other = os.path.join(folder, "ref-crf1-ultrafast.mp4")
            film(a.glimt, picks_file, other, "ultrafast", 1)
            res["reference"] = dict(zip(("y", "all"), ssim(other, ref)))
            os.remove(other)
        print(f"{name}: {days} days; CRF-1 ultrafast against the CRF-1 medium reference: SSIM {res['reference']}", flush=True)
        for preset in presets:
            for crf in crfs:
                key = f"{preset}/{crf}"
                if key in res["grid"]:
                    continue
                path = os.path.join(folder, f"{preset}-{crf}.mp4")
                cpu, wall = film(a.glimt, picks_file, path, preset, crf)
                y, al = ssim(path, ref)
                res["grid"][key] = {"cpu": cpu, "wall": wall, "bytes": os.path.getsize(path), "ssim_y": y, "ssim_all": al}
                os.remove(path)
                r = res["grid"][key]
                print(f"  {key}: SSIM Y {y:.5f} All {al:.5f}, {cpu / days:.2f} CPU s/day, {r['bytes'] / days / 1e6:.2f} MB/day", flush=True)
                json.dump(results, open(results_file, "w"), indent=1)

        base = res["grid"]["medium/20"]
        if a.candidates:
            cands = a.candidates.split(",")
        else:
            cands = []
            for preset in presets:
                grid = res["grid"]
                ok = [c for c in crfs if f"{preset}/{c}" in grid and grid[f"{preset}/{c}"]["ssim_all"] >= base["ssim_all"] - a.tolerance]
                if ok and preset != "medium":
                    cands.append(f"{preset}/{max(ok)}")
        for key in cands:
            if a.pairs == 0:
                break
            preset, crf = key.split("/")
            ratios, cpus, bases = [], [], []
            for _ in range(a.pairs):
                c, _w = film(a.glimt, picks_file, os.path.join(folder, "cand.mp4"), preset, int(crf))
                b, _w = film(a.glimt, picks_file, os.path.join(folder, "base.mp4"), "medium", 20)
                ratios.append(c / b)
                cpus.append(c / days)
                bases.append(b / days)
            res["pairs"][key] = {"ratios": ratios, "cpu_per_day": cpus, "medium20_per_day": bases}
            print(f"  pairs {key} / medium/20: median {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})", flush=True)
            json.dump(results, open(results_file, "w"), indent=1)

        print(f"\n{name} ({days} days), SSIM against CRF 1; ratios to medium/20\n")
        print("| preset/CRF | SSIM Y | SSIM All | CPU s/day | MB/day | size ratio | CPU ratio (pairs) |")
        print("|---|---|---|---|---|---|---|")
        for key, r in res["grid"].items():
            p = res["pairs"].get(key)
            pair = f"{statistics.median(p['ratios']):.2f} ({min(p['ratios']):.2f}-{max(p['ratios']):.2f})" if p else ""
            print(f"| {key} | {r['ssim_y']:.4f} | {r['ssim_all']:.4f} | {r['cpu'] / days:.2f} | {r['bytes'] / days / 1e6:.2f} | "
                  f"{r['bytes'] / base['bytes']:.2f} | {pair} |")
    json.dump(results, open(results_file, "w"), indent=1)


if __name__ == "__main__":
    main()
