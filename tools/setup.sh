#!/usr/bin/env bash
# Installs what glimt-pure needs to build and run: FFmpeg's and SQLite's development libraries and
# pkg-config.
# Python is only for tools/ (weight export, reference comparisons) and is not installed here.
set -euo pipefail
need=()
for pkg in libavcodec-dev libavformat-dev libswscale-dev libswresample-dev libavutil-dev libsqlite3-dev pkg-config; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
pkg-config --exists libavformat libavcodec libswscale libavutil libswresample || {
  echo "setup: FFmpeg development libraries not found by pkg-config" >&2; exit 1; }
pkg-config --exists sqlite3 || { echo "setup: SQLite development library not found by pkg-config" >&2; exit 1; }
