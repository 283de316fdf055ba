#!/usr/bin/env bash
# Makes the benchmark's 4K clip: what a phone records today (3840x2160, 30 fps, HEVC Main 10,
# yuv420p10le, hvc1 tag, a keyframe every second, AAC sound), from a public-domain clip in the
# shared folder, enlarged and looped to 24 s, with grain so the bit rate is phone-like (about
# 30 Mb/s; an enlarged clip alone is too smooth and decodes faster than real footage). Not committed:
# it goes to a scratch folder.
#
# Usage: tools/bench/make_bench_clips.sh [OUT_DIR] [--hlg] [--shared DIR]
#   OUT_DIR   default ${TMPDIR:-/tmp}/glimt-bench-clips
#   --hlg     tag the clip BT.2020 / HLG as an iPhone does (the pixels stay as they are)
# Prints the clip's path. Needs the ffmpeg CLI with libx265 (installed with apt-get when missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${TMPDIR:-/tmp}/glimt-bench-clips"
shared="${GLIMT_SHARED:-$here/../../../shared}"
hlg=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hlg) hlg=1 ;;
    --shared) shared="$2"; shift ;;
    -*) echo "make_bench_clips: unknown option $1" >&2; exit 64 ;;
    *) out="$1" ;;
  esac
  shift
done

if ! command -v ffmpeg >/dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y ffmpeg >&2
fi
encoders="$(ffmpeg -hide_banner -encoders 2>/dev/null)"  # not piped into grep -q: pipefail and SIGPIPE
grep -q " libx265 " <<<"$encoders" || { echo "make_bench_clips: ffmpeg lacks libx265" >&2; exit 1; }

source_clip="$shared/videos/poetry_jam_2009.mp4"
[ -f "$source_clip" ] || { echo "make_bench_clips: $source_clip not found (--shared DIR)" >&2; exit 1; }
mkdir -p "$out"
name="hevc10_4k30.mov"
colour=(-color_primaries bt709 -color_trc bt709 -colorspace bt709)
x265="keyint=30:min-keyint=30:log-level=error"
if [ "$hlg" = 1 ]; then
  name="hevc10_4k30_hlg.mov"
  colour=(-color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc)
  x265="$x265:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc"
fi
clip="$out/$name"
if [ ! -s "$clip" ]; then
  # A dated creation_time, as phones write, so the clip has a capture day of its own.
  ffmpeg -hide_banner -loglevel error -y -stream_loop 2 -i "$source_clip" -t 24 \
    -vf "scale=3840:2160:flags=bicubic,noise=alls=8:allf=t,format=yuv420p10le" -r 30 \
    -c:v libx265 -preset ultrafast -crf 20 -profile:v main10 -x265-params "$x265" -tag:v hvc1 "${colour[@]}" \
    -c:a aac -b:a 128k -metadata creation_time=2024-05-04T12:00:00Z -movflags +faststart "$clip.part.mov"
  mv "$clip.part.mov" "$clip"
fi
echo "$clip"
