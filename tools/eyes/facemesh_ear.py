#!/usr/bin/env python3
"""The independent judge of open eyes: MediaPipe FaceMesh (refine_landmarks=True, the mediapipe==0.10.14
wheel) eye aspect ratio on every frame of the given videos. Not the product's code: it calibrates and checks
Faces/EyeReader.swift. Writes CSV rows: video, frame, time, face, eye centres (image pixels), EAR right, EAR left.

    python3 tools/eyes/facemesh_ear.py OUT.csv VIDEO...

mediapipe 0.10.14 wants protobuf < 5, so give it a virtual environment of its own (pip install the wheel
and av there). EAR = (|p2 - p6| + |p3 - p5|) / (2 |p1 - p4|) over FaceMesh's six-point eye outlines (Soukupova and Cech 2016).
"""
import csv
import sys

import av
import mediapipe as mp
import numpy as np

# The subject's right eye (image left) and left eye: corner, upper, upper, corner, lower, lower.
RIGHT = [33, 160, 158, 133, 153, 144]
LEFT = [362, 385, 387, 263, 373, 380]


def ear(pts, idx):
    p = [pts[i] for i in idx]
    d = lambda a, b: float(np.linalg.norm(a - b))
    return (d(p[1], p[5]) + d(p[2], p[4])) / (2 * d(p[0], p[3]))


def main():
    out, videos = sys.argv[1], sys.argv[2:]
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["video", "frame", "time", "face", "rx", "ry", "lx", "ly", "ear_right", "ear_left"])
        for path in videos:
            mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=6, refine_landmarks=True)
            with av.open(path) as box:
                stream = box.streams.video[0]
                for n, frame in enumerate(box.decode(stream)):
                    rgb = frame.to_ndarray(format="rgb24")
                    h, wd = rgb.shape[:2]
                    res = mesh.process(rgb)
                    for k, face in enumerate(res.multi_face_landmarks or []):
                        pts = np.array([[lm.x * wd, lm.y * h] for lm in face.landmark])
                        r = pts[[33, 133]].mean(axis=0)
                        l_ = pts[[362, 263]].mean(axis=0)
                        t = float(frame.time) if frame.time is not None else n / float(stream.average_rate)
                        w.writerow([path, n, f"{t:.4f}", k, f"{r[0]:.1f}", f"{r[1]:.1f}", f"{l_[0]:.1f}", f"{l_[1]:.1f}",
                                    f"{ear(pts, RIGHT):.4f}", f"{ear(pts, LEFT):.4f}"])
            mesh.close()


if __name__ == "__main__":
    main()
