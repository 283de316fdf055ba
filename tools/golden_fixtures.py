"""Golden test fixtures for glimt-pure's SFace and YuNet (written by tools/export_weights.py).

Everything lands in Tests/Fixtures/: sface/, yunet/ and PROVENANCE.md (the two
directories and that file are deleted and rewritten on every run; nothing else there is touched).
The references are the dequantized float32 graphs (tools/reference.py) run by onnxruntime with
one thread and no graph optimisation, and OpenCV 5's FaceDetectorYN / FaceRecognizerSF.

Numbers in the JSON files are float32 values written as the exact decimal of their double value,
so parsing them as Double and converting to Float gives back the same float32.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
from typing import Dict, List

import numpy as np

import reference as ref

FIXTURES = os.path.join(ref.REPO_ROOT, "Tests", "GlimtPureTests", "Fixtures")

# SFace crops: (fixture name, photo, index of the face in FaceDetectorYN's list for the photo at
# full resolution). Obama twice (two photos) for a same-person pair; six Solvay 1927 sitters.
SFACE_CROPS = [
    ("obama", "obama.jpg", 0),
    ("obama2", "obama2.jpg", 0),
    ("biden", "biden.jpg", 0),
    ("biden2", "biden2.jpg", 0),
    ("collins", "collins_nasa.png", 0),
] + [(f"solvay_{i:02d}", "solvay1927.jpg", i) for i in (0, 4, 8, 12, 16, 20)]
SFACE_PROBE = "obama"          # the crop whose per-layer activations go into sface/layers.json
NOISE_SEED = 2021

# YuNet fixture photos: long side LONG_SIDE with INTER_AREA, except these.
LONG_SIDE = 448
LONG_SIDE_EXCEPTIONS = {"solvay1927.jpg": 1024,     # 29 small faces must stay detectable
                        "collins_nasa.png": 512}    # kept as it is: 512x512 already, no resampling
# Raw head outputs: photo -> the non-square case (None: the fixture PNG as it is; else a crop
# x, y, w, h of the fixture PNG). Each photo also gets a 320x320 INTER_LINEAR resize.
RAW_CASES = {"two_people.jpg": None, "biden.jpg": None, "solvay1927.jpg": (200, 0, 600, 200)}
SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K = 0.6, 0.3, 5000
# Alignment / whole pipeline: photos, and how many crops (PNG) to keep per photo.
ALIGN_PHOTOS = ["two_people.jpg", "obama_and_biden.jpg", "collins_nasa.png", "obama.jpg", "solvay1927.jpg"]
ALIGN_CROPS_PER_PHOTO = 2


# ----------------------------------------------------------------------------------------------
# helpers


def f32(x) -> float:
    return float(np.float32(x))


def f32list(a) -> list:
    return [float(v) for v in np.asarray(a, np.float32).reshape(-1)]


def dump_json(path: str, obj):
    text = json.dumps(obj, indent=1, ensure_ascii=False)
    # lists of plain numbers on one line
    text = re.sub(r"\[\s*([-+0-9.eE,\s]+?)\s*\]", lambda m: "[" + re.sub(r"\s+", "", m.group(1)) + "]", text)
    # and lists of such lists (landmarks)
    text = re.sub(r"\[\s*((?:\[[-+0-9.eE,]*\],?\s*)+)\]",
                  lambda m: "[" + re.sub(r"\s+", "", m.group(1)) + "]", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


def read_rgb(path: str) -> np.ndarray:
    import cv2
    bgr = cv2.imread(path, cv2.IMREAD_COLOR)
    if bgr is None:
        raise RuntimeError(f"cannot read {path}")
    return np.ascontiguousarray(bgr[:, :, ::-1])


def write_png(path: str, rgb: np.ndarray):
    """Lossless RGB PNG (8-bit, colour type 2); checks it reads back identical."""
    import cv2
    os.makedirs(os.path.dirname(path), exist_ok=True)
    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
    if not cv2.imwrite(path, np.ascontiguousarray(rgb[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 9]):
        raise RuntimeError(f"cannot write {path}")
    with open(path, "rb") as f:
        head = f.read(26)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[24] == 8 and head[25] == 2, f"{path}: not 8-bit RGB"
    assert np.array_equal(read_rgb(path), rgb), path


def face_dict(row: np.ndarray) -> dict:
    return {"box": f32list(row[:4]), "landmarks": [f32list(row[4 + 2 * k: 6 + 2 * k]) for k in range(5)],
            "score": f32(row[14])}


def cosine(a, b) -> float:
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def downscale(rgb: np.ndarray, long_side: int) -> np.ndarray:
    import cv2
    h, w = rgb.shape[:2]
    if max(h, w) <= long_side:
        return rgb
    s = long_side / max(h, w)
    size = (int(w * s + 0.5), int(h * s + 0.5))
    return np.ascontiguousarray(cv2.resize(rgb, size, interpolation=cv2.INTER_AREA))


def read_photo_provenance(photos_dir: str) -> Dict[str, dict]:
    rows = {}
    with open(os.path.join(photos_dir, "PROVENANCE.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[0] and not cells[0].startswith("-") and cells[0] != "file":
                rows[cells[0]] = {"who": cells[1], "source": cells[2], "status": cells[3]}
    return rows


def rel(path: str) -> str:
    return os.path.relpath(path, FIXTURES)


# ----------------------------------------------------------------------------------------------
# sface/


def make_sface(sface: str, yunet: str, photos: str, log: list) -> list:
    out_dir = os.path.join(FIXTURES, "sface")
    entries = []
    detections = {}
    for name, photo, index in SFACE_CROPS:
        if photo not in detections:
            detections[photo] = ref.detect(read_rgb(os.path.join(photos, photo)), SCORE_THRESHOLD,
                                           NMS_THRESHOLD, TOP_K, model=yunet)
        faces = detections[photo]
        if index >= len(faces):
            raise RuntimeError(f"{photo}: no face {index} (found {len(faces)})")
        rgb = read_rgb(os.path.join(photos, photo))
        crop = ref.align_crop(rgb, faces[index], model=sface)
        path = os.path.join(out_dir, f"{name}.png")
        write_png(path, crop)
        entries.append((name, path, photo, index, faces[index]))
    rng = np.random.default_rng(NOISE_SEED)
    for name, img in (("noise", rng.integers(0, 256, (112, 112, 3), dtype=np.uint8)),
                      ("grey", np.full((112, 112, 3), 128, np.uint8))):
        path = os.path.join(out_dir, f"{name}.png")
        write_png(path, img)
        entries.append((name, path, None, None, None))

    golden = []
    cosines = []
    for name, path, photo, index, row in entries:
        crop = read_rgb(path)
        emb = ref.sface_embed(crop, model=sface)
        cv = ref.cv_feature(crop, model=sface)
        c = cosine(emb, cv)
        cosines.append((name, c, float(np.abs(emb - cv).max())))
        e = {"name": name, "file": os.path.basename(path), "source_photo": photo, "face_index": index,
             "box": None, "landmarks": None}
        if row is not None:
            d = face_dict(row)
            e["box"], e["landmarks"], e["score"] = d["box"], d["landmarks"], d["score"]
        e["embedding"] = f32list(emb)
        e["opencv_cosine"] = c
        golden.append(e)
    dump_json(os.path.join(out_dir, "golden.json"), golden)
    worst = min(cosines, key=lambda t: t[1])
    log.append(f"sface: {len(golden)} embeddings; cv2.FaceRecognizerSF.feature vs onnxruntime: "
               f"worst 1 - cosine {1 - worst[1]:.2e} ({worst[0]}), max |diff| {max(t[2] for t in cosines):.3g}")
    for n, c, d in cosines:
        log.append(f"  {n:12s} 1 - cosine {1 - c:9.2e}  max|diff| {d:.3g}")

    # per-layer probe
    probe_path = os.path.join(out_dir, f"{SFACE_PROBE}.png")
    crop = read_rgb(probe_path)
    import onnx
    m = onnx.load(ref.dequantized_path(sface))
    names = [n.output[0] for n in m.graph.node if n.op_type == "PRelu"] + ["bn1", "pre_fc1", "fc1"]
    acts = ref.sface_probe(crop, names, model=sface)
    layers = []
    for li, name in enumerate(names):
        a = np.asarray(acts[name], np.float32)
        nchw = a.shape if a.ndim == 4 else (a.shape[0], a.shape[1], 1, 1)
        a4 = a.reshape(nchw)
        _, c, h, w = nchw
        pos = sample_positions(c, h, w, li)
        layers.append({"name": name, "shape": list(nchw), "onnx_shape": list(a.shape),
                       "mean": float(a.astype(np.float64).mean()),
                       "mean_abs": float(np.abs(a.astype(np.float64)).mean()),
                       "positions": [list(p) for p in pos],
                       "values": [f32(a4[0, cc, y, x]) for cc, y, x in pos]})
    fc1 = np.asarray(acts["fc1"]).reshape(-1)
    plain = ref.sface_embed(crop, model=sface)
    assert np.array_equal(fc1, plain), "probe run changed fc1"
    dump_json(os.path.join(out_dir, "layers.json"), {
        "crop": os.path.basename(probe_path),
        "input": "the crop as float32 RGB 0-255, NCHW [1,3,112,112]",
        "positions": "[c, y, x] in the NCHW tensor (batch 0); 2-D tensors [1, C] are shown as [1, C, 1, 1]",
        "statistics": "mean and mean of |x| over the whole tensor, accumulated in double",
        "layers": layers})
    log.append(f"sface: layers.json probes {len(layers)} tensors of {SFACE_PROBE}.png "
               f"({', '.join(names[:2])}, ..., {', '.join(names[-3:])})")
    return golden


def sample_positions(c: int, h: int, w: int, seed: int) -> List[tuple]:
    """32 deterministic (c, y, x): 8 on corners/borders/centre, 24 drawn with a fixed seed."""
    fixed = [(0, 0, 0), (c - 1, 0, w - 1), (c // 2, h - 1, 0), (c - 1, h - 1, w - 1),
             (c // 3, 0, w // 2), ((2 * c) // 3, h // 2, 0), (c // 4, h - 1, w // 2),
             ((3 * c) // 4, h // 2, w - 1)]
    rng = np.random.default_rng(1000 + seed)
    rest = [(int(rng.integers(c)), int(rng.integers(h)), int(rng.integers(w))) for _ in range(24)]
    return fixed + rest


# ----------------------------------------------------------------------------------------------
# yunet/


def make_yunet(sface: str, yunet: str, photos: str, provenance: dict, log: list) -> dict:
    import cv2
    out_dir = os.path.join(FIXTURES, "yunet")
    photo_files = sorted(f for f in os.listdir(photos) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    missing = [p for p in photo_files if p not in provenance]
    if missing:
        raise RuntimeError(f"photos without provenance: {missing}")
    inputs = {}
    for photo in photo_files:
        rgb = read_rgb(os.path.join(photos, photo))
        long_side = LONG_SIDE_EXCEPTIONS.get(photo, LONG_SIDE)
        small = downscale(rgb, long_side)
        png = os.path.join(out_dir, os.path.splitext(photo)[0] + ".png")
        write_png(png, small)
        inputs[photo] = (png, rgb.shape[1], rgb.shape[0])

    # faces.json
    faces_out = []
    faces_by_photo = {}
    int8bq_same = True
    for photo in photo_files:
        png, ow, oh = inputs[photo]
        rgb = read_rgb(png)
        faces = ref.detect(rgb, SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K, model=yunet)
        direct = ref.detect(rgb, SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K, model=yunet, dequantize=False)
        if faces.shape != direct.shape or not np.array_equal(faces, direct):
            int8bq_same = False
        faces_by_photo[photo] = (png, rgb, faces)
        faces_out.append({"file": rel(png).split(os.sep, 1)[1], "source_photo": photo,
                          "source_size": [ow, oh], "size": [rgb.shape[1], rgb.shape[0]],
                          "count": int(len(faces)), "faces": [face_dict(r) for r in faces]})
    dump_json(os.path.join(out_dir, "faces.json"), {
        "detector": "cv2.FaceDetectorYN, inputSize = the PNG's size, on the dequantized float32 YuNet",
        "score_threshold": SCORE_THRESHOLD, "nms_threshold": NMS_THRESHOLD, "top_k": TOP_K,
        "row": "box [x, y, w, h]; landmarks [right eye, left eye, nose tip, right mouth corner, "
               "left mouth corner] as [x, y]; score = sqrt(cls * obj)",
        "photos": faces_out})
    counts = {f["source_photo"]: f["count"] for f in faces_out}
    log.append(f"yunet: faces.json, FaceDetectorYN at score {SCORE_THRESHOLD}: " +
               ", ".join(f"{k} {v}" for k, v in counts.items()))
    log.append(f"yunet: FaceDetectorYN on the int8bq file directly gives "
               f"{'identical' if int8bq_same else 'DIFFERENT'} faces to the dequantized graph")

    # raw head outputs
    cases = []
    worst_decode = 0.0
    for photo, crop in RAW_CASES.items():
        stem = os.path.splitext(photo)[0]
        png, _, _ = inputs[photo]
        full = read_rgb(png)
        r320 = np.ascontiguousarray(cv2.resize(full, (320, 320), interpolation=cv2.INTER_LINEAR))
        png320 = os.path.join(out_dir, f"{stem}_320x320.png")
        write_png(png320, r320)
        variants = [(f"{stem}_320x320", png320, None, read_rgb(png320))]
        if crop is None:
            h, w = full.shape[:2]
            variants.append((f"{stem}_{w}x{h}", png, None, full))
        else:
            x, y, w, h = crop
            variants.append((f"{stem}_crop{w}x{h}", png, [x, y, w, h],
                             np.ascontiguousarray(full[y: y + h, x: x + w])))
        for name, src_png, crop_box, img in variants:
            h, w = img.shape[:2]
            padded = ref.pad_to_32(img)
            ph, pw = padded.shape[:2]
            raw = ref.yunet_raw(padded, model=yunet)
            blob = ref.yunet_input_blob(img)
            assert blob.shape == (1, 3, ph, pw)
            case_dir = os.path.join(out_dir, "raw", name)
            os.makedirs(case_dir, exist_ok=True)
            outs = {}
            for k in ref.YUNET_OUTPUTS:
                a = np.ascontiguousarray(raw[k], dtype="<f4")
                fpath = os.path.join(case_dir, f"{k}.bin")
                with open(fpath, "wb") as f:
                    f.write(a.tobytes())
                outs[k] = {"file": rel(fpath).split(os.sep, 1)[1], "shape": list(a.shape)}
            decoded = ref.decode_yunet(raw, pw, ph, SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K)
            cvf = ref.detect(img, SCORE_THRESHOLD, NMS_THRESHOLD, TOP_K, model=yunet)
            if decoded.shape != cvf.shape:
                raise RuntimeError(f"{name}: decoding onnxruntime's outputs gives {len(decoded)} faces, "
                                   f"FaceDetectorYN {len(cvf)}: the input convention is wrong")
            if len(cvf):
                worst_decode = max(worst_decode, float(np.abs(decoded - cvf).max()))
            if worst_decode > 1e-2:
                raise RuntimeError(f"{name}: onnxruntime's outputs decode to faces {worst_decode} px away "
                                   f"from FaceDetectorYN's: the input convention is wrong")
            cases.append({"name": name, "source_photo": photo,
                          "input_png": rel(src_png).split(os.sep, 1)[1],
                          "crop": crop_box,
                          "size": [w, h], "padded_size": [pw, ph],
                          "padding": {"top": 0, "left": 0, "bottom": ph - h, "right": pw - w, "value": 0},
                          "outputs": outs,
                          "faces": [face_dict(r) for r in cvf]})
    dump_json(os.path.join(out_dir, "raw.json"), {
        "network_input": "NCHW float32 [1, 3, padded_h, padded_w]: the input PNG (RGB) converted to "
                         "BGR planes (channel 0 = blue), values 0-255 unscaled, no mean subtracted, "
                         "zero padding on the bottom and right up to multiples of 32; exactly what "
                         "cv2.FaceDetectorYN builds (padWithDivisor + blobFromImage defaults)",
        "crop": "null, or [x, y, w, h] of the input PNG that is the network's image before padding",
        "outputs_layout": "each output is [1, N, C] float32 little-endian, row-major; N = (padded_h / s) "
                          "* (padded_w / s) anchors for stride s in row-major grid order "
                          "(index = row * cols + col); cls/obj: C = 1, sigmoid applied; bbox: C = 4 "
                          "(dx, dy, log w, log h in stride units); kps: C = 10 (x, y of 5 landmarks in "
                          "stride units)",
        "faces": "cv2.FaceDetectorYN on the same image (inputSize = size), score 0.6, NMS 0.3, top-k 5000",
        "cases": cases})
    log.append(f"yunet: raw.json, {len(cases)} cases; decoding onnxruntime's raw outputs as "
               f"FaceDetectorYN does matches its faces (max |diff| {worst_decode:.3g} px)")

    # alignment and whole pipeline
    align = []
    crops_written = 0
    worst_cos = 1.0
    worst_warp = 0
    float_warp = (0, 0)   # float64 bilinear vs alignCrop: max |diff|, most differing values in a crop
    for photo in ALIGN_PHOTOS:
        png, rgb, faces = faces_by_photo[photo]
        entries = []
        for i, row in enumerate(faces):
            crop = ref.align_crop(rgb, row, model=sface)
            m = ref.similarity_transform(row[4:14])
            warped = cv2.warpAffine(rgb, m, (112, 112), flags=cv2.INTER_LINEAR)
            worst_warp = max(worst_warp, int(np.abs(warped.astype(int) - crop.astype(int)).max()))
            fd = np.abs(ref.warp_affine_bilinear(rgb, m).astype(int) - crop.astype(int))
            float_warp = (max(float_warp[0], int(fd.max())), max(float_warp[1], int((fd > 0).sum())))
            feat = ref.cv_feature(crop, model=sface)
            c = cosine(feat, ref.sface_embed(crop, model=sface))
            worst_cos = min(worst_cos, c)
            e = {"face_index": i, **face_dict(row), "warp_matrix": [list(map(float, r)) for r in m],
                 "crop": None}
            if i < ALIGN_CROPS_PER_PHOTO:
                cpath = os.path.join(out_dir, "align", f"{os.path.splitext(photo)[0]}_{i}.png")
                write_png(cpath, crop)
                e["crop"] = rel(cpath).split(os.sep, 1)[1]
                crops_written += 1
            e["embedding"] = f32list(feat)
            e["onnxruntime_cosine"] = c
            entries.append(e)
        align.append({"file": rel(png).split(os.sep, 1)[1], "source_photo": photo,
                      "size": [rgb.shape[1], rgb.shape[0]], "faces": entries})
    dump_json(os.path.join(out_dir, "align.json"), {
        "pipeline": "faces.json's FaceDetectorYN faces for the PNG -> cv2.FaceRecognizerSF.alignCrop "
                    "(similarity transform of the 5 landmarks onto the ArcFace template, warpAffine "
                    "INTER_LINEAR, 112x112, zero border) -> cv2.FaceRecognizerSF.feature (the crop "
                    "as RGB 0-255) on the dequantized float32 SFace",
        "warp_matrix": "the 2x3 matrix alignCrop hands to warpAffine (dst = M * [x, y, 1]), from a "
                       "numpy port of getSimilarityTransformMatrix; warpAffine with it reproduces "
                       "every crop exactly",
        "crop": "PNG of the aligned crop for the first faces of each photo, else null",
        "embedding": "raw 128-d output (not normalised)",
        "photos": align})
    log.append(f"yunet: align.json, {sum(len(a['faces']) for a in align)} faces in {len(align)} photos, "
               f"{crops_written} crops; feature() vs onnxruntime worst 1 - cosine {1 - worst_cos:.2e}; "
               f"warpAffine with the ported matrix vs alignCrop max |diff| {worst_warp}")
    log.append(f"yunet: a float64 bilinear warp with those matrices vs alignCrop: max |diff| "
               f"{float_warp[0]}, at most {float_warp[1]} of 37632 values differ in a crop")
    if worst_warp != 0:
        raise RuntimeError("the numpy similarity transform does not reproduce alignCrop")
    low = {f["file"]: [f32(x["score"]) for x in f["faces"] if x["score"] < 0.9] for f in faces_out}
    return {"counts": counts, "photo_files": photo_files, "inputs": inputs, "cases": cases,
            "float_warp": float_warp, "align_faces": sum(len(a["faces"]) for a in align),
            "low_scores": {k: v for k, v in low.items() if v}}


# ----------------------------------------------------------------------------------------------
# README / PROVENANCE


def write_yunet_readme(yinfo: dict):
    counts = yinfo["counts"]
    nonsquare = "; ".join(
        f"`{c['name']}`: " + (f"the crop `[x={c['crop'][0]}, y={c['crop'][1]}, w={c['crop'][2]}, h={c['crop'][3]}]` "
                              f"of `{c['input_png']}`" if c["crop"] else f"`{c['input_png']}` as it is")
        + f", padded to {c['padded_size'][0]}x{c['padded_size'][1]}"
        for c in yinfo["cases"] if not c["name"].endswith("_320x320"))
    low = "; ".join(f"`{k}` " + ", ".join(f"{v:.3f}" for v in vs) for k, vs in yinfo["low_scores"].items())
    text = f"""# YuNet fixtures

