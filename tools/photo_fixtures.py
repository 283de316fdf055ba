"""Fixtures for decoding photos as OpenCV's imread (libjpeg-turbo) does: Tests/Fixtures/photos/.

Two kinds, both checked by Tests/GlimtPureTests/MediaIO/PhotoParityTests.swift:
- small JPEGs cut from collins_nasa.png at every chroma subsampling libjpeg writes (4:4:4, 4:2:2,
  4:2:0, 4:4:0, 4:1:1, greyscale), odd-sized so the edges count, each with cv2.imread's pixels as a
  PNG: our decoder must give the same pixels up to the IDCT's rounding;
- original JPEGs copied from the shared photos, with every face OpenCV's pipeline finds on
  imread's pixels (cv2.FaceDetectorYN at full resolution, cv2.FaceRecognizerSF alignCrop + feature,
  the dequantized float32 models of tools/reference.py): our decoder and pipeline on the JPEG must
  embed each face with cosine >= 0.99 to OpenCV's.

The folder is deleted and rewritten on every run. Usage: python3 tools/photo_fixtures.py [photos_dir]
"""

from __future__ import annotations

import os
import platform
import shutil
import sys

import numpy as np

import golden_fixtures as gf
import reference as ref

OUT = os.path.join(gf.FIXTURES, "photos")
DEFAULT_PHOTOS = os.path.normpath(os.path.join(ref.REPO_ROOT, "..", "shared", "photos"))
# Originals: Solvay 1927 (4:2:2, 29 small faces: the hard case), obama3 (4:2:0, progressive),
# obama2 (4:4:4, restart markers).
PHOTOS = ["solvay1927.jpg", "obama3.jpg", "obama2.jpg"]
# Small JPEGs: (name, OpenCV's sampling-factor flag or None for greyscale).
SAMPLINGS = [("444", "IMWRITE_JPEG_SAMPLING_FACTOR_444"), ("422", "IMWRITE_JPEG_SAMPLING_FACTOR_422"),
             ("420", "IMWRITE_JPEG_SAMPLING_FACTOR_420"), ("440", "IMWRITE_JPEG_SAMPLING_FACTOR_440"),
             ("411", "IMWRITE_JPEG_SAMPLING_FACTOR_411"), ("grey", None),
             ("420_restarts", "IMWRITE_JPEG_SAMPLING_FACTOR_420"),
             ("420_progressive", "IMWRITE_JPEG_SAMPLING_FACTOR_420")]
RESTART_INTERVAL = 2      # MCUs between restart markers in the _restarts case
CUT = (229, 95, 67, 49)   # x, y, w, h in collins_nasa.png: her face, odd width and height
QUALITY = 90


def make_small(photos: str) -> list:
    import cv2
    source = cv2.imread(os.path.join(photos, "collins_nasa.png"), cv2.IMREAD_COLOR)
    x, y, w, h = CUT
    cut = np.ascontiguousarray(source[y:y + h, x:x + w])
    cases = []
    for name, flag in SAMPLINGS:
        jpeg = os.path.join(OUT, f"collins_{name}.jpg")
        if flag is None:
            ok = cv2.imwrite(jpeg, cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY), [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        else:
            restarts = [cv2.IMWRITE_JPEG_RST_INTERVAL, RESTART_INTERVAL] if name.endswith("_restarts") else []
            restarts += [cv2.IMWRITE_JPEG_PROGRESSIVE, 1] if name.endswith("_progressive") else []
            ok = cv2.imwrite(jpeg, cut, [cv2.IMWRITE_JPEG_QUALITY, QUALITY,
                                         cv2.IMWRITE_JPEG_SAMPLING_FACTOR, getattr(cv2, flag)] + restarts)
        if not ok:
            raise RuntimeError(f"cannot write {jpeg}")
        png = os.path.join(OUT, f"collins_{name}.imread.png")
        gf.write_png(png, gf.read_rgb(jpeg))
        cases.append({"jpeg": os.path.basename(jpeg), "imread": os.path.basename(png),
                      "subsampling": name})
    return cases


def make_faces(photos: str) -> list:
    entries = []
    for photo in PHOTOS:
        source = os.path.join(photos, photo)
        shutil.copyfile(source, os.path.join(OUT, photo))
        rgb = gf.read_rgb(source)
        faces = ref.detect(rgb, gf.SCORE_THRESHOLD, gf.NMS_THRESHOLD, gf.TOP_K)
        rows = []
        for i, face in enumerate(faces):
            row = gf.face_dict(face)
            row["embedding"] = gf.f32list(ref.cv_feature(ref.align_crop(rgb, face)))
            rows.append(row)
        entries.append({"file": photo, "size": [int(rgb.shape[1]), int(rgb.shape[0])], "faces": rows})
        print(f"{photo}: {len(rows)} faces")
    return entries


def write_provenance(photos: str, small: list, faces: list):
    import cv2
    rows = gf.read_photo_provenance(photos)
    lines = ["# Photo decoding fixtures", "",
             "Written by `python3 tools/photo_fixtures.py` (deleted and rewritten on every run); checked by",
             "Tests/GlimtPureTests/MediaIO/PhotoParityTests.swift.",
             f"OpenCV {cv2.__version__}, numpy {np.__version__}, Python {platform.python_version()}.", "",
             "## Original JPEGs (byte-for-byte copies of the shared photos)", "",
             "| file | who | source | status |", "|---|---|---|---|"]
    for entry in faces:
        p = rows.get(entry["file"], {"who": "?", "source": "?", "status": "?"})
        lines.append(f"| {entry['file']} | {p['who']} | {p['source']} | {p['status']} |")
    lines += ["", "golden.json `photos`: for each, every face cv2.FaceDetectorYN (2023mar, dequantized float32,",
              f"score {gf.SCORE_THRESHOLD}, NMS {gf.NMS_THRESHOLD}, input size = the photo's) finds on cv2.imread's pixels (EXIF",
              "orientation applied), with box, landmarks, score and cv2.FaceRecognizerSF (2021dec, dequantized)",
              "alignCrop + feature embedding (raw 128-d).", "",
              "## Small JPEGs", "",
              f"`collins_<sampling>.jpg`: the {CUT[2]}x{CUT[3]} cut at x {CUT[0]}, y {CUT[1]} of collins_nasa.png (NASA, public domain;",
              f"the astronaut image of scikit-image's data) written by cv2.imwrite at quality {QUALITY} with",
              "IMWRITE_JPEG_SAMPLING_FACTOR_<sampling> (`grey`: converted with cv2.COLOR_BGR2GRAY first;",
              f"`420_restarts`: also IMWRITE_JPEG_RST_INTERVAL {RESTART_INTERVAL}, a restart marker every {RESTART_INTERVAL} MCUs;",
              "`420_progressive`: also IMWRITE_JPEG_PROGRESSIVE, libjpeg's default progressive script).",
              "`collins_<sampling>.imread.png`: cv2.imread (IMREAD_COLOR) of that JPEG, as RGB.", ""]
    with open(os.path.join(OUT, "PROVENANCE.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main():
    photos = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PHOTOS
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    small = make_small(photos)
    faces = make_faces(photos)
    gf.dump_json(os.path.join(OUT, "golden.json"), {
        "pipeline": "cv2.imread -> cv2.FaceDetectorYN at full size -> cv2.FaceRecognizerSF alignCrop + feature",
        "embedding": "raw 128-d output (not normalised)",
        "small": small, "photos": faces})
    write_provenance(photos, small, faces)


if __name__ == "__main__":
    main()
