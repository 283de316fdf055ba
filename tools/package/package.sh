#!/usr/bin/env bash
# Builds dist/glimt-pure_VERSION_amd64.deb with Debian's own tools, for machines with no Swift:
# `apt-get install ./dist/glimt-pure_*.deb`. What it holds and why is in docs/packaging.md:
#
#   /usr/bin/glimt-pure                        the portable build (x86-64), which hands over to
#   /usr/lib/glimt-pure/glimt-pure-avx2        the AVX2 build (haswell: x86-64-v3),
#   /usr/lib/glimt-pure/glimt-pure-avx2vnni    the AVX2 build with AVX-VNNI (haswell+avxvnni) or
#   /usr/lib/glimt-pure/glimt-pure-avx512      the AVX-512 build (cascadelake: x86-64-v4 with VNNI),
#                                              the fastest the CPU runs
#   /usr/share/glimt-pure/{sface,yunet,iris}.glw    the model weights
#   /usr/share/glimt-pure/page/                the review page's own files (review.html, .css, .js)
#   the man page, bash/zsh/fish completions, the daily scan's systemd user units, and
#   /usr/share/doc/glimt-pure/{copyright,changelog.Debian.gz,changelog.gz}
#
# Each build links the Swift runtime and Foundation statically (--static-swift-stdlib), so the
# binaries load only libraries of Debian packages, which dpkg-shlibdeps turns into Depends by
# their sonames (FFmpeg's libavcodec59 and the rest, libsqlite3-0, libc6, libstdc++6, libgcc-s1).
# The four builds run at once in build folders of their own (.build/package/VARIANT, each
# incremental): a release build compiles its modules mostly one after another, on one core.
#
# Needs tools/setup.sh's packages and dpkg-dev, binutils and chrpath (installed when missing).
# lintian checks the result when it is installed (.ci/run installs it for the tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/setup.sh
tools/setup/apt-need.sh package dpkg-dev binutils chrpath

version="$(sed -n 's/^ *public static let version = "\(.*\)"$/\1/p' Sources/GlimtCore/OwnMark.swift)"
[ -n "$version" ] || { echo "package: cannot read the version from Sources/GlimtCore/OwnMark.swift" >&2; exit 1; }
revision=1
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then
  echo "package: note: the tree has changes not committed; the package is built with them, and says commit $commit" >&2
fi
# Reproducible: every date in the package is the commit's.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
work=.build/package
mkdir -p "$work" dist

# The four builds, at once. Variant name, then the target CPU its kernels are compiled for:
# swiftc's clang importer knows no x86-64-v3 or -v4, so the first CPUs of those levels stand for
# them (Cascade Lake: the first with AVX-512 VNNI, which the int8 kernels need). Their few
# instructions beyond the levels (AES, CLWB, RDRAND...) are ones the compiler never emits unasked.
variants=("avx512 cascadelake" "avx2vnni haswell+avxvnni" "avx2 haswell" "portable x86-64")
pids=()
started=$(date +%s)
for v in "${variants[@]}"; do
  set -- $v
  echo "package: building the $1 kernels (GLIMT_TARGET_CPU=$2) in $work/$1 (log: $work/$1.log)" >&2
  GLIMT_TARGET_CPU="$2" swift build -c release --product glimt-pure --static-swift-stdlib --scratch-path "$work/$1" \
    --explicit-target-dependency-import-check error -Xlinker -z -Xlinker now > "$work/$1.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    set -- ${variants[$i]}
    echo "package: the $1 build failed; the end of $work/$1.log:" >&2
    tail -20 "$work/$1.log" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "package: built the four in $(( $(date +%s) - started )) s" >&2

root="$work/root"
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/glimt-pure" "$root/usr/share/glimt-pure" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" \
  "$root/usr/share/doc/glimt-pure" "$root/usr/lib/systemd/user"
