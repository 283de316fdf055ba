#!/usr/bin/env python3
"""Tests/Fixtures/media/vfr_gap.mp4: a variable-frame-rate clip with a gap, as a phone that drops
frames in the dark writes it: 30 fps to 0.33 s, nothing until 2.4 s, 30 fps again to 3.0 s.
Each frame shows its own number in a band of grey (frame n: grey 8 * n), so a test can tell
which frame it was handed. Needs PyAV (pip install av)."""
import sys
import av
import numpy as np
from fractions import Fraction

out = sys.argv[1] if len(sys.argv) > 1 else "vfr_gap.mp4"
times = [i / 30 for i in range(11)] + [2.4 + i / 30 for i in range(19)]
with av.open(out, "w") as c:
    s = c.add_stream("libx264", rate=30)
    s.width, s.height, s.pix_fmt = 160, 96, "yuv420p"
    s.time_base = Fraction(1, 90000)
    s.options = {"crf": "30", "preset": "veryfast"}
    for n, t in enumerate(times):
        img = np.zeros((96, 160, 3), dtype=np.uint8)
        img[:, :] = 8 * n
        img[40:56, : 5 * n + 5] = 255
        f = av.VideoFrame.from_ndarray(img, format="rgb24")
        f.pts = round(t * 90000)
        f.time_base = Fraction(1, 90000)
        for p in s.encode(f):
            c.mux(p)
    for p in s.encode():
        c.mux(p)
