#!/usr/bin/env bash
# Makes the HDR analysis fixtures (Tests/Fixtures/hdr/): two seconds of a real clip
# from the shared folder as SDR (H.264, BT.709) and the same pictures as HDR10 (HEVC Main 10, PQ,
# BT.2020), SDR reference white placed at 203 nits (BT.2408) as a grading tool would. The test
# checks that the analysis judges both alike (looks and sharpness within 10 %).
# Deterministic with the same ffmpeg (5.1, libx264, libx265, zimg) and source.
#
# Usage: tools/make_hdr_fixtures.sh [--shared DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shared="${GLIMT_SHARED:-$here/../../shared}"
[ "${1:-}" = "--shared" ] && shared="$2"
out="$here/../Tests/Fixtures/hdr"
source_clip="$shared/videos/poetry_jam_2009.mp4"
[ -f "$source_clip" ] || { echo "make_hdr_fixtures: $source_clip not found (--shared DIR)" >&2; exit 1; }
mkdir -p "$out"
bitexact=(-fflags +bitexact -flags:v +bitexact -movflags +faststart -an)

# SDR: seconds 3-5 of the clip (the performer lit on stage), 320x180, BT.709 tags.
ffmpeg -nostdin -v error -y -ss 3 -i "$source_clip" -t 2 \
  -vf "scale=320:180:flags=bicubic,format=yuv420p" \
  -c:v libx264 -preset medium -crf 23 -g 25 -bf 0 -x264-params threads=1 \
  -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv "${bitexact[@]}" "$out/sdr_bt709.mp4"

# PQ: the SDR pictures to linear light (BT.709 display, 100 % = 203 nits), BT.2020 primaries,
# PQ (SMPTE ST 2084), 10-bit HEVC with HDR10 signalling.
ffmpeg -nostdin -v error -y -i "$out/sdr_bt709.mp4" \
  -vf "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=linear:npl=203,format=gbrpf32le,zscale=p=bt2020:t=smpte2084:m=bt2020nc:r=tv:npl=203,format=yuv420p10le" \
  -c:v libx265 -preset medium -crf 24 -g 25 \
  -x265-params "hdr10=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400:pools=1:frame-threads=1:log-level=error" \
  -tag:v hvc1 -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv "${bitexact[@]}" "$out/pq_bt2020.mp4"

ls -l "$out"/*.mp4
