#!/usr/bin/env bash
# Installs glimt-pure into PREFIX (default ~/.local), for developers (users install the Debian
# package: tools/package/package.sh, docs/packaging.md): the binary as PREFIX/bin/glimt-pure, the baked
# model weights in PREFIX/share/glimt-pure (where the installed binary looks for them), the man
# page and bash, zsh and fish completions (made by the binary from its own command definitions),
# and the systemd user units of the daily scan, in ~/.config/systemd/user for the default PREFIX,
# else in PREFIX/lib/systemd/user.
#
# It builds only what is not built: the release build in .build/release is reused when its
# glimt-pure is newer than every file it is made from (Sources/, Plugins/, Package.swift) and
# GLIMT_TARGET_CPU is unset (another target is another build); otherwise `swift build`, itself
# incremental, brings it up to date. `swift test -c release` builds the same binary there (every
# module is built -enable-testing, see Package.swift). GLIMT_BUILD_DIR=DIR installs from that
# release build folder instead (the folder `swift build -c release --show-bin-path` prints),
# building nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
default_prefix="$HOME/.local"
prefix="${1:-$default_prefix}"
build="${GLIMT_BUILD_DIR:-}"
if [ -z "$build" ]; then
  build=.build/release
  newer=""
  if [ -x "$build/glimt-pure" ] && [ -z "${GLIMT_TARGET_CPU:-}" ]; then
    newer="$(find Sources Plugins Package.swift -newer "$build/glimt-pure" -print -quit)"
  fi
  if [ ! -x "$build/glimt-pure" ] || [ -n "${GLIMT_TARGET_CPU:-}" ] || [ -n "$newer" ]; then
    tools/setup.sh
    swift build -c release --product glimt-pure
    build="$(swift build -c release --show-bin-path)"
  else
    echo "install: reusing $build/glimt-pure (nothing in Sources/, Plugins/ or Package.swift is newer)" >&2
  fi
fi
weights="$build/glimt-pure_SFaceWeights.resources/Resources"
[ -x "$build/glimt-pure" ] || { echo "install: no glimt-pure binary in $build" >&2; exit 1; }
for w in sface yunet iris; do
  [ -f "$weights/$w.glw" ] || { echo "install: no model weights in $weights ($w.glw)" >&2; exit 1; }
done
mkdir -p "$prefix/bin" "$prefix/share/glimt-pure"
# Copy to a temporary name and rename, so a running glimt-pure is never overwritten in place.
cp "$build/glimt-pure" "$prefix/bin/.glimt-pure.new" && chmod 755 "$prefix/bin/.glimt-pure.new"
mv -f "$prefix/bin/.glimt-pure.new" "$prefix/bin/glimt-pure"
for w in sface yunet iris; do
  cp "$weights/$w.glw" "$prefix/share/glimt-pure/.$w.glw.new" && chmod 644 "$prefix/share/glimt-pure/.$w.glw.new"
  mv -f "$prefix/share/glimt-pure/.$w.glw.new" "$prefix/share/glimt-pure/$w.glw"
done
# The review page's own files (review.html, its style, scripts and palette), where the installed
# binary looks for them: PREFIX/share/glimt-pure/page.
page="$build/glimt-pure_GlimtPure.resources/Page"
[ -f "$page/review.html" ] || { echo "install: no review page files in $page" >&2; exit 1; }
mkdir -p "$prefix/share/glimt-pure/page"
for f in "$page"/*; do
  n="$(basename "$f")"
  cp "$f" "$prefix/share/glimt-pure/page/.$n.new" && chmod 644 "$prefix/share/glimt-pure/page/.$n.new"
  mv -f "$prefix/share/glimt-pure/page/.$n.new" "$prefix/share/glimt-pure/page/$n"
done
# The man page and completions come from the installed binary, so they match it.
put() { mkdir -p "$(dirname "$2")"; "$prefix/bin/glimt-pure" $1 > "$2.new" && mv -f "$2.new" "$2"; }
put manual "$prefix/share/man/man1/glimt-pure.1"
put "completions bash" "$prefix/share/bash-completion/completions/glimt-pure"
put "completions zsh" "$prefix/share/zsh/site-functions/_glimt-pure"
put "completions fish" "$prefix/share/fish/vendor_completions.d/glimt-pure.fish"
# The daily scan's units, running this binary. systemd looks for user units in
# ~/.config/systemd/user and /usr/local/lib/systemd/user among others, not in any PREFIX.
if [ "$prefix" = "$default_prefix" ]; then units="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"; else units="$prefix/lib/systemd/user"; fi
mkdir -p "$units"
for unit in glimt-pure-scan.service glimt-pure-scan.timer; do
  sed "s|/usr/bin/glimt-pure|$prefix/bin/glimt-pure|g" "packaging/systemd/$unit" > "$units/.$unit.new" && mv -f "$units/.$unit.new" "$units/$unit"
done
echo "installed $prefix/bin/glimt-pure (weights in $prefix/share/glimt-pure; man page; bash, zsh, fish completions; systemd user units in $units)"
echo "daily scans: glimt-pure folders add DIR, then systemctl --user daemon-reload && systemctl --user enable --now glimt-pure-scan.timer"
case "$units" in
  "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"|/usr/local/lib/systemd/user|/usr/lib/systemd/user) ;;
  *) echo "note: systemd does not look in $units; link the units first: systemctl --user link $units/glimt-pure-scan.service $units/glimt-pure-scan.timer" >&2 ;;
esac
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
