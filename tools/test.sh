#!/usr/bin/env bash
# The test suite, as the README gives it: set-up (FFmpeg's -dev packages) then every test.
# Tests run against a release (whole-module optimised) build: the analysis tests embed thousands
# of faces, and a debug engine would make them crawl. -enable-testing lets tests see internals.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
swift test -c release -Xswiftc -enable-testing "$@"
