"""Reference implementations of glimt-pure's two face models, for fixtures, benchmarks and comparisons.

The models are OpenCV Zoo's SFace (2021dec) and YuNet (2023mar). Their `int8bq` releases keep the
weights as int8 blocks with float32 scales and run every operation in float32, but neither
onnxruntime nor OpenCV 5's DNN runs those files as they are (old-IR graph inputs that shadow
initializers, blocked DequantizeLinear with a per-tensor-shaped scale). This module therefore
dequantizes the weights in numpy (value = (q - zero_point) * scale, the scale repeated over each
block along the given axis, computed in float32 exactly as the ONNX operator defines it) and
writes a plain float32 graph that onnxruntime and OpenCV both run. That graph is the reference.

Public functions:
  model_info(path)                 -> ModelInfo for a known model file (by sha256), else raises
  analyse(model)                   -> GraphParams: every weight the graph uses, traced to initializers
  dequantized_graph(path, out=None)-> serialized float32 ONNX (bytes); also written to `out` if given
  dequantized_path(path)           -> path of a cached dequantized copy (in a temp dir)
  sface_embed(rgb112, model=None)  -> 128-d raw fc1 output (onnxruntime, 1 thread)
  sface_probe(rgb112, names, model=None) -> dict of intermediate outputs by tensor name
  yunet_input_blob(rgb)            -> the NCHW float32 blob FaceDetectorYN builds (BGR, padded)
  yunet_raw(rgb_padded, model=None)-> dict of the 12 head outputs (onnxruntime, 1 thread)
  decode_yunet(raw, pad_w, pad_h, ...) -> faces, mirroring FaceDetectorYN::postProcess
  detect(rgb, ...)                 -> faces via cv2.FaceDetectorYN (N x 15 float32 rows)
  align_crop(rgb, face)            -> 112x112 RGB crop via cv2.FaceRecognizerSF.alignCrop
  similarity_transform(landmarks)  -> the 2x3 matrix alignCrop uses (numpy port, for the record)
  cv_feature(rgb112, model=None)   -> embedding via cv2.FaceRecognizerSF.feature

Images are numpy uint8 arrays, H x W x 3, in RGB order unless a name says otherwise.

How OpenCV's FaceDetectorYN builds YuNet's input (modules/objdetect/src/face_detect.cpp, 4.x and
5.x alike): `padWithDivisor` copies the image into a zero border on the bottom and right
(copyMakeBorder(..., 0, padH - inputH, 0, padW - inputW, BORDER_CONSTANT, 0)) with padW/padH the
input size rounded up to a multiple of 32, then `dnn::blobFromImage(pad_image)` with every default:
scale 1.0, no resize, mean 0, swapRB=false, no crop, CV_32F. So the network sees the caller's image
as it is, which in OpenCV is BGR: channel 0 = blue, float32 0-255, no normalisation.
FaceRecognizerSF::feature instead calls blobFromImage(crop, 1, Size(112, 112), 0, swapRB=true), so
SFace sees RGB 0-255 (its graph subtracts 127.5 and multiplies by 0.0078125 itself).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import os
import tempfile
from typing import Dict, List, Optional, Sequence

import numpy as np
import onnx
from onnx import helper, numpy_helper

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_SFACE = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "models",
                                              "face_recognition_sface_2021dec_int8bq.onnx"))
DEFAULT_YUNET = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "models",
                                              "face_detection_yunet_2023mar_int8bq.onnx"))


# ----------------------------------------------------------------------------------------------
# Known model files


@dataclasses.dataclass(frozen=True)
class ModelInfo:
    family: str       # "sface" or "yunet"
    name: str         # model name written into the .glw header
    variant: str      # "int8bq", "fp32", "int8"
    file: str         # OpenCV Zoo's file name
    sha256: str


KNOWN_MODELS: Dict[str, ModelInfo] = {m.sha256: m for m in [
    ModelInfo("sface", "sface-2021dec", "int8bq", "face_recognition_sface_2021dec_int8bq.onnx",
              "fb143eea07838aa532d1c95df5f69899974ea0140e1fba05e94204be13ed74ee"),
    ModelInfo("sface", "sface-2021dec", "fp32", "face_recognition_sface_2021dec.onnx",
              "0ba9fbfa01b5270c96627c4ef784da859931e02f04419c829e83484087c34e79"),
    ModelInfo("sface", "sface-2021dec", "int8", "face_recognition_sface_2021dec_int8.onnx",
              "2b0e941e6f16cc048c20aee0c8e31f569118f65d702914540f7bfdc14048d78a"),
    ModelInfo("yunet", "yunet-2023mar", "int8bq", "face_detection_yunet_2023mar_int8bq.onnx",
              "49f000ec501fef24739071fc7e68267d32209045b6822c0c72dce1da25726f10"),
    ModelInfo("yunet", "yunet-2023mar", "fp32", "face_detection_yunet_2023mar.onnx",
              "8f2383e4dd3cfbb4553ea8718107fc0423210dc964f9f4280604804ed2552fa4"),
]}


class ModelError(Exception):
    """A model file that is unknown or that this tool cannot handle; the message says why."""


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def model_info(path: str, family: Optional[str] = None) -> ModelInfo:
    """The ModelInfo of a known model file; raises ModelError naming the file and its digest."""
    if not os.path.isfile(path):
        raise ModelError(f"{path}: no such file")
    digest = sha256_file(path)
    info = KNOWN_MODELS.get(digest)
    if info is None:
        known = "\n".join(f"  {m.sha256}  {m.file}" for m in KNOWN_MODELS.values())
        raise ModelError(f"{path}: unknown model file (sha256 {digest}); known files are:\n{known}")
    if family is not None and info.family != family:
        raise ModelError(f"{path} (sha256 {digest}) is {info.file}, a {info.family} model, "
                         f"not a {family} model")
    return info


# ----------------------------------------------------------------------------------------------
# Tracing the weights of a graph back to its initializers


def dequantize_linear(q: np.ndarray, scale: np.ndarray, zp: Optional[np.ndarray], axis: int,
                      block: int) -> np.ndarray:
    """ONNX DequantizeLinear on int8 in numpy, float32 throughout: (q - zp) * scale.

    block > 0: blocked quantization, scale/zp have q's shape with dim `axis` = ceil(D / block)
    and are repeated `block` times along `axis`. block == 0: per-tensor (scale of size 1) or
    per-axis (1-D scale of length q.shape[axis])."""
    q = np.asarray(q)
    scale = np.asarray(scale, dtype=np.float32)
    zp = np.zeros(scale.shape, np.int8) if zp is None else np.asarray(zp)
    axis = axis % q.ndim if q.ndim else 0
    if block > 0:
        d = q.shape[axis]
        scale = np.repeat(scale, block, axis=axis).take(range(d), axis=axis)
        zp = np.repeat(zp, block, axis=axis).take(range(d), axis=axis)
    elif scale.size == 1:
        scale = scale.reshape(())
        zp = zp.reshape(())
    else:
        bshape = [1] * q.ndim
        bshape[axis] = q.shape[axis]
        scale = scale.reshape(bshape)
        zp = zp.reshape(bshape)
    diff = q.astype(np.int32) - zp.astype(np.int32)
    return (diff.astype(np.float32) * scale).astype(np.float32)


@dataclasses.dataclass
class Param:
    """One weight tensor as a compute node consumes it."""
    tensor: str                 # the tensor name the compute node reads
    base: str                   # initializer name, quantization suffix dropped
    kind: int                   # 0 float32, 1 int8 block-quantized
    shape: tuple                # logical shape (after any Reshape)
    initializers: List[str]     # initializer names this weight is made of
    plumbing: List[str]         # names of the DequantizeLinear/Reshape/Identity nodes on the way
    values: Optional[np.ndarray] = None   # kind 0
    q: Optional[np.ndarray] = None        # kind 1, in `layout` shape
    scales: Optional[np.ndarray] = None   # kind 1, S values (layout with dim axis -> blocks)
    zero_points: Optional[np.ndarray] = None
    layout: tuple = ()
    axis: int = 0
    block: int = 0

    def dequantized(self) -> np.ndarray:
        if self.kind == 0:
            return self.values.reshape(self.shape)
        return dequantize_linear(self.q, self.scales.reshape(self.scale_shape),
                                 self.zero_points.reshape(self.scale_shape), self.axis,
                                 self.block).reshape(self.shape)

    @property
    def scale_shape(self) -> tuple:
        s = list(self.layout)
        s[self.axis] = math.ceil(s[self.axis] / self.block)
        return tuple(s)


_QUANT_SUFFIXES = ("_quantized", "_dequantized", "_reshaped")


def _strip_quant_suffix(name: str) -> str:
    for s in _QUANT_SUFFIXES:
        if name.endswith(s):
            return name[: -len(s)]
    return name


class GraphParams:
    """Index of a graph: producers, consumers, constants; resolves weights to Params."""

    def __init__(self, model: onnx.ModelProto):
        self.model = model
        g = model.graph
        self.initializers = {t.name: t for t in g.initializer}
        self.constants = {}   # Constant node outputs
        self.producer = {}
        self.consumers: Dict[str, list] = {}
        for n in g.node:
            for o in n.output:
                self.producer[o] = n
            for i in n.input:
                if i:
                    self.consumers.setdefault(i, []).append(n)
            if n.op_type == "Constant":
                attr = {a.name: a for a in n.attribute}
                if "value" in attr:
                    self.constants[n.output[0]] = numpy_helper.to_array(attr["value"].t)
        self._cache: Dict[str, Optional[Param]] = {}

    def const(self, name: str) -> Optional[np.ndarray]:
        if name in self.initializers:
            return numpy_helper.to_array(self.initializers[name])
        return self.constants.get(name)

    def resolve(self, name: str) -> Optional[Param]:
        """The Param a tensor is, if it is computed from initializers alone by DequantizeLinear,
        Reshape and Identity (or is a float initializer); None for activations."""
        if name not in self._cache:
            self._cache[name] = self._resolve(name)
        return self._cache[name]

    def _resolve(self, name: str) -> Optional[Param]:
        if name in self.initializers:
            a = numpy_helper.to_array(self.initializers[name])
            if a.dtype != np.float32:
                return None   # int64 shapes and the like are structure, not weights
            return Param(tensor=name, base=name, kind=0, shape=tuple(a.shape), initializers=[name],
                         plumbing=[], values=a.astype(np.float32))
        node = self.producer.get(name)
        if node is None:
            return None
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Identity":
            p = self.resolve(node.input[0])
            if p is None:
                return None
            return dataclasses.replace(p, tensor=name, plumbing=p.plumbing + [node.name])
        if node.op_type == "Reshape":
            p = self.resolve(node.input[0])
            if p is None:
                return None
            shape_name = node.input[1]
            target = self.const(shape_name)
            if target is None:
                raise ModelError(f"Reshape {node.name!r} of weight {p.base!r} has a non-constant shape")
            if attrs.get("allowzero", 0):
                raise ModelError(f"Reshape {node.name!r} uses allowzero, not supported")
            tgt = [int(d) if d != 0 else p.shape[i] for i, d in enumerate(target.tolist())]
            new_shape = np.empty(p.shape, np.uint8).reshape(tgt).shape
            inits = p.initializers + ([shape_name] if shape_name in self.initializers else [])
            return dataclasses.replace(p, tensor=name, shape=tuple(new_shape), initializers=inits,
                                       plumbing=p.plumbing + [node.name])
        if node.op_type == "DequantizeLinear":
            ins = list(node.input) + [""] * (3 - len(node.input))
            if not all(i == "" or i in self.initializers for i in ins):
                raise ModelError(f"DequantizeLinear {node.name!r} reads a tensor that is not an "
                                 f"initializer ({ins}); only weights stored as initializers are supported")
            q = numpy_helper.to_array(self.initializers[ins[0]])
            scale = numpy_helper.to_array(self.initializers[ins[1]])
            zp = numpy_helper.to_array(self.initializers[ins[2]]) if ins[2] else None
            if q.dtype != np.int8 or (zp is not None and zp.dtype != np.int8):
                raise ModelError(f"DequantizeLinear {node.name!r}: only int8 values and zero points "
                                 f"are supported (got {q.dtype}, {None if zp is None else zp.dtype})")
            if scale.dtype != np.float32:
                raise ModelError(f"DequantizeLinear {node.name!r}: scale must be float32, got {scale.dtype}")
            if "output_dtype" in attrs and attrs["output_dtype"] not in (0, onnx.TensorProto.FLOAT):
                raise ModelError(f"DequantizeLinear {node.name!r}: output_dtype {attrs['output_dtype']}")
            axis = int(attrs.get("axis", 1))
            block = int(attrs.get("block_size", 0))
            if zp is None:
                zp = np.zeros(scale.shape, np.int8)
            layout, q_axis, q_block, sc, zz = _as_blocked(node.name, q, scale, zp, axis, block)
            inits = [i for i in ins if i]
            return Param(tensor=name, base=_strip_quant_suffix(ins[0]), kind=1, shape=tuple(q.shape),
                         initializers=inits, plumbing=[node.name], q=q.reshape(layout),
                         scales=sc, zero_points=zz, layout=layout, axis=q_axis, block=q_block)
        return None


def _as_blocked(where: str, q, scale, zp, axis, block):
    """Express any int8 DequantizeLinear as the .glw block layout, value-exactly:
    (layout shape, axis, block size, scales, zero points) with the scales laid out as the layout
    with dim `axis` replaced by ceil(D / B)."""
    if q.ndim == 0:
        q = q.reshape(1)
    axis = axis % q.ndim
    if block > 0:
        d = q.shape[axis]
        want = list(q.shape)
        want[axis] = math.ceil(d / block)
        if list(scale.shape) != want or list(zp.shape) != want:
            raise ModelError(f"DequantizeLinear {where!r}: blocked scale shape {list(scale.shape)}, "
                             f"zero point {list(zp.shape)}, expected {want}")
        return tuple(q.shape), axis, block, scale.reshape(-1), zp.reshape(-1)
    if scale.size == 1:   # per tensor: one block over the flattened tensor
        return (q.size,), 0, q.size, scale.reshape(-1), zp.reshape(-1)
    if scale.ndim == 1 and scale.size == q.shape[axis] and axis == 0:
        # per output channel: rows of [D0, rest], one block per row
        rest = q.size // q.shape[0]
        return (q.shape[0], rest), 1, rest, scale.reshape(-1), zp.reshape(-1)
    raise ModelError(f"DequantizeLinear {where!r}: per-axis quantization along axis {axis} of a "
                     f"{list(q.shape)} tensor cannot be stored as blocks along one axis")


def analyse(model: onnx.ModelProto) -> GraphParams:
    return GraphParams(model)


# ----------------------------------------------------------------------------------------------
# The dequantized float32 graph


def _dequantized_model(model: onnx.ModelProto) -> onnx.ModelProto:
    gp = GraphParams(model)
    g = model.graph
    plumbing_ops = {"DequantizeLinear", "Reshape", "Identity"}
    weight_outputs = {n.output[0] for n in g.node
                      if n.op_type in plumbing_ops and gp.resolve(n.output[0]) is not None}
    keep_nodes = [n for n in g.node if not (n.output and n.output[0] in weight_outputs)]
    # Every node input that is a weight made by plumbing becomes a float32 initializer.
    new_inits: Dict[str, onnx.TensorProto] = {}
    for n in keep_nodes:
        for i in n.input:
            if i in weight_outputs and i not in new_inits:
                new_inits[i] = numpy_helper.from_array(gp.resolve(i).dequantized(), name=i)
    used = {i for n in keep_nodes for i in n.input if i}
    inits = [t for t in g.initializer if t.name in used] + [new_inits[k] for k in sorted(new_inits)]
    init_names = {t.name for t in inits}
    produced = {o for n in keep_nodes for o in n.output}
    # Old-IR graphs list initializers (and here even removed weights) as graph inputs: keep only
    # the real inputs.
    inputs = [onnx.ValueInfoProto.FromString(i.SerializeToString()) for i in g.input
              if i.name not in init_names and i.name in used and i.name not in produced]
    outputs = [onnx.ValueInfoProto.FromString(o.SerializeToString()) for o in g.output]
    if {o.name for o in outputs} >= {"cls_8", "kps_32"}:
        # YuNet is fully convolutional: let H and W vary (FaceDetectorYN sets them per image).
        for i in inputs:
            dims = i.type.tensor_type.shape.dim
            dims[2].dim_param, dims[3].dim_param = "H", "W"
        for o in outputs:
            dims = o.type.tensor_type.shape.dim
            if len(dims) == 3:
                dims[1].dim_param = "N"
    # value_info is dropped: it only holds shape hints, some fixed to the 640x640 export size.
    graph = helper.make_graph(keep_nodes, g.name or "graph", inputs, outputs, inits)
    out = helper.make_model(graph, opset_imports=list(model.opset_import),
                            producer_name="glimt-pure tools/models/reference.py (dequantized)")
    out.ir_version = 10
    onnx.checker.check_model(out)
    return out


def dequantized_graph(path: str, out: Optional[str] = None) -> bytes:
    """The float32 graph of a model file (weights dequantized in numpy, initializer-shadowing
    graph inputs dropped), serialized; also written to `out` when given."""
    data = _dequantized_model(onnx.load(path)).SerializeToString()
    if out is not None:
        with open(out, "wb") as f:
            f.write(data)
    return data


_TMP = None


@functools.lru_cache(maxsize=None)
def dequantized_path(path: str) -> str:
    """Path of a dequantized float32 copy of `path`, made once per process in a temp dir."""
    global _TMP
    if _TMP is None:
        _TMP = tempfile.TemporaryDirectory(prefix="glimt-ref-")
    digest = sha256_file(path)
    out = os.path.join(_TMP.name, f"{digest[:16]}-{os.path.basename(path)}")
    if not os.path.exists(out):
        dequantized_graph(path, out)
    return out


# ----------------------------------------------------------------------------------------------
# onnxruntime runners (1 thread, no graph optimisation: every op as the graph writes it)


@functools.lru_cache(maxsize=None)
def _session(path: str, extra_outputs: tuple = ()):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    model_path = dequantized_path(path)
    if extra_outputs:
        m = onnx.load(model_path)
        have = {o.name for o in m.graph.output}
        for name in extra_outputs:
            if name not in have:
                m.graph.output.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
        return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return ort.InferenceSession(model_path, so, providers=["CPUExecutionProvider"])


def _nchw(rgb: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(rgb.astype(np.float32).transpose(2, 0, 1)[None])


def sface_embed(rgb112: np.ndarray, model: str = DEFAULT_SFACE) -> np.ndarray:
    """Raw 128-d fc1 output of SFace on a 112x112 RGB uint8 crop (input float32 RGB 0-255 NCHW)."""
    assert rgb112.shape == (112, 112, 3), rgb112.shape
    sess = _session(model)
    return sess.run(["fc1"], {sess.get_inputs()[0].name: _nchw(rgb112)})[0].reshape(128)


def sface_probe(rgb112: np.ndarray, names: Sequence[str], model: str = DEFAULT_SFACE) -> Dict[str, np.ndarray]:
    """Intermediate tensors of SFace by name (added as graph outputs)."""
    sess = _session(model, tuple(names))
    outs = sess.run(list(names), {sess.get_inputs()[0].name: _nchw(rgb112)})
    return dict(zip(names, outs))


YUNET_OUTPUTS = ["cls_8", "cls_16", "cls_32", "obj_8", "obj_16", "obj_32",
                 "bbox_8", "bbox_16", "bbox_32", "kps_8", "kps_16", "kps_32"]


def pad_to_32(rgb: np.ndarray) -> np.ndarray:
    """Zero padding on the bottom and right to multiples of 32, as FaceDetectorYN::padWithDivisor."""
    h, w = rgb.shape[:2]
    ph, pw = (h - 1) // 32 * 32 + 32, (w - 1) // 32 * 32 + 32
    out = np.zeros((ph, pw, 3), np.uint8)
    out[:h, :w] = rgb
    return out


def yunet_input_blob(rgb: np.ndarray) -> np.ndarray:
    """The blob FaceDetectorYN feeds YuNet for an RGB image: padded to 32 with zeros bottom/right,
    channels in BGR order (OpenCV images are BGR and blobFromImage does not swap), float32 0-255."""
    padded = pad_to_32(rgb)
    return _nchw(padded[:, :, ::-1])


def yunet_raw(rgb_padded: np.ndarray, model: str = DEFAULT_YUNET) -> Dict[str, np.ndarray]:
    """The 12 YuNet head outputs for an RGB image already padded to multiples of 32."""
    h, w = rgb_padded.shape[:2]
    assert h % 32 == 0 and w % 32 == 0, (h, w)
    sess = _session(model)
    outs = sess.run(YUNET_OUTPUTS, {sess.get_inputs()[0].name: _nchw(rgb_padded[:, :, ::-1])})
    return dict(zip(YUNET_OUTPUTS, outs))


def decode_yunet(raw: Dict[str, np.ndarray], pad_w: int, pad_h: int, score_threshold: float = 0.6,
                 nms_threshold: float = 0.3, top_k: int = 5000) -> np.ndarray:
    """FaceDetectorYN::postProcess in numpy: rows of (x, y, w, h, 5 x (x, y), score), float32."""
    import cv2
    rows = []
    for s in (8, 16, 32):
        cols_n, rows_n = pad_w // s, pad_h // s
        cls = np.clip(raw[f"cls_{s}"].reshape(-1), 0, 1)
        obj = np.clip(raw[f"obj_{s}"].reshape(-1), 0, 1)
        bbox = raw[f"bbox_{s}"].reshape(-1, 4)
        kps = raw[f"kps_{s}"].reshape(-1, 10)
        assert cls.size == cols_n * rows_n
        score = np.sqrt(cls * obj).astype(np.float32)
        for idx in np.nonzero(score >= score_threshold)[0]:
            r, c = divmod(int(idx), cols_n)
            cx = np.float32((c + bbox[idx, 0]) * s)
            cy = np.float32((r + bbox[idx, 1]) * s)
            w = np.float32(np.exp(bbox[idx, 2]) * s)
            h = np.float32(np.exp(bbox[idx, 3]) * s)
            f = [cx - w / np.float32(2), cy - h / np.float32(2), w, h]
            for n in range(5):
                f += [(kps[idx, 2 * n] + c) * s, (kps[idx, 2 * n + 1] + r) * s]
            rows.append(np.array(f + [score[idx]], np.float32))
    if len(rows) <= 1:
        return np.array(rows, np.float32).reshape(-1, 15)
    faces = np.stack(rows)
    boxes = [[int(x), int(y), int(w), int(h)] for x, y, w, h in faces[:, :4]]
    keep = cv2.dnn.NMSBoxes(boxes, faces[:, 14].tolist(), score_threshold, nms_threshold, 1.0, top_k)
    return faces[np.array(keep, dtype=int).reshape(-1)]


def detect(rgb: np.ndarray, score_threshold: float = 0.6, nms_threshold: float = 0.3,
           top_k: int = 5000, model: str = DEFAULT_YUNET, dequantize: bool = True) -> np.ndarray:
    """cv2.FaceDetectorYN on an RGB image (given to OpenCV as BGR) with inputSize = image size.
    Returns N x 15 float32 rows (x, y, w, h, re, le, nose, rcm, lcm as (x, y), score).
    dequantize=False runs the model file as it is (OpenCV 5 runs the YuNet int8bq file)."""
    import cv2
    h, w = rgb.shape[:2]
    path = dequantized_path(model) if dequantize else model
    det = cv2.FaceDetectorYN.create(path, "", (w, h), score_threshold, nms_threshold, top_k)
    _, faces = det.detect(np.ascontiguousarray(rgb[:, :, ::-1]))
    return np.zeros((0, 15), np.float32) if faces is None else faces.astype(np.float32)


@functools.lru_cache(maxsize=None)
def _recognizer(model: str):
    import cv2
    return cv2.FaceRecognizerSF.create(dequantized_path(model), "")


def align_crop(rgb: np.ndarray, face: np.ndarray, model: str = DEFAULT_SFACE) -> np.ndarray:
    """cv2.FaceRecognizerSF.alignCrop (similarity transform of the 5 landmarks, warpAffine
    INTER_LINEAR, 112x112, zero border) on an RGB image; returns the RGB crop."""
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    crop = _recognizer(model).alignCrop(bgr, np.asarray(face, np.float32).reshape(1, -1))
    return np.ascontiguousarray(crop[:, :, ::-1])


def cv_feature(rgb112: np.ndarray, model: str = DEFAULT_SFACE) -> np.ndarray:
    """cv2.FaceRecognizerSF.feature on an RGB crop (handed to OpenCV as BGR; feature swaps it)."""
    bgr = np.ascontiguousarray(rgb112[:, :, ::-1])
    return _recognizer(model).feature(bgr).reshape(128).astype(np.float32)


ARCFACE_DST = np.array([[38.2946, 51.6963], [73.5318, 51.5014], [56.0252, 71.7366],
                        [41.5493, 92.3655], [70.7299, 92.2041]], np.float32)


def similarity_transform(landmarks: np.ndarray) -> np.ndarray:
    """FaceRecognizerSF's getSimilarityTransformMatrix (Umeyama), ported to numpy with the same
    float32/double mix: float32 means and demeaned points, float32 products summed in double.
    Returns the 2x3 float64 matrix alignCrop hands to warpAffine."""
    f32 = np.float32
    src = np.asarray(landmarks, f32).reshape(5, 2)
    dst = ARCFACE_DST
    src_mean = []
    for k in range(2):
        acc = f32(0)
        for i in range(5):
            acc = f32(acc + src[i, k])
        src_mean.append(f32(acc / f32(5)))
    src_mean = np.array(src_mean, f32)
    dst_mean = np.array([56.0262, 71.9008], f32)
    sd = (src - src_mean).astype(f32)
    dd = (dst - dst_mean).astype(f32)

    def dot(x, y):
        acc = 0.0
        for i in range(5):
            acc += float(f32(x[i] * y[i]))
        return acc / 5

    a = np.array([[dot(dd[:, 0], sd[:, 0]), dot(dd[:, 0], sd[:, 1])],
                  [dot(dd[:, 1], sd[:, 0]), dot(dd[:, 1], sd[:, 1])]])
    d = np.array([1.0, 1.0])
    if a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0] < 0:
        d[1] = -1
    u, s, vt = np.linalg.svd(a)
    t = u @ np.diag(d) @ vt
    var = dot(sd[:, 0], sd[:, 0]) + dot(sd[:, 1], sd[:, 1])
    scale = 1.0 / var * (s[0] * d[0] + s[1] * d[1])
    ts = t @ src_mean.astype(np.float64)
    m = np.zeros((2, 3))
    m[:, 2] = dst_mean.astype(np.float64) - scale * ts
    m[:, :2] = t * scale
    return m


def warp_affine_bilinear(rgb: np.ndarray, m: np.ndarray, size=(112, 112)) -> np.ndarray:
    """A plain float64 bilinear warpAffine (dst(x, y) = src(M^-1 [x, y, 1]), zero outside the
    image, rounded to nearest): what a straightforward port of alignCrop computes."""
    m = np.asarray(m, np.float64)
    a = np.vstack([m, [0, 0, 1]])
    inv = np.linalg.inv(a)[:2]
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    sx = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]
    sy = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]
    x0 = np.floor(sx).astype(np.int64)
    y0 = np.floor(sy).astype(np.int64)
    fx, fy = sx - x0, sy - y0
    H, W = rgb.shape[:2]
    out = np.zeros((h, w, rgb.shape[2]))
    for dy in (0, 1):
        for dx in (0, 1):
            wgt = (fx if dx else 1 - fx) * (fy if dy else 1 - fy)
            xx, yy = x0 + dx, y0 + dy
            ok = (xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)
            v = np.zeros((h, w, rgb.shape[2]))
            v[ok] = rgb[yy[ok], xx[ok]]
            out += wgt[..., None] * v
    return np.clip(np.floor(out + 0.5), 0, 255).astype(np.uint8)