Made by `python3 tools/export_weights.py` (see `../PROVENANCE.md`). All PNGs are lossless 8-bit RGB.

## Inputs

`<photo>.png`: every photo of `../shared/photos`, downscaled with `cv2.resize(..., INTER_AREA)` so the
long side is {LONG_SIDE} (rounded sizes `int(w * s + 0.5)`), except `solvay1927.png` at 1024 (its 29
faces are 25-35 px wide there) and `collins_nasa.png`, which is the original 512x512 pixels unchanged.

## How OpenCV's FaceDetectorYN feeds the network

Read from `modules/objdetect/src/face_detect.cpp` (OpenCV 4.x and 5.x alike) and checked here by
decoding onnxruntime's outputs for the same blob and comparing with FaceDetectorYN's faces:

- the caller's image goes in as it is. OpenCV images are **BGR**, and `dnn::blobFromImage(pad_image)`
  is called with every default: scale 1.0, no resize, mean 0, `swapRB=false`, no crop, CV_32F. So the
  blob is BGR planes (channel 0 = blue) of float32 values 0-255, with no normalisation;
- `padWithDivisor` first pads with `copyMakeBorder(img, 0, padH - h, 0, padW - w, BORDER_CONSTANT, 0)`:
  **zeros on the bottom and right only**, up to `padW = ((w - 1) / 32 + 1) * 32` and the same for H;
