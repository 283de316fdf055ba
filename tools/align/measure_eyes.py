#!/usr/bin/env python3
"""Where the eyes are in every frame of a film, by detectors that are not glimt-pure's own.

Each decoded frame of the film is read by:
- OpenCV's FaceDetectorYN (YuNet 2023mar int8bq, the model file the repo's fixtures name, from
  ../shared/models) on the whole frame at its own size ("yunet"), and scaled to 960 and 640
  pixels on its long side ("yunet960", "yunet640"): YuNet's eye landmarks move with the size a
  face has in its input, differently for each face, so one film reads differently at each size;
- MediaPipe's FaceMesh (refined landmarks), whose eye centres are the middles of each eye's
  corners (landmarks 33/133 and 362/263): a finer landmark model, the same at every size.
In each frame the face taken is the one whose eye midpoint is nearest the film's eye point
(--eye-point, `film --align eyes` puts it at half the width and 40 % of the height). Reports, per
detector, for the whole film and per clip (--clip seconds): the share of frames where a face was
found; per clip, the median eye midpoint and eye distance; and how far those per-clip medians
stray from the film's (the midpoint as % of the frame's height, the distance as % of its median),
and the 95th percentile of single frames' deviations. `film --align eyes` promises the midpoint
within 2 % and the distance within 5 %.

usage: tools/align/.venv/bin/python tools/align/measure_eyes.py FILM.mp4 [...] [--json OUT] [--clip 1] [--skip-clips 2,5]
Set up the venv: python3 -m venv tools/align/.venv && tools/align/.venv/bin/pip install -r tools/align/requirements.txt
"""
import argparse
import json
import os
import sys

import warnings
warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "models", "face_detection_yunet_2023mar_int8bq.onnx"))
DETECTORS = ["yunet", "yunet960", "yunet640", "mediapipe"]


def read_frames(path):
    cap = cv2.VideoCapture(path)
    if not cap.isOpened():
        sys.exit(f"{path}: cannot be read")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    frames = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        frames.append(img)
    return frames, fps


def yunet_eyes(model, side):
    """Eye pairs (right, left) of every face YuNet finds in a frame, in the frame's pixels."""
    det = {}

    def find(img):
        h, w = img.shape[:2]
        s = 1.0 if side is None else side / max(w, h)
        small = img if s == 1.0 else cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        key = small.shape[:2]
        if key not in det:
            det[key] = cv2.FaceDetectorYN.create(model, "", (small.shape[1], small.shape[0]), 0.6, 0.3, 5000)
        _, found = det[key].detect(small)
        return [(np.array(f[4:6]) / s, np.array(f[6:8]) / s) for f in (found if found is not None else [])]

    return find


def mediapipe_eyes():
    import mediapipe as mp
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=4, refine_landmarks=True,
                                           min_detection_confidence=0.3)

    def find(img):
        h, w = img.shape[:2]
        r = mesh.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
        out = []
        for lm in r.multi_face_landmarks or []:
            p = lambda i: np.array([lm.landmark[i].x * w, lm.landmark[i].y * h])
            out.append(((p(33) + p(133)) / 2, (p(362) + p(263)) / 2))
        return out

    return find