# Stripped as dh_strip does, and without the $ORIGIN search path SwiftPM links in: the binaries
# load nothing from beside themselves.
place() {
  install -m 755 "$work/$1/release/glimt-pure" "$2"
  strip --remove-section=.comment --remove-section=.note --strip-unneeded "$2"
  chrpath -d "$2" >/dev/null
}
place portable "$root/usr/bin/glimt-pure"
place avx2 "$root/usr/lib/glimt-pure/glimt-pure-avx2"
place avx2vnni "$root/usr/lib/glimt-pure/glimt-pure-avx2vnni"
place avx512 "$root/usr/lib/glimt-pure/glimt-pure-avx512"
for w in sface yunet iris; do install -m 644 "Sources/SFaceWeights/Resources/$w.glw" "$root/usr/share/glimt-pure/$w.glw"; done
# The review page's own files, where an installed binary looks for them (PageFiles).
install -d -m 755 "$root/usr/share/glimt-pure/page" && install -m 644 Sources/GlimtPure/Review/Page/* "$root/usr/share/glimt-pure/page/"
# The man page and completions from the binary's own command definitions (the portable one, so
# that any machine that builds the package can run it).
made() { GLIMT_KERNELS=portable "$root/usr/bin/glimt-pure" "$@"; }
made manual | gzip -9n > "$root/usr/share/man/man1/glimt-pure.1.gz"
made completions bash > "$root/usr/share/bash-completion/completions/glimt-pure"
made completions zsh > "$root/usr/share/zsh/vendor-completions/_glimt-pure"
made completions fish > "$root/usr/share/fish/vendor_completions.d/glimt-pure.fish"
for unit in glimt-pure-scan.service glimt-pure-scan.timer; do install -m 644 "packaging/systemd/$unit" "$root/usr/lib/systemd/user/$unit"; done
install -m 644 packaging/debian/copyright "$root/usr/share/doc/glimt-pure/copyright"
gzip -9nc CHANGELOG.md > "$root/usr/share/doc/glimt-pure/changelog.gz"
{
  echo "glimt-pure ($version-$revision) unstable; urgency=medium"
  echo
  echo "  * Built by tools/package/package.sh from the commit"
  echo "    $commit;"
  echo "    the project's own changes are in changelog.gz."
  echo
  echo " -- $(sed -n 's/^Maintainer: //p' packaging/debian/control.in)  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$root/usr/share/doc/glimt-pure/changelog.Debian.gz"

# Depends, from the libraries the binaries load, by the packages' own shlibs and symbols files.
# dpkg-shlibdeps fails on a library no package provides: nothing of the toolchain slips in.
mkdir -p "$work/debian"
printf 'Source: glimt-pure\n\nPackage: glimt-pure\nArchitecture: amd64\n' > "$work/debian/control"
depends="$(cd "$work" && dpkg-shlibdeps -O root/usr/bin/glimt-pure root/usr/lib/glimt-pure/glimt-pure-avx2 root/usr/lib/glimt-pure/glimt-pure-avx2vnni root/usr/lib/glimt-pure/glimt-pure-avx512)"
depends="${depends#shlibs:Depends=}"
installed_size="$(du -sk --apparent-size "$root/usr" | cut -f1)"
sed -e "s/@VERSION@/$version-$revision/" -e "s/@DEPENDS@/$depends/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  packaging/debian/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb="dist/glimt-pure_${version}-${revision}_amd64.deb"
rm -f dist/glimt-pure_*_amd64.deb
# xz at level 9: its 64 MiB window reaches from one build to the next, and the four share most
# of their bytes (the Swift runtime, Foundation, ICU's data), which halves the package.
dpkg-deb --root-owner-group -Zxz -z9 --build "$root" "$deb" >/dev/null
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB; installed $installed_size KiB; Depends: $depends)" >&2
if command -v lintian >/dev/null 2>&1; then
  lintian --fail-on error "$deb" >&2 || { echo "package: lintian found errors in $deb" >&2; exit 1; }
fi
echo "$deb"
