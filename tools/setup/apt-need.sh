#!/usr/bin/env bash
# tools/setup/apt-need.sh WHO PACKAGE...: installs, with apt-get (through sudo when not root), those of
# the Debian packages that are not installed, saying which on one line as WHO. The one place the
# set-up scripts (tools/setup.sh, tools/test.sh, tools/package/package.sh, .ci/run) install from.
set -euo pipefail
who="$1"
shift
need=()
for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
[ ${#need[@]} -gt 0 ] || exit 0
echo "$who: installing ${need[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
# apt-get's chatter goes to stderr: a caller's stdout may be its answer (package.sh's is the .deb).
$sudo_cmd apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
