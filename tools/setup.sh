#!/usr/bin/env bash
# Installs what glimt-pure needs to build and run: FFmpeg's and SQLite's development libraries and
# pkg-config.
# Python is only for tools/ (weight export, reference comparisons) and is not installed here.
set -euo pipefail
"$(dirname "$0")/setup/apt-need.sh" setup libavcodec-dev libavformat-dev libswscale-dev libswresample-dev libavutil-dev libsqlite3-dev pkg-config
pkg-config --exists libavformat libavcodec libswscale libavutil libswresample || {
  echo "setup: FFmpeg development libraries not found by pkg-config" >&2; exit 1; }
pkg-config --exists sqlite3 || { echo "setup: SQLite development library not found by pkg-config" >&2; exit 1; }
