#!/usr/bin/env bash
# One command for issue 43's table: tools/moment/run.sh GLIMT_BINARY [LABEL] [CLIPDIR]
# Sets up tools/moment/.venv (pinned requirements.txt) and the evaluation clips (make_clips.py, seed 43, into
# CLIPDIR, default /tmp/moment_clips) when missing, then judges Sample/videos, ../shared/videos and the clips.
# Writes tools/moment/out/<label>.json and .md (not committed). Needs ffmpeg and espeak-ng (Debian packages).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
glimt="$(realpath "${1:?usage: run.sh GLIMT_BINARY [LABEL] [CLIPDIR]}")"
label="${2:-glimt-pure}"
clips="${3:-/tmp/moment_clips}"
command -v ffmpeg >/dev/null && command -v espeak-ng >/dev/null || apt-get install -y ffmpeg espeak-ng
if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
  "$here/.venv/bin/pip" install -q -r "$here/requirements.txt"
fi
[ -f "$clips/clips.json" ] || "$here/.venv/bin/python" "$here/make_clips.py" "$clips" --count 36 --seed 43
mkdir -p "$here/out"
slug="$(echo "$label" | tr -c 'A-Za-z0-9._-' '_')"
exec "$here/.venv/bin/python" "$here/judge.py" --glimt "$glimt" --label "$label" \
  --out "$here/out/$slug.json" --md "$here/out/$slug.md" \
  "$root/Sample/videos" "$root/../shared/videos" "$clips" 2> >(grep -v -E '^(W0000|INFO:|WARNING:)|protobuf|warnings.warn' >&2)
