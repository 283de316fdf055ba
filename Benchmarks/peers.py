#!/usr/bin/env python3
"""Runs the same model as glimt-bench in onnxruntime and OpenCV DNN, one thread each, on the
same inputs, and prints the median milliseconds per input as JSON. glimt-bench calls this so that
all three engines are timed in one run on one machine (wall times on shared machines drift, so
only side-by-side ratios mean much).

Inputs are raw uint8 RGB images, `count` of them back to back, each `width` x `height`.
The reference graphs are the dequantized float32 ones from tools/models/reference.py. `--batch B` runs
SFace on B faces per call (times stay per face). `--model align` times cv2.FaceRecognizerSF's
alignCrop of one face (`--landmarks`, 10 numbers) per image instead of a network. The output
also gives the graph's GFLOP per input (2 x multiply-adds of its Conv and Gemm nodes), so the
benchmark's GFLOPS figures come from the graph itself, not from a number typed in.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "models"))
import reference as R  # noqa: E402


def median_ms(fn, inputs, repeats):
    for x in inputs:  # warm-up
        fn(x)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for x in inputs:
            fn(x)
        times.append((time.perf_counter() - t0) * 1000 / len(inputs))
    return float(np.median(times))


def graph_gflop(graph_path, shape):
    """2 x multiply-adds of every Conv and Gemm/MatMul for an input of `shape` (NCHW)."""
    import onnx
    from onnx import shape_inference
    m = onnx.load(graph_path)
    for d, v in zip(m.graph.input[0].type.tensor_type.shape.dim, shape):
        d.ClearField("dim_param")
        d.dim_value = v
    m = shape_inference.infer_shapes(m)
    dims = {i.name: list(i.dims) for i in m.graph.initializer}
    for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        dims[vi.name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    macs = 0
    for n in m.graph.node:
        if n.op_type == "Conv":  # weight is (out, in / group, kh, kw): each output sums in/group x kh x kw
            w = dims[n.input[1]]
            macs += int(np.prod(dims[n.output[0]])) * w[1] * w[2] * w[3]
        elif n.op_type in ("Gemm", "MatMul"):
            a, out = dims[n.input[0]], dims[n.output[0]]
            macs += int(np.prod(out)) * a[-1]
    return 2 * macs / 1e9 / shape[0]


def batched_graph(graph_path):
    """A copy of the graph with a free batch dimension (the reference graph fixes it to 1)."""
    import tempfile
    import onnx
    m = onnx.load(graph_path)
    for v in list(m.graph.input[:1]) + list(m.graph.output):
        v.type.tensor_type.shape.dim[0].dim_param = "N"
    del m.graph.value_info[:]
    out = os.path.join(tempfile.gettempdir(), f"glimt-bench-batched-{os.getpid()}.onnx")
    onnx.save(m, out)
    return out


def align_peer(raw, landmarks, repeats):
    """cv2.FaceRecognizerSF.alignCrop on each image (given as BGR, as OpenCV expects)."""
    import cv2
    cv2.setNumThreads(1)
    rec = cv2.FaceRecognizerSF.create(R.dequantized_path(R.DEFAULT_SFACE), "")
    row = np.zeros((1, 15), np.float32)
    row[0, 4:14] = landmarks
    images = [np.ascontiguousarray(x[:, :, ::-1]) for x in raw]
    return {"opencv": {"version": cv2.__version__, "ms": median_ms(lambda b: rec.alignCrop(b, row), images, repeats)}}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", choices=["sface", "yunet", "align"], required=True)
    ap.add_argument("--onnx", help="ONNX file (default: ../shared/models/...)")
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--batch", type=int, default=1, help="SFace faces per call")
    ap.add_argument("--landmarks", help="align: 10 comma-separated numbers, 5 (x, y) points")
    a = ap.parse_args()
    if a.model == "align":
        raw = np.fromfile(a.inputs, dtype=np.uint8).reshape(a.count, a.height, a.width, 3)
        print(json.dumps(align_peer(raw, [float(v) for v in a.landmarks.split(",")], a.repeats)))
        return

    onnx_path = a.onnx or (R.DEFAULT_SFACE if a.model == "sface" else R.DEFAULT_YUNET)
    if not os.path.exists(onnx_path):
        print(json.dumps({"error": f"{onnx_path}: model file not found"}))
        return
    raw = np.fromfile(a.inputs, dtype=np.uint8).reshape(a.count, a.height, a.width, 3)
    graph = R.dequantized_path(onnx_path)
    if a.model == "sface":
        faces = np.ascontiguousarray(raw.transpose(0, 3, 1, 2).astype(np.float32))
        b = max(1, a.batch)
        blobs = [faces[i:i + b] for i in range(0, len(faces) - b + 1, b)]
    else:
        blobs = [R.yunet_input_blob(x) for x in raw]
    if a.model == "sface" and b > 1:
        graph = batched_graph(graph)
    result = {"inputs": a.count, "repeats": a.repeats, "batch": a.batch if a.model == "sface" else 1,
              "gflop": graph_gflop(graph, list(blobs[0].shape))}
    per_input = len(blobs[0])  # median_ms is per call; report per face

    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(graph, so, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    result["onnxruntime"] = {"version": ort.__version__, "ms": median_ms(lambda b: sess.run(None, {name: b}), blobs, a.repeats) / per_input}

    import cv2
    cv2.setNumThreads(1)
    net = cv2.dnn.readNet(graph)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    outs = net.getUnconnectedOutLayersNames()

    def cv_run(b):
        net.setInput(b)
        net.forward(outs)
    result["opencv"] = {"version": cv2.__version__, "ms": median_ms(cv_run, blobs, a.repeats) / per_input}
    if graph.endswith(f"-batched-{os.getpid()}.onnx"):
        os.remove(graph)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
