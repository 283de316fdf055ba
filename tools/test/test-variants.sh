#!/usr/bin/env bash
# The kernel and golden tests in each register-tile variant this machine can run but the default
# build does not compile. Kernels size their tiles at compile time (Package.swift), one file per
# tile and instruction set (docs/architecture.md): a native build on an AVX-512 machine never
# compiles the -avx2 files (the int8 pointwise kernel on `vpmaddwd` among them), which most users'
# machines run, nor -avxvnni, so this builds them too
# (GLIMT_TARGET_CPU=haswell, and haswell+avxvnni for the int8 kernels on ymm registers, each in a
# build folder of its own) and runs the tests that hold the kernels to their scalar references
# and the models to onnxruntime and OpenCV.
set -euo pipefail
cd "$(dirname "$0")/../.."
tests='TensorLiteTests|GoldenTests|PhotoParityTests|SFaceBatchTests|SFaceInt8Tests'
if grep -qw avx512f /proc/cpuinfo; then
  echo "test-variants: AVX2 tiles (GLIMT_TARGET_CPU=haswell)" >&2
  GLIMT_TARGET_CPU=haswell swift test -c release --disable-testable-imports --scratch-path .build/haswell --filter "$tests" "$@"
else
  echo "test-variants: this CPU has no AVX-512, so the default build already compiled its only wide tiles (AVX2)" >&2
fi
# The int8 kernels on ymm registers (AVX-VNNI): compiled by the default build only on a CPU that
# has AVX-VNNI and no AVX-512.
if grep -qw avx_vnni /proc/cpuinfo && grep -qw avx512f /proc/cpuinfo; then
  echo "test-variants: AVX2 tiles with AVX-VNNI's int8 kernels (GLIMT_TARGET_CPU=haswell+avxvnni)" >&2
  GLIMT_TARGET_CPU=haswell+avxvnni swift test -c release --disable-testable-imports --scratch-path .build/vnni --filter "$tests" "$@"
elif ! grep -qw avx_vnni /proc/cpuinfo; then
  echo "test-variants: this CPU has no AVX-VNNI, so the int8 kernels on ymm registers are not run here" >&2
fi
