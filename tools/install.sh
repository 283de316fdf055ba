#!/usr/bin/env bash
# Installs glimt-pure into PREFIX (default ~/.local): the binary as PREFIX/bin/glimt-pure, the
# baked model weights in PREFIX/share/glimt-pure (where the installed binary looks for them), the
# man page and bash, zsh and fish completions (made by the binary from its own command definitions).
# Builds a release first; GLIMT_BUILD_DIR=DIR installs from an existing release build folder
# instead (the folder `swift build -c release --show-bin-path` prints).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-$HOME/.local}"
build="${GLIMT_BUILD_DIR:-}"
if [ -z "$build" ]; then
  tools/setup.sh
  swift build -c release --product glimt-pure
  build="$(swift build -c release --show-bin-path)"
fi
weights="$build/glimt-pure_SFaceWeights.resources/Resources"
[ -x "$build/glimt-pure" ] || { echo "install: no glimt-pure binary in $build" >&2; exit 1; }
[ -f "$weights/sface.glw" ] && [ -f "$weights/yunet.glw" ] || { echo "install: no model weights in $weights" >&2; exit 1; }
mkdir -p "$prefix/bin" "$prefix/share/glimt-pure"
# Copy to a temporary name and rename, so a running glimt-pure is never overwritten in place.
cp "$build/glimt-pure" "$prefix/bin/.glimt-pure.new" && chmod 755 "$prefix/bin/.glimt-pure.new"
mv -f "$prefix/bin/.glimt-pure.new" "$prefix/bin/glimt-pure"
for w in sface yunet; do
  cp "$weights/$w.glw" "$prefix/share/glimt-pure/.$w.glw.new" && chmod 644 "$prefix/share/glimt-pure/.$w.glw.new"
  mv -f "$prefix/share/glimt-pure/.$w.glw.new" "$prefix/share/glimt-pure/$w.glw"
done
# The man page and completions come from the installed binary, so they match it.
put() { mkdir -p "$(dirname "$2")"; "$prefix/bin/glimt-pure" $1 > "$2.new" && mv -f "$2.new" "$2"; }
put manual "$prefix/share/man/man1/glimt-pure.1"
put "completions bash" "$prefix/share/bash-completion/completions/glimt-pure"
put "completions zsh" "$prefix/share/zsh/site-functions/_glimt-pure"
put "completions fish" "$prefix/share/fish/vendor_completions.d/glimt-pure.fish"
echo "installed $prefix/bin/glimt-pure (weights in $prefix/share/glimt-pure; man page and bash, zsh, fish completions)"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
