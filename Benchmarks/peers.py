#!/usr/bin/env python3
"""Runs the same model as glimt-bench in onnxruntime and OpenCV DNN, one thread each, on the
same inputs, and prints the median milliseconds per input as JSON. glimt-bench calls this so that
all three engines are timed in one run on one machine (wall times on shared machines drift, so
only side-by-side ratios mean much).

Inputs are raw uint8 RGB images, `count` of them back to back, each `width` x `height`.
The reference graphs are the dequantized float32 ones from tools/reference.py.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
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


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", choices=["sface", "yunet"], required=True)
    ap.add_argument("--onnx", help="ONNX file (default: ../shared/models/...)")
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--repeats", type=int, default=20)
    a = ap.parse_args()

    onnx_path = a.onnx or (R.DEFAULT_SFACE if a.model == "sface" else R.DEFAULT_YUNET)
    if not os.path.exists(onnx_path):
        print(json.dumps({"error": f"{onnx_path}: model file not found"}))
        return
    raw = np.fromfile(a.inputs, dtype=np.uint8).reshape(a.count, a.height, a.width, 3)
    graph = R.dequantized_path(onnx_path)
    if a.model == "sface":
        blobs = [np.ascontiguousarray(x.transpose(2, 0, 1)[None].astype(np.float32)) for x in raw]
    else:
        blobs = [R.yunet_input_blob(x) for x in raw]
    result = {"inputs": a.count, "repeats": a.repeats}

    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(graph, so, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    result["onnxruntime"] = {"version": ort.__version__, "ms": median_ms(lambda b: sess.run(None, {name: b}), blobs, a.repeats)}

    import cv2
    cv2.setNumThreads(1)
    net = cv2.dnn.readNet(graph)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    outs = net.getUnconnectedOutLayersNames()

    def cv_run(b):
        net.setInput(b)
        net.forward(outs)
    result["opencv"] = {"version": cv2.__version__, "ms": median_ms(cv_run, blobs, a.repeats)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