- the network runs at the padded size (it is fully convolutional; the 640x640 in the file is only
  the export size).

## Raw head outputs: `raw.json`, `raw/<case>/<output>.bin`

Three photos (`two_people`, `biden`, `solvay1927`), each at two network inputs:

- `<photo>_320x320`: `cv2.resize(fixture PNG, (320, 320), INTER_LINEAR)`, stored as `<photo>_320x320.png`
  (a multiple of 32: no padding);
- a non-square input that is not a multiple of 32 on at least one side: {nonsquare}. The Solvay
  case is a crop (`crop` in raw.json) to keep the outputs small (the whole 1024x461 image would need
  0.6 MB). Padding to a multiple of 32 with zeros on the bottom/right is recorded per case.

Each `.bin` is little-endian float32 `[1, N, C]`, row-major, N = (padded_h / s) x (padded_w / s)
anchors in row-major grid order (index = row * cols + col) for stride s in 8, 16, 32:
`cls_s`, `obj_s` (C = 1, sigmoid already applied), `bbox_s` (C = 4: dx, dy, log w, log h in stride
units), `kps_s` (C = 10: x, y of right eye, left eye, nose tip, right mouth corner, left mouth corner,
in stride units). They come from onnxruntime (1 thread, no graph optimisation) on the dequantized
float32 graph. `faces` in each case is FaceDetectorYN's result for that same input.

