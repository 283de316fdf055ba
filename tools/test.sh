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
# chromium, sqlite3), so a 2-core machine's run took 327 s instead of about 205 s. Its report names
# failures only; `swift test --filter X` (not parallel) shows one test's output.
common=(-c release --disable-testable-imports --explicit-target-dependency-import-check error)
swift test "${common[@]}" --parallel --skip PackageTests "$@"
# The Debian package's tests (CI=true, or GLIMT_PACKAGE_TESTS=1 elsewhere) each build the package in
# one folder, .build/package: one at a time, after the rest.
if [ $# -eq 0 ] && { [ "${CI:-}" = true ] || [ "${GLIMT_PACKAGE_TESTS:-}" = 1 ]; }; then
  swift test "${common[@]}" --filter PackageTests
fi
