#!/usr/bin/env python3
"""The end-to-end peer of `glimt-pure analyze --ref PHOTO VIDEO... --json`: the same analysis
job in Python + OpenCV, so glimt-bench can time both on the same clips and check the picks agree.

Per video: FFmpeg-backed cv2.VideoCapture; every frame grabbed, the first frame shown at or after
each multiple of 1/8 s retrieved and scaled to 640 long side; cv2.FaceDetectorYN (YuNet 2023mar)
on it at its own size; cv2.FaceRecognizerSF (SFace 2021dec) alignCrop + feature for every face;
the frame score, identity rules and best 1-second window ported from glimt-pure's own sources
(Sources/Analysis/*.swift, Sources/Faces/FaceQuality.swift, Sources/Imaging/Sharpness.swift,
Sources/GlimtPure/Jobs/Judgement.swift). The reference photo is embedded as it is and mirrored,
averaged and re-normalised, as FacePipeline.referenceEmbedding does.

Prints one JSON object: {"videos": [{path, window_start, found, frames, best_cosine, stages, ...}],
"seconds": total wall time, "setup_seconds": of which loading the models and embedding the
reference, "models": {...}}.
"""
import argparse
import json
import math
import os
import sys
import time

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "models"))
YUNET = os.path.join(MODELS, "face_detection_yunet_2023mar_int8bq.onnx")
SFACE = os.path.join(MODELS, "face_recognition_sface_2021dec_int8bq.onnx")

# AnalysisOptions / FaceDetector / Identity.Thresholds defaults.
SAMPLE_RATE = 8.0
ANALYSIS_SIDE = 640
WINDOW = 1.0
SCORE_THRESHOLD = 0.6
NMS_THRESHOLD = 0.3
TOP_K = 5000
MATCH, STRONG, FRAMES_NEEDED = 0.45, 0.57, 2
TOLERANCE = 0.0005  # SampledFrames.tolerance: timestamps rounded to the stream clock


def load_models():
    """YuNet and SFace from the int8bq files. OpenCV 5 runs the YuNet file as it is but not the
    SFace one (blocked DequantizeLinear); then the float32 graph tools/models/reference.py derives from
    it (same weights, dequantized losslessly) is used, and the output says so."""
    notes = {}
    det = cv2.FaceDetectorYN.create(YUNET, "", (320, 320), SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K)
    notes["yunet"] = os.path.basename(YUNET)
    try:
        rec = cv2.FaceRecognizerSF.create(SFACE, "")
        rec.feature(np.zeros((112, 112, 3), np.uint8))
        notes["sface"] = os.path.basename(SFACE)
    except cv2.error:
        sys.path.insert(0, os.path.join(HERE, "..", "tools", "models"))
        import reference as R  # noqa: E402
        rec = cv2.FaceRecognizerSF.create(R.dequantized_path(SFACE), "")
        notes["sface"] = os.path.basename(SFACE) + " (dequantized to float32 by tools/models/reference.py)"
    return det, rec, notes


def luma(rgb):
    """BT.601 luma as float32, as Grey.luma."""
    f = rgb.astype(np.float32)
    return np.float32(0.299) * f[..., 0] + np.float32(0.587) * f[..., 1] + np.float32(0.114) * f[..., 2]


def laplacian_variance(g):
    lap = (g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1] + g[2:, 1:-1] - 4 * g[1:-1, 1:-1]).astype(np.float64)
    return max(0.0, float((lap * lap).mean() - lap.mean() ** 2))


def normalized_sharpness(v):
    return 1 - math.exp(-v / 400)


def fitting(rgb, long_side):
    """Resize.fitting: shrink (area averaging) so the long side is at most `long_side`."""
    h, w = rgb.shape[:2]
    if max(w, h) <= long_side:
        return rgb
    s = long_side / max(w, h)
    return cv2.resize(rgb, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)


