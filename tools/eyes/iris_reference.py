#!/usr/bin/env python3
"""The reference for Faces/EyeReader.swift and Faces/IrisLandmark.swift, in Python.

- `eye_crops(rgb, landmarks)`: the two 64x64 eye crops EyeReader cuts from YuNet's five landmarks (the
  same similarity warp, OpenCV's warpAffine, bilinear, black border; the person's left eye mirrored).
- `landmarks(crop)`: ai-edge-litert's output for a crop (71 eye-contour points, 5 iris points, x y z in
  crop pixels): the reference runtime the golden tests compare with.
- `openness(contour)`: lid gap over eye width, as EyeReader computes it.

    python3 tools/eyes/iris_reference.py scan OUT.csv VIDEO...   # every frame: YuNet faces, openness per eye

Needs ai-edge-litert==2.3.0, opencv-python 5 (FaceDetectorYN), av, and the model at $IRIS_MODEL (default
./iris_landmark.tflite), taken from the wheel tools/export_iris.py checks:
`unzip -j mediapipe-0.10.14-*.whl mediapipe/modules/iris_landmark/iris_landmark.tflite`.
"""
import csv
import os
import sys

import numpy as np

MODEL = os.environ.get("IRIS_MODEL", "iris_landmark.tflite")
YUNET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "models", "face_detection_yunet_2023mar_int8bq.onnx")
SIZE = 64
# Crop side in units of the distance between the eye centres (EyeReader.cropScale).
CROP_SCALE = 1.0
# Lid pairs (upper, lower) of the 71-point contour, the middle three of the eye.
LID_PAIRS = [(11, 3), (12, 4), (13, 5)]
CORNERS = (0, 8)

_interp = None


def interpreter():
    global _interp
    if _interp is None:
        from ai_edge_litert.interpreter import Interpreter
        _interp = Interpreter(model_path=MODEL, num_threads=1)
        _interp.allocate_tensors()
    return _interp


def sha256_file(path):
    import hashlib
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def eye_transform(eye, right, left):
    """2x3 matrix from image to crop: `eye` to the centre, the line from the right eye to the left one
    (YuNet's first two landmarks) horizontal, CROP_SCALE x the distance between them across."""
    eye, right, left = (np.asarray(p, np.float64) for p in (eye, right, left))
    d = left - right
    dist = float(np.hypot(*d))
    u = d / dist
    s = SIZE / (CROP_SCALE * dist)
    a_re, a_im = s * u[0], -s * u[1]
    m = np.array([[a_re, -a_im, 0.0], [a_im, a_re, 0.0]])
    m[:, 2] = np.array([SIZE / 2, SIZE / 2]) - m[:, :2] @ eye
    return m


def eye_crops(rgb, landmarks):
    import cv2
    right, left = np.asarray(landmarks[0]), np.asarray(landmarks[1])
    crops = []
    for eye, mirror in ((right, False), (left, True)):
        m = eye_transform(eye, right, left)
        c = cv2.warpAffine(rgb, m, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        crops.append(np.ascontiguousarray(c[:, ::-1]) if mirror else c)
    return crops


def landmarks(crop):
    it = interpreter()
    x = (crop.astype(np.float32) / 255.0)[None]
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    out = {o["name"]: it.get_tensor(o["index"]).reshape(-1, 3) for o in it.get_output_details()}
    return out["output_eyes_contours_and_brows"].copy(), out["output_iris"].copy()


def openness(contour):
    p = contour[:, :2]
    width = np.linalg.norm(p[CORNERS[0]] - p[CORNERS[1]])
    return float(np.mean([np.linalg.norm(p[u] - p[l]) for u, l in LID_PAIRS]) / max(width, 1e-6))


def scan(out, videos):
    import av
    import cv2
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["video", "frame", "face", "rx", "ry", "lx", "ly", "open_right", "open_left"])
        for path in videos:
            det = None
            with av.open(path) as box:
                for n, frame in enumerate(box.decode(video=0)):
                    rgb = frame.to_ndarray(format="rgb24")
                    h, wd = rgb.shape[:2]
                    if det is None:
                        det = cv2.FaceDetectorYN.create(YUNET, "", (wd, h), 0.6, 0.3, 5000)
                    _, faces = det.detect(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
                    for k, face in enumerate(faces if faces is not None else []):
                        lm = face[4:14].reshape(5, 2)
                        cr, cl = eye_crops(rgb, lm)
                        o_r = openness(landmarks(cr)[0])
                        o_l = openness(landmarks(cl)[0])
                        w.writerow([path, n, k, f"{lm[0,0]:.1f}", f"{lm[0,1]:.1f}", f"{lm[1,0]:.1f}", f"{lm[1,1]:.1f}",
                                    f"{o_r:.4f}", f"{o_l:.4f}"])


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "scan":
        scan(sys.argv[2], sys.argv[3:])
    else:
        print(__doc__)
