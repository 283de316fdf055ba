#!/usr/bin/env bash
# The test suite, as the README gives it: set-up (FFmpeg's -dev packages) then every test.
# The engine (TensorLite, GlimtPure) is compiled optimised even in this debug build (see
# Package.swift), so the golden and pipeline tests run at full speed.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
swift test "$@"
