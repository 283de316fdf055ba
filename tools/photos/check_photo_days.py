#!/usr/bin/env python3
"""An independent check of photos as days: build libraries of photo-only days from pictures the
product's tests do not use, make each person's film with glimt-pure, and judge the film's photo
seconds with OpenCV alone (YuNet to find faces, SFace to say whose: OpenCV's own models and
threshold, not the product's code).

People and pictures (all public domain, from ../shared): Obama and Biden from shared/photos,
Ocasio-Cortez, Hill and Miranda from frames of shared/videos. Each person gets a reference
picture and three photo days; each photo day also has a photo of someone else (so a random
choice of the day's photo shows the person half the time), and one more day has only other
people's photos (which must stay out of the person's film).

For every second of the film that is a photo: does it show the person (a face whose SFace cosine
to the reference, both embedded by OpenCV, is >= 0.363, OpenCV's threshold), does it move (the
zoom from its first frame to its last, estimated from ORB feature matches, is >= 1.03), and is it
on a day that should be in the film.

Needs: opencv-python-headless 5 (its YuNet reads the int8 model), onnx (for tools/models/reference.py), numpy, pillow
(tools/photos/requirements.txt).
Usage: python tools/photos/check_photo_days.py [--glimt .build/release/glimt-pure] [--shared ../shared] [--keep DIR]
"""
import argparse
import json
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import sys

import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "models"))
import reference  # noqa: E402  (the repository's own runner of the two ONNX files)


def frame(video, t):
    cap = cv2.VideoCapture(str(video))
    cap.set(cv2.CAP_PROP_POS_MSEC, t * 1000)
    ok, f = cap.read()
    assert ok, (video, t)
    return Image.fromarray(cv2.cvtColor(f, cv2.COLOR_BGR2RGB))


def save(im, path, day):
    e = Image.Exif()
    e[0x8769] = {0x9003: day.replace("-", ":") + " 12:00:00"}
    im.convert("RGB").save(path, quality=90, exif=e)


class Judge:
    def __init__(self, models):
        self.det = cv2.FaceDetectorYN.create(str(models / "face_detection_yunet_2023mar_int8bq.onnx"), "", (320, 320), 0.6)
        # OpenCV cannot run the int8bq SFace file as it is: it runs the same weights dequantized to
        # a plain float graph (tools/models/reference.py).
        self.rec = cv2.FaceRecognizerSF.create(reference.dequantized_path(str(models / "face_recognition_sface_2021dec_int8bq.onnx")), "")

    def faces(self, bgr):
        self.det.setInputSize((bgr.shape[1], bgr.shape[0]))
        _, faces = self.det.detect(bgr)
        return [] if faces is None else list(faces)

    def embed(self, bgr, face):
        return self.rec.feature(self.rec.alignCrop(bgr, face)).copy()

    def reference(self, path):
        bgr = cv2.imread(str(path))
        faces = self.faces(bgr)
        best = max(faces, key=lambda f: f[2] * f[3])
        return self.embed(bgr, best)

    def best_cosine(self, bgr, ref):
        return max([self.rec.match(self.embed(bgr, f), ref, cv2.FaceRecognizerSF_FR_COSINE) for f in self.faces(bgr)], default=-1.0)


