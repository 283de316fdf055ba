#!/usr/bin/env bash
# The test suite, as the README gives it: set-up (FFmpeg's -dev packages) then every test.
# Tests run against a release (whole-module optimised) build: the analysis tests embed thousands
# of faces, and a debug engine would make them crawl. Package.swift builds every module
# -enable-testing (tests see internals), so this shares .build/release with `swift run -c release`;
# --disable-testable-imports keeps `swift test` from adding the flag a second time, which makes
# another command line and so recompiles every module.
# An import that Package.swift does not declare is a build error (Plugins/ImportCheck, in every
# build; SwiftPM's own check below also refuses what no dependency brings).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# Test tools, not build needs: strace for the privacy test, a real browser (Debian's chromium)
# for the review page, node for the page's choices script, systemd-analyze for the daily scan's
# units (a container may have no systemd), and GNU parallel for the sharded scans as the README
# runs them.
tools/setup/apt-need.sh test strace chromium nodejs systemd parallel
# --parallel: each test runs in a process of its own, as many at a time as there are cores. Run one
# at a time, the tests kept about one core busy (most wait on what they start: the binary,
# chromium, sqlite3), so a 2-core machine's run took 314 s instead of 362 s. Its report names
# failures only; `tools/test.sh --filter X` (still parallel) or `swift test --filter X` shows one.
swift test -c release --disable-testable-imports --explicit-target-dependency-import-check error --parallel "$@"