def aesthetics(rgb, sharpness):
    """Aesthetics.measure: value in [0, 1], 0 for utility frames (dark, flat, screen, blur)."""
    small = fitting(rgb, 256).astype(np.float64)
    r, g, b = small[..., 0], small[..., 1], small[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    n = y.size
    mean = y.mean()
    sd = math.sqrt(max(0.0, (y * y).mean() - mean * mean))
    clipped = np.count_nonzero((y < 8) | (y > 247))
    plateau = mean / 80 if mean < 80 else (max(0, (240 - mean) / 80) if mean > 160 else 1)
    exposure = max(0.0, plateau * (1 - min(1, 2 * clipped / n)))
    contrast = min(1.0, sd / 55)
    rg, yb = r - g, 0.5 * (r + g) - b
    m_rg, m_yb = rg.mean(), yb.mean()
    s_rg, s_yb = max(0.0, (rg * rg).mean() - m_rg ** 2), max(0.0, (yb * yb).mean() - m_yb ** 2)
    colour = min(1.0, (math.sqrt(s_rg + s_yb) + 0.3 * math.sqrt(m_rg ** 2 + m_yb ** 2)) / 60)
    clean = min(1.0, max(0.0, 1 - (noise_sigma(rgb) - 2) / 10))
    # The level 98 % of the picture stays under.
    hist = np.bincount(np.minimum(255, y.astype(np.int64)).ravel(), minlength=256)
    bright = int(np.searchsorted(np.cumsum(hist), 0.98 * n))
    rejected = None
    if mean < 25 and bright < 70:
        rejected = "dark"
    elif sd < 6:
        rejected = "flat"
    else:
        equal, edges = screen_statistics(rgb)
        if equal > 0.7 and edges > 0.005:
            rejected = "screen"
        elif sharpness < 0.05:
            rejected = "blur"
    value = 0.35 * exposure + 0.25 * contrast + 0.20 * colour + 0.20 * clean
    return (0.0 if rejected else value), rejected


def noise_sigma(rgb):
    """Immerkaer's noise estimate on the full frame's luma."""
    g = luma(rgb)
    h, w = g.shape
    if w < 3 or h < 3:
        return 0.0
    k = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    conv = cv2.filter2D(g, cv2.CV_32F, k, borderType=cv2.BORDER_CONSTANT)[1:-1, 1:-1]
    return math.sqrt(math.pi / 2) / (6 * (w - 2) * (h - 2)) * float(np.abs(conv).astype(np.float64).sum())


def screen_statistics(rgb):
    """Over horizontally adjacent pixel pairs: the share identical in all channels (among pairs
    not clipped to black or white) and the share with a luma step over 60 levels."""
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    lo = np.minimum(np.minimum(r, g), b)[:, :-1]
    hi = np.maximum(np.maximum(r, g), b)[:, :-1]
    counted = (hi > 5) & (lo < 250)
    same = (r[:, :-1] == r[:, 1:]) & (g[:, :-1] == g[:, 1:]) & (b[:, :-1] == b[:, 1:])
    # Integer luma x 1000: exact in float32 (at most 255000), and cv2.transform is fast.
    y = cv2.transform(rgb.astype(np.float32), np.array([[299, 587, 114]], np.float32))
    edges = np.abs(y[:, 1:] - y[:, :-1]) > 60_000
    c = np.count_nonzero(counted)
    return (np.count_nonzero(same & counted) / c if c else 0.0), np.count_nonzero(edges) / edges.size


def frontalness(lm):
    re, le, nose = lm[0], lm[1], lm[2]
    ex, ey = le[0] - re[0], le[1] - re[1]
    d2 = ex * ex + ey * ey
    if d2 <= 0:
        return 0.0
    mx, my = (re[0] + le[0]) / 2, (re[1] + le[1]) / 2
    yaw = abs(((nose[0] - mx) * ex + (nose[1] - my) * ey) / d2)
    yaw_term = min(1.0, max(0.0, 1 - yaw / 0.45))
    roll = abs(math.degrees(math.atan2(ey, ex)))
    roll_term = 1.0 if roll <= 15 else max(0.5, 1 - 0.5 * (roll - 15) / 45)
    return yaw_term * roll_term


def clamp01(x):
    return min(1.0, max(0.0, x))


def face_quality(row, crop_rgb):
    """FaceQuality.measure on a FaceDetectorYN row and its aligned crop."""
    confidence = clamp01((row[14] - 0.5) / 0.45)
    size = clamp01((min(row[2], row[3]) - 24) / (112 - 24))
    sharp = normalized_sharpness(laplacian_variance(luma(crop_rgb)))
    frontal = frontalness(row[4:14].reshape(5, 2))
    return 0.20 * confidence + 0.30 * size + 0.20 * sharp + 0.30 * frontal


def unit(v):
    v = np.asarray(v, np.float64).reshape(-1)
    return v / np.linalg.norm(v)


def detect(det, bgr):
    h, w = bgr.shape[:2]
    det.setInputSize((w, h))
    _, faces = det.detect(bgr)
    return np.zeros((0, 15), np.float32) if faces is None else faces


def reference_embedding(det, rec, photo):
    """The photo's one face (detected on a copy at 640 long side, as FaceDetector.detectionSize),
    aligned on the photo itself, embedded as it is and mirrored, averaged."""
    bgr = cv2.imread(photo, cv2.IMREAD_COLOR)
    if bgr is None:
        raise SystemExit(f"{photo}: cannot read")
    small = fitting(bgr, 640)
    faces = detect(det, small)
    if len(faces) != 1:
        raise SystemExit(f"{photo}: {len(faces)} faces; need exactly one")
    row = faces[0].copy()
    row[:14] *= bgr.shape[1] / small.shape[1]
    crop = rec.alignCrop(bgr, row.reshape(1, -1))
    both = [unit(rec.feature(crop)), unit(rec.feature(np.ascontiguousarray(crop[:, ::-1])))]
    return unit(both[0] + both[1])


def analyse(det, rec, ref, path, keep_frames=False):
    """One video. Stage seconds (as glimt-pure's StageTimes: decoding every frame, converting
    samples, detection, alignment + quality + embedding, frame scoring) go into the result."""
    stages = dict.fromkeys(["decode", "convert", "detect", "align_embed", "score"], 0.0)
    stages["frames"] = 0
    cap = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
    if not cap.isOpened():
        raise RuntimeError("cannot open")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    interval = 1 / SAMPLE_RATE
    next_target = 0.0
    frames = []  # (time, score parts)
    last_time = None
    clock = time.perf_counter
    t0 = clock()
    while cap.grab():  # every frame decoded, only samples converted
        t = cap.get(cv2.CAP_PROP_POS_MSEC) / 1000
        last_time = t
        if t + TOLERANCE < next_target:
            continue
        next_target = (math.floor((t + TOLERANCE) / interval) + 1) * interval
        t1 = clock()
        stages["decode"] += t1 - t0
        ok, full = cap.retrieve()
        if not ok:
            break
        bgr = fitting(full, ANALYSIS_SIDE)
        rgb = bgr[:, :, ::-1]
        t2 = clock()
        rows = detect(det, bgr)
        t3 = clock()
        faces = []
        for row in rows:
            crop = rec.alignCrop(bgr, row.reshape(1, -1))
            quality = face_quality(row, crop[:, :, ::-1])
            cosine = float(unit(rec.feature(crop)) @ ref) if ref is not None else None
            faces.append((quality, cosine, float(row[2] * row[3])))
        t4 = clock()
        g = luma(cv2.resize(rgb, (96, 96), interpolation=cv2.INTER_AREA))
        sharp = normalized_sharpness(laplacian_variance(g))
        looks, _ = aesthetics(rgb, sharp)
        frames.append(frame_analysis(t, faces, looks, sharp, ref is not None))
        t0 = clock()
        stages["convert"] += t2 - t1
        stages["detect"] += t3 - t2
        stages["align_embed"] += t4 - t3
        stages["score"] += t0 - t4
        stages["frames"] += 1
    stages["decode"] += clock() - t0
    cap.release()
    duration = (last_time + 1 / fps) if last_time is not None else 0.0
    result = conclude(path, frames, duration, ref is not None, keep_frames)
    result["stages"] = stages
    return result


def frame_analysis(t, faces, looks, sharp, has_refs):
    """FrameAnalysis.evaluate: with references only the best-matching face counts."""
    best = None
    subject = None
    if has_refs:
        for i, f in enumerate(faces):
            if best is None or f[1] > best:
                best, bi = f[1], i
        if best is not None and best >= MATCH:
            subject = bi
        clear = faces[subject][0] if subject is not None else 0.0
        c = best or 0.0
        identity = 0.0 if c < MATCH else min(1.0, 0.5 + 0.5 * (c - MATCH) / max(STRONG - MATCH, 1e-6))
    else:
        clear = max((f[0] for f in faces), default=0.0)
        identity = None
    return {"time": t, "looks": looks, "sharp": sharp, "face": clear, "identity": identity, "cosine": best}


def total(f):
    base = 0.35 * f["looks"] + 0.20 * f["sharp"] + 0.45 * f["face"]
    return base if f["identity"] is None else 0.40 * base + 0.60 * f["identity"]


def conclude(path, frames, duration, has_refs, keep_frames=False):
    found = None
    cosines = [f["cosine"] or 0.0 for f in frames]
    if has_refs:
        found = any(c >= STRONG for c in cosines) or sum(c >= MATCH for c in cosines) >= FRAMES_NEEDED
        if not found:  # one lucky frame is not the person
            for f in frames:
                f["face"] = 0.0
                f["identity"] = 0.0
    start, mean = best_window([f["time"] for f in frames], [total(f) for f in frames], duration)
    result = {"path": path, "window_start": start, "mean_score": mean, "found": found, "frames": len(frames),
              "best_cosine": max(cosines) if cosines and has_refs else None, "duration": duration}
    if keep_frames:
        result["frame_scores"] = [[f["time"], total(f), f["cosine"]] for f in frames]
    return result


def best_window(times, scores, duration, length=WINDOW, slack=1e-3):
    """BestWindow.best: windows start at each sample and end within the video; ties go early."""
    best = (None, None)
    end = 0
    for i, start in enumerate(times):
        if start + length > duration + slack:
            break
        end = max(end, i)
        while end < len(times) and times[end] < start + length - slack:
            end += 1
        n = end - i
        if n == 0:
            continue
        mean = sum(np.float32(s) for s in scores[i:end]) / n
        if best[1] is None or mean > best[1]:
            best = (start, float(mean))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", help="reference photo with one face")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--frames", action="store_true", help="also give every frame's time, score and best cosine")
    ap.add_argument("videos", nargs="+")
    a = ap.parse_args()
    started = time.perf_counter()
    cv2.setNumThreads(a.threads)
    det, rec, models = load_models()
    ref = reference_embedding(det, rec, a.ref) if a.ref else None
    loaded = time.perf_counter() - started
    videos, failures = [], []
    for v in a.videos:
        try:
            videos.append(analyse(det, rec, ref, v, a.frames))
        except (RuntimeError, cv2.error) as e:
            failures.append({"path": v, "reason": str(e)})
    print(json.dumps({"videos": videos, "failures": failures, "seconds": time.perf_counter() - started, "setup_seconds": loaded,
                      "models": models, "opencv": cv2.__version__, "threads": a.threads}))


if __name__ == "__main__":
    main()
