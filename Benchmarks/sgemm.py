#!/usr/bin/env python3
"""One-thread single-precision matrix multiply with numpy, as the yardstick for glimt-bench's
GFLOPS figures: the fraction of this a model reaches says how far its kernels are from what the
machine's BLAS does with one core. glimt-bench runs it with OPENBLAS_NUM_THREADS=1 (and the MKL and
OpenMP equivalents) so it is one thread whatever BLAS numpy links.

Prints {"gflops": best over the sizes, "sizes": {n: GFLOPS}, "blas": ...} as JSON.
"""
import json
import time

import numpy as np


def blas_name():
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        return f'{blas.get("name", "?")} {blas.get("version", "")}'.strip()
    except Exception:  # older numpy: no dict mode
        return "unknown BLAS"


def openblas_core():
    """The kernel family OpenBLAS chose for this CPU (e.g. "Haswell" is its AVX2 code): the
    yardstick is that kernel's speed, not the CPU's peak."""
    import ctypes
    import glob
    import os
    folder = os.path.dirname(np.__file__)
    for lib in glob.glob(os.path.join(folder, "..", "numpy.libs", "*openblas*")) + glob.glob(os.path.join(folder, ".libs", "*openblas*")):
        try:
            dll = ctypes.CDLL(lib)
        except OSError:
            continue
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_", "openblas_get_corename"):
            f = getattr(dll, name, None)
            if f is not None:
                f.restype = ctypes.c_char_p
                return f().decode()
    return None


def main():
    rng = np.random.default_rng(1)
    sizes = {}
    for n in (256, 512, 1024):
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        a @ b  # warm-up
        runs = max(3, int(2e9 / (2 * n ** 3)))  # about 2 GFLOP per size
        best = min(timed(a, b) for _ in range(runs))
        sizes[n] = 2 * n ** 3 / best / 1e9
    # The best size: the least disturbed by anything else on the machine.
    core = openblas_core()
    blas = blas_name() + (f", {core} kernels" if core else "")
    print(json.dumps({"gflops": max(sizes.values()), "sizes": sizes, "blas": blas, "numpy": np.__version__}))


def timed(a, b):
    t0 = time.perf_counter()
    a @ b
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