FaceDetectorYN's decoding, for reference: clamp cls and obj to [0, 1], score = sqrt(cls * obj), keep
score >= threshold; cx = (col + dx) * s, cy = (row + dy) * s, w = exp(log w) * s, h = exp(log h) * s,
box = (cx - w/2, cy - h/2, w, h); landmark k = ((kps[2k] + col) * s, (kps[2k+1] + row) * s); then
`dnn::NMSBoxes` on boxes **truncated to integers** (`Rect2i(int(x), int(y), int(w), int(h))`) with
the score threshold, NMS IoU threshold, eta 1 and top-k. Faces keep their float boxes.

## `faces.json`

`cv2.FaceDetectorYN` with inputSize = the PNG's size, score threshold {SCORE_THRESHOLD}, NMS {NMS_THRESHOLD},
top-k {TOP_K}, on the dequantized float32 YuNet (the int8bq file run directly by OpenCV 5 gives
identical faces). Counts: {", ".join(f"{k} {v}" for k, v in counts.items())}. Solvay: {counts.get("solvay1927.jpg")}
(expected 29). Detections scoring under 0.9: {low or "none"}. Those in `biden2.png` are false
positives on the painting behind him: they are what the reference does, so a faithful port finds
them too.

## `align.json`, `align/*.png`