def zoom(a, b):
    orb = cv2.ORB_create(2000)
    ga, gb = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)
    ka, da = orb.detectAndCompute(ga, None)
    kb, db = orb.detectAndCompute(gb, None)
    if da is None or db is None:
        return 1.0
    m = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True).match(da, db)
    if len(m) < 8:
        return 1.0
    pa = np.float32([ka[x.queryIdx].pt for x in m])
    pb = np.float32([kb[x.trainIdx].pt for x in m])
    M, _ = cv2.estimateAffinePartial2D(pa, pb)
    return float(np.hypot(M[0, 0], M[1, 0])) if M is not None else 1.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glimt", default=str(ROOT / ".build/release/glimt-pure"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--keep")
    args = ap.parse_args()
    shared = Path(args.shared)
    photos, videos = shared / "photos", shared / "videos"
    people = {
        "Obama": (Image.open(photos / "obama.jpg"), [Image.open(photos / n) for n in ["obama2.jpg", "obama3.jpg", "obama_and_biden.jpg"]]),
        "Biden": (Image.open(photos / "biden.jpg"), [Image.open(photos / n) for n in ["biden2.jpg", "two_people.jpg", "obama_and_biden.jpg"]]),
        "AOC": (frame(videos / "weekly_address_aoc.mp4", 1.0), [frame(videos / "weekly_address_aoc.mp4", t) for t in (3.0, 5.0, 7.0)]),
        "Hill": (frame(videos / "weekly_address_hill.mp4", 1.0), [frame(videos / "weekly_address_hill.mp4", t) for t in (3.0, 5.0, 7.0)]),
        "Miranda": (frame(videos / "poetry_jam_2009.mp4", 4.0), [frame(videos / "poetry_jam_2009.mp4", t) for t in (5.5, 6.5, 7.2)]),
    }
    judge = Judge(shared / "models")
    work = Path(args.keep or tempfile.mkdtemp(prefix="photo-days-"))
    rng = random.Random(7)
    totals = {"expected": 0, "filmed": 0, "shows": 0, "moves": 0, "wrong_day": 0, "random_shows": 0.0}
    for name, (ref, own) in people.items():
        folder = work / name
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "photos").mkdir(parents=True)
        ref.convert("RGB").save(folder / "reference.jpg", quality=92)
        others = [p for n, (_, ps) in people.items() if n != name for p in ps]
        expected = []
        ref_e = judge.reference(folder / "reference.jpg")
        for i, im in enumerate(own):
            day = f"2023-03-{i + 1:02d}"
            save(im, folder / "photos" / f"IMG_{i}1.JPG", day)
            save(rng.choice(others), folder / "photos" / f"IMG_{i}2.JPG", day)
            # A day is expected in the film when the judge itself finds the person in its photo.
            if judge.best_cosine(cv2.cvtColor(np.array(im.convert("RGB")), cv2.COLOR_RGB2BGR), ref_e) >= 0.363:
                expected.append(day)
            else:
                print(f"{name:8} {day} the judge finds no {name} in the photo: not expected")
        save(rng.choice(others), folder / "photos" / "IMG_91.JPG", "2023-03-09")
        lib = folder / "library"
        g = args.glimt
        subprocess.run([g, "reference", "add", str(folder / "reference.jpg"), "--person", name, "--library", str(lib)], check=True, capture_output=True)
        subprocess.run([g, "scan", str(folder / "photos"), "--library", str(lib), "-q"], check=True, capture_output=True)
        film = folder / "film.mp4"
        out = subprocess.run([g, "film", "--library", str(lib), "--out", str(film), "--size", "360x640", "-y"], capture_output=True, text=True)
        days = json.loads(subprocess.run([g, "days", "--json", "--library", str(lib)], check=True, capture_output=True, text=True).stdout)
        picks = [d for d in days if d.get("pick")]
        cap = cv2.VideoCapture(str(film))
        frames = []
        while True:
            ok, f = cap.read()
            if not ok:
                break
            frames.append(f)
        for k, d in enumerate(picks):
            first, last = frames[k * 30], frames[k * 30 + 29]
            cos = max(judge.best_cosine(first, ref_e), judge.best_cosine(frames[k * 30 + 15], ref_e))
            z = zoom(first, last)
            totals["filmed"] += 1
            totals["shows"] += cos >= 0.363
            totals["moves"] += z >= 1.03
            totals["wrong_day"] += d["day"] not in expected
            print(f"{name:8} {d['day']} {Path(d['pick']['video']).name:11} cosine {cos:.2f} zoom {z:.3f}")
        totals["expected"] += len(expected)
        # A random photo of each expected day: the person's own, or the other one.
        totals["random_shows"] += 0.5 * len(expected)
        if out.returncode != 0:
            print(name, "film failed:", out.stderr.strip())
    t = totals
    print(
        f"\n{t['filmed']} photo seconds filmed of {t['expected']} expected photo days; "
        f"showing the person: {t['shows']} ({100 * t['shows'] / max(1, t['filmed']):.0f} %), a random photo of the day: "
        f"{100 * t['random_shows'] / max(1, t['expected']):.0f} %; moving: {t['moves']}; on a day that should not be in the film: {t['wrong_day']}"
    )
    print("work:", work)


if __name__ == "__main__":
    main()
