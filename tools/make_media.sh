#!/usr/bin/env bash
# Regenerates the bundled sample (Sample/reference.jpg, Sample/videos/, Sample/PROVENANCE.md) and the
# analysis test clips (Tests/Fixtures/analysis/) from the public-domain photos and
# clips in the project's shared folder (../shared beside the repository, or --shared DIR /
# $GLIMT_SHARED). Deterministic: the same inputs and tool versions give the same bytes.
#
# Needs: the ffmpeg and ffprobe CLIs (made with FFmpeg 5.1, with libx264, libx265 and the native AAC
# encoder), python3 with numpy and opencv-python-headless. The product itself never runs ffmpeg:
# this only makes media files that are committed.
#
# Usage: tools/make_media.sh [--sample-only | --fixtures-only] [--shared DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { echo "make_media: $tool not found" >&2; exit 1; }
done
version="$(ffmpeg -hide_banner -version | head -n 1)"
case "$version" in
  "ffmpeg version 5.1"*) ;;
  *) echo "make_media: warning: made with FFmpeg 5.1, this is '$version': the bytes (and how 'rotate' is read) may differ" >&2 ;;
esac
encoders="$(ffmpeg -hide_banner -encoders 2>/dev/null)"
for enc in libx264 libx265 aac; do
  grep -q " $enc " <<<"$encoders" || { echo "make_media: ffmpeg lacks the $enc encoder" >&2; exit 1; }
done
python3 -c 'import cv2, numpy' 2>/dev/null || {
  echo "make_media: needs python3 with numpy and opencv-python-headless (pip install numpy opencv-python-headless)" >&2; exit 1; }
exec python3 "$here/make_media.py" "$@"