def measure(frames, find, eye_point, per, skip):
    h, w = frames[0].shape[:2]
    target = np.array([eye_point[0] * w, eye_point[1] * h])
    chosen = []
    for img in frames:
        pairs = find(img)
        if not pairs:
            chosen.append(None)
            continue
        a, b = min(pairs, key=lambda e: np.linalg.norm((e[0] + e[1]) / 2 - target))
        chosen.append(((a + b) / 2, float(np.linalg.norm(a - b))))
    clips = [chosen[i:i + per] for i in range(0, len(chosen), per)]
    kept = [c for i, c in enumerate(clips) if i not in skip]
    per_clip = []
    for c in clips:
        got = [f for f in c if f]
        per_clip.append(None if not got else {
            "found": len(got) / len(c),
            "mid": np.median(np.array([f[0] for f in got]), axis=0) / h,
            "dist": float(np.median([f[1] for f in got])) / h})
    meds = [per_clip[i] for i, c in enumerate(clips) if i not in skip and per_clip[i]]
    if not meds:
        return {"found": 0.0}
    mx, my = np.median([m["mid"][0] for m in meds]), np.median([m["mid"][1] for m in meds])
    md = np.median([m["dist"] for m in meds])
    frames_kept = [f for c in kept for f in c if f]
    dev = lambda v, ref, scale: float(np.max(np.abs(np.array(v) - ref)) / scale * 100)
    p95 = lambda v, ref, scale: float(np.percentile(np.abs(np.array(v) - ref), 95) / scale * 100)
    return {
        "found": round(sum(1 for c in kept for f in c if f) / max(1, sum(len(c) for c in kept)), 3),
        "median_mid": [round(float(mx), 4), round(float(my), 4)],
        "median_dist_pct_h": round(float(md * 100), 2),
        "clips_mid_x_pct_h": round(dev([m["mid"][0] for m in meds], mx, 1), 2),
        "clips_mid_y_pct_h": round(dev([m["mid"][1] for m in meds], my, 1), 2),
        "clips_dist_pct": round(dev([m["dist"] for m in meds], md, md), 2),
        "frames_mid_x_p95": round(p95([f[0][0] / h for f in frames_kept], mx, 1), 2),
        "frames_mid_y_p95": round(p95([f[0][1] / h for f in frames_kept], my, 1), 2),
        "frames_dist_p95": round(p95([f[1] / h for f in frames_kept], md, md), 2),
        "clips": [None if m is None else {"found": round(m["found"], 3), "mid": [round(float(v), 4) for v in m["mid"]],
                                          "dist_pct_h": round(m["dist"] * 100, 2)} for m in per_clip],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("films", nargs="+")
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--detectors", default=",".join(DETECTORS), help="comma-separated, of " + ", ".join(DETECTORS))
    ap.add_argument("--eye-point", default="0.5,0.4", help="where the film puts the eyes, as shares of width and height")
    ap.add_argument("--clip", type=float, default=1.0, help="seconds per day's clip in the film")
    ap.add_argument("--skip-clips", default="", help="clip numbers left out of the film's figures (e.g. ones the film names as not aligned)")
    ap.add_argument("--json")
    a = ap.parse_args()
    eye_point = [float(v) for v in a.eye_point.split(",")]
    skip = {int(v) for v in a.skip_clips.split(",") if v}
    finders = {"yunet": lambda: yunet_eyes(a.model, None), "yunet960": lambda: yunet_eyes(a.model, 960),
               "yunet640": lambda: yunet_eyes(a.model, 640), "mediapipe": mediapipe_eyes}
    out = {}
    for path in a.films:
        frames, fps = read_frames(path)
        h, w = frames[0].shape[:2]
        per = max(1, round(a.clip * fps))
        print(f"{path}: {w}x{h}, {len(frames)} frames, {len(range(0, len(frames), per))} clips")
        out[path] = {}
        for name in a.detectors.split(","):
            r = measure(frames, finders[name](), eye_point, per, skip)
            out[path][name] = r
            if "median_dist_pct_h" not in r:
                print(f"  {name:10s} no face")
                continue
            print(f"  {name:10s} found {r['found'] * 100:.0f} %; clips' medians stray: midpoint x {r['clips_mid_x_pct_h']:.2f}, "
                  f"y {r['clips_mid_y_pct_h']:.2f} % of height, eye distance {r['clips_dist_pct']:.2f} % "
                  f"(frames p95: {r['frames_mid_x_p95']:.2f}, {r['frames_mid_y_p95']:.2f}, {r['frames_dist_p95']:.2f} %); "
                  f"eyes at {r['median_mid']} of height, {r['median_dist_pct_h']:.2f} % of height apart")
            print("             per clip, eye distance % of height: " + " ".join(
                "-" if c is None else f"{c['dist_pct_h']:.2f}" for c in r["clips"]))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