For {", ".join(p.rsplit(".", 1)[0] for p in ALIGN_PHOTOS)}: every face of faces.json with
`cv2.FaceRecognizerSF.alignCrop` (its 2x3 `warp_matrix`; warpAffine INTER_LINEAR onto 112x112 with a
zero border) and the OpenCV pipeline's embedding (`feature()` on the crop, raw 128-d). The crops of the
first {ALIGN_CROPS_PER_PHOTO} faces of each photo are stored as `align/<photo>_<i>.png`.

Checked on every face here: OpenCV 5.0's warpAffine (INTER_LINEAR, 8-bit) matches a plain float64 bilinear
warp (source point = inverse of `warp_matrix` applied to the destination pixel, 4 neighbours, zero
outside the image, rounded to nearest; `reference.warp_affine_bilinear`): over all {yinfo["align_faces"]}
faces, at most {yinfo["float_warp"][1]} of the 37632 values of a crop differ, by at most
{yinfo["float_warp"][0]}. (A 1/32-pixel fixed-point warp, as older OpenCV versions did, is off by up to
3 levels in ~10% of the values.)
"""
    with open(os.path.join(FIXTURES, "yunet", "README.md"), "w", encoding="utf-8") as f:
        f.write(text)


def write_provenance(infos: dict, photos: str, provenance: dict, yinfo: dict, golden: list, log: list):
    import cv2
    import onnx
    import onnxruntime
    files = []
    for root, _, names in os.walk(FIXTURES):
        for n in names:
            p = os.path.join(root, n)
            if n == ".keep" or rel(p) == "PROVENANCE.md":
                continue
            files.append(p)
    files.sort()
    total = sum(os.path.getsize(p) for p in files)

    def photo_line(photo):
        p = provenance[photo]
        return f"`{photo}` ({p['who']}): {p['source']}; {p['status']}"

    used_photos = sorted({g["source_photo"] for g in golden if g["source_photo"]} | set(yinfo["photo_files"]))
    lines = []
    lines.append("# Fixture provenance\n")
    lines.append("Written by `python3 tools/export_weights.py` (a normal run bakes the weights and then writes "
                 "every fixture here; `tools/golden_fixtures.py` has the choices). The run is reproducible: "
                 "onnxruntime with 1 thread and no graph optimisation, `cv2.setNumThreads(1)`, fixed seeds. "
                 "Everything under `sface/`, `yunet/` and this file is deleted and rewritten by it.\n")
    lines.append("## Models\n")
    for fam, info in infos.items():
        lines.append(f"- {fam}: `{info.file}` (OpenCV Zoo, {info.variant}), sha256 `{info.sha256}`")
    lines.append("\nThe references run the dequantized float32 graph (`tools/reference.py`: int8 weights "
                 "dequantized in numpy exactly as DequantizeLinear defines it, the same float32 values as "
                 "the baked `.glw` files). OpenCV's FaceDetectorYN and FaceRecognizerSF are given that "
                 "graph too.\n")
    lines.append("## Tools\n")
    lines.append(f"- Python {platform.python_version()}, numpy {np.__version__}, onnx {onnx.__version__}, "
                 f"onnxruntime {onnxruntime.__version__}, opencv-python-headless {cv2.__version__}\n")
    lines.append("## Photos\n")
    lines.append("From `../shared/photos` (its PROVENANCE.md):\n")
    for p in used_photos:
        lines.append(f"- {photo_line(p)}")
    lines.append("")
    lines.append("## sface/\n")
    lines.append("- `<name>.png`: 112x112 RGB aligned crops. Faces found by cv2.FaceDetectorYN on the full-"
                 f"resolution photo (score {SCORE_THRESHOLD}, NMS {NMS_THRESHOLD}, top-k {TOP_K}), aligned by "
                 "cv2.FaceRecognizerSF.alignCrop:")
    for g in golden:
        if g["source_photo"]:
            lines.append(f"  - `{g['file']}`: face {g['face_index']} of `{g['source_photo']}`")
    lines.append(f"  - `noise.png`: uniform random bytes, `numpy.random.default_rng({NOISE_SEED})."
                 "integers(0, 256, (112, 112, 3), dtype=uint8)`; `grey.png`: every value 128")
    lines.append("- `golden.json`: one entry per PNG: name, file, source_photo, face_index, box [x, y, w, h] "
                 "and landmarks [[x, y] x 5] in the source photo's pixels (null for the synthetic ones), "
                 "detector score, `embedding` = raw 128-d `fc1` of onnxruntime on the dequantized SFace "
                 "with input = the PNG as float32 RGB 0-255 NCHW, and `opencv_cosine` = its cosine with "
                 "cv2.FaceRecognizerSF.feature on the same crop.")
    lines.append(f"- `layers.json`: for `{SFACE_PROBE}.png`, every PRelu output (conv_N_relu, "
                 "conv_N_dw_relu), bn1, pre_fc1 and fc1 (intermediate outputs added as graph outputs): "
                 "NCHW shape, mean, mean of |x|, and 32 values at fixed [c, y, x] (8 on corners, borders "
                 "and centre lines, 24 drawn with numpy seed 1000 + layer index).\n")
    lines.append("## yunet/\n")
    lines.append("See `yunet/README.md` for the input convention and file layouts.\n")
    lines.append("- `<photo>.png`: each photo downscaled with INTER_AREA to a long side of "
                 f"{LONG_SIDE} (Solvay 1024; Collins unchanged at 512).")
    lines.append("- `<photo>_320x320.png` (two_people, biden, solvay1927): INTER_LINEAR resize of the above.")
    lines.append("- `raw.json`, `raw/<case>/*.bin`: the 12 YuNet head outputs (onnxruntime, dequantized "
                 "graph) for 6 inputs, with shapes, padding and channel order.")
    lines.append("- `faces.json`: cv2.FaceDetectorYN faces for every `<photo>.png`.")
    lines.append("- `align.json`, `align/*.png`: alignCrop + feature() for every face of "
                 f"{', '.join(ALIGN_PHOTOS)}.\n")
    lines.append("## Results of the run that wrote these files\n")
    lines.append("```")
    lines.extend(log)
    lines.append("```\n")
    lines.append(f"## Files ({len(files)}, {total} bytes)\n")
    lines.append("| file | bytes |\n|---|---|")
    for p in files:
        lines.append(f"| `{rel(p)}` | {os.path.getsize(p)} |")
    with open(os.path.join(FIXTURES, "PROVENANCE.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return files, total


# ----------------------------------------------------------------------------------------------


def write_all(sface: str, yunet: str, photos: str, infos: dict):
    import cv2
    cv2.setNumThreads(1)
    try:
        cv2.setLogLevel(2)   # errors only: OpenCV 5's new engine warns about DNN targets
    except AttributeError:
        pass
    photos = os.path.abspath(photos)
    provenance = read_photo_provenance(photos)
    for d in ("sface", "yunet"):
        shutil.rmtree(os.path.join(FIXTURES, d), ignore_errors=True)
    if os.path.exists(os.path.join(FIXTURES, "PROVENANCE.md")):
        os.remove(os.path.join(FIXTURES, "PROVENANCE.md"))
    log: list = []
    golden = make_sface(sface, yunet, photos, log)
    yinfo = make_yunet(sface, yunet, photos, provenance, log)
    write_yunet_readme(yinfo)
    files, total = write_provenance(infos, photos, provenance, yinfo, golden, log)
    for line in log:
        print(line)
    print(f"fixtures: {len(files)} files, {total} bytes under {os.path.relpath(FIXTURES, ref.REPO_ROOT)}")
