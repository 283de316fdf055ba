#!/usr/bin/env python3
"""Where the eyes are in every frame of a film, by a detector that is not glimt-pure's own.

OpenCV's FaceDetectorYN (YuNet 2023mar int8bq, the model file the repo's fixtures name, from
../shared/models) on each decoded frame, scaled to --side on its long side for a first look, then
scaled so the film's median face box is --face pixels high (YuNet's eye distance shrinks by up to
a quarter for faces much larger than it was trained on, so every film is measured at one face size). In each frame the face
taken is the one whose eye midpoint is nearest the film's typical eye midpoint (the median, over
frames, of the most confident face's), so a second face in the picture is not mistaken for the
person. Reports, for the whole film and per clip (--clip seconds), the share of frames where that
face was found, and how far the eye midpoint (x and y, as % of the frame's height) and the eye
distance (as % of its median) stray from their medians: the largest deviation, and the 95th
percentile. `film --align eyes` promises the midpoint within 2 % and the distance within 5 %.

usage: tools/align/.venv/bin/python tools/align/measure_eyes.py FILM.mp4 [...] [--json OUT] [--clip 1]
Set up the venv: python3 -m venv tools/align/.venv && tools/align/.venv/bin/pip install -r tools/align/requirements.txt
"""
import argparse
import json
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "models", "face_detection_yunet_2023mar_int8bq.onnx"))


def faces_per_frame(path, model, side, score, face=None):
    """Faces per frame, the frame scaled to `side` on its long side, or (with `face`) so that the
    film's median face box is `face` = (its height in film pixels, the height wanted)."""
    cap = cv2.VideoCapture(path)
    if not cap.isOpened():
        sys.exit(f"{path}: cannot be read")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    det = None
    frames = []
    size = None
    while True:
        ok, img = cap.read()
        if not ok:
            break
        h, w = img.shape[:2]
        size = (w, h)
        s = min(1.0, side / max(w, h)) if face is None else face[1] / face[0]
        small = img if s == 1.0 else cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        if det is None:
            det = cv2.FaceDetectorYN.create(model, "", (small.shape[1], small.shape[0]), score, 0.3, 5000)
        _, found = det.detect(small)
        faces = []
        for f in found if found is not None else []:
            right, left = np.array(f[4:6]) / s, np.array(f[6:8]) / s
            faces.append({"mid": (right + left) / 2, "dist": float(np.linalg.norm(right - left)), "score": float(f[14]),
                          "box": float(f[3] / s)})
        frames.append(faces)
    return frames, fps, size


def spread(values, reference, scale):
    d = np.abs(np.array(values) - reference) / scale * 100
    return {"max": round(float(d.max()), 2), "p95": round(float(np.percentile(d, 95)), 2)} if len(d) else None


def measure(frames, height, first=0):
    """Deviations in frames[first:] against the medians of those frames."""
    found = [f for f in frames if f is not None]
    if not found:
        return {"frames": len(frames), "found": 0.0}
    mids = np.array([f["mid"] for f in found])
    dists = np.array([f["dist"] for f in found])
    mx, my, md = np.median(mids[:, 0]), np.median(mids[:, 1]), np.median(dists)
    return {
        "frames": len(frames),
        "found": round(len(found) / len(frames), 3),
        "mid_x_pct_h": spread(mids[:, 0], mx, height),
        "mid_y_pct_h": spread(mids[:, 1], my, height),
        "dist_pct": spread(dists, md, md),
        "median_mid": [round(float(mx / height), 4), round(float(my / height), 4)],
        "median_dist_pct_h": round(float(md / height * 100), 2),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("films", nargs="+")
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--side", type=int, default=960, help="long side frames are scaled to for detection")
    ap.add_argument("--score", type=float, default=0.6)
    ap.add_argument("--face", type=float, default=160, help="face box height (px) to detect at, after a first look; 0: --side only")
    ap.add_argument("--clip", type=float, default=1.0, help="seconds per day's clip in the film")
    ap.add_argument("--json")
    a = ap.parse_args()
    out = {}
    for path in a.films:
        frames, fps, (w, h) = faces_per_frame(path, a.model, a.side, a.score)
        if a.face:
            # YuNet's eye landmarks move with the size a face has in its input (its eye distance
            # shrinks for faces far larger than it was trained on): look again at one face size.
            boxes = [max(f, key=lambda x: x["score"])["box"] for f in frames if f]
            if boxes:
                frames, fps, (w, h) = faces_per_frame(path, a.model, a.side, a.score, face=(float(np.median(boxes)), a.face))
        best = [max(f, key=lambda x: x["score"])["mid"] for f in frames if f]
        anchor = np.median(np.array(best), axis=0) if best else np.array([w / 2, h / 2])
        chosen = [min(f, key=lambda x: np.linalg.norm(x["mid"] - anchor)) if f else None for f in frames]
        per = max(1, round(a.clip * fps))
        clips = [measure(chosen[i:i + per], h) for i in range(0, len(chosen), per)]
        result = {"size": [w, h], "fps": fps, "film": measure(chosen, h), "clips": clips}
        out[path] = result
        f = result["film"]
        print(f"{path}: {w}x{h}, {f['frames']} frames, face found in {f.get('found', 0) * 100:.1f} %")
        if "dist_pct" in f:
            print(f"  eye midpoint x: max {f['mid_x_pct_h']['max']:.2f} % of height (p95 {f['mid_x_pct_h']['p95']:.2f}),"
                  f" y: max {f['mid_y_pct_h']['max']:.2f} % (p95 {f['mid_y_pct_h']['p95']:.2f});"
                  f" eye distance: max {f['dist_pct']['max']:.2f} % (p95 {f['dist_pct']['p95']:.2f})"
                  f" around {f['median_dist_pct_h']:.2f} % of height, midpoint at {f['median_mid']} of height")
        for i, c in enumerate(clips):
            if "dist_pct" in c:
                print(f"  clip {i}: found {c['found'] * 100:.0f} %, mid {c['median_mid']}, dist {c['median_dist_pct_h']:.2f} % of h;"
                      f" within the clip: x {c['mid_x_pct_h']['max']:.2f}, y {c['mid_y_pct_h']['max']:.2f}, dist {c['dist_pct']['max']:.2f} %")
            else:
                print(f"  clip {i}: no face")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
