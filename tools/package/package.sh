#!/usr/bin/env bash
# Builds dist/glimt-pure_VERSION_amd64.deb with Debian's own tools, for machines with no Swift:
# `apt-get install ./dist/glimt-pure_*.deb`. What it holds and why is in docs/packaging.md:
#
#   /usr/bin/glimt-pure                        one binary for any x86-64 (x86-64), holding the face
#                                              models and their kernels also for AVX2 (haswell:
#                                              x86-64-v3), AVX2 with AVX-VNNI (haswell+avxvnni) and
#                                              AVX-512 (cascadelake: x86-64-v4 with VNNI), and
#                                              running the fastest of them the CPU runs
#   /usr/share/glimt-pure/{sface,yunet,iris}.glw    the model weights
#   /usr/share/glimt-pure/page/                the review page's own files (review.html, .css, .js)
#   the man page, bash/zsh/fish completions, the daily scan's systemd user units, and
#   /usr/share/doc/glimt-pure/{copyright,changelog.Debian.gz,changelog.gz}
#
# The binary links the Swift runtime and Foundation statically (--static-swift-stdlib), so it
# loads only libraries of Debian packages, which dpkg-shlibdeps turns into Depends by their
# sonames (FFmpeg's libavcodec59 and the rest, libsqlite3-0, libc6, libstdc++6, libgcc-s1).
# The runtime, Foundation and ICU are most of it, so they are there once: only the face models
# and their kernels (Faces and TensorLite) are compiled once per level, as modules of their own
# (Package.swift's GLIMT_KERNEL_VARIANTS), and the rest of the program for any x86-64.
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

# The one build, in an incremental build folder of its own (.build/package/build). Each faster
# variant is its name, then the target CPU its kernels are compiled for: swiftc's clang importer
# knows no x86-64-v3 or -v4, so the first CPUs of those levels stand for them (Cascade Lake: the
# first with AVX-512 VNNI, which the int8 kernels need). Their few instructions beyond the levels
# (AES, CLWB, RDRAND...) are ones the compiler never emits unasked.
variants="avx512=cascadelake avx2vnni=haswell+avxvnni avx2=haswell"
# The four build folders of the packages that held four binaries.
rm -rf "$work/avx512" "$work/avx2vnni" "$work/avx2" "$work/portable"
started=$(date +%s)
build="$work/build/release"
echo "package: building for x86-64 with the kernels of $variants in $work/build (log: $work/build.log)" >&2
# Verbose, and without its last binary, so that the log shows how SwiftPM links it (relinked below).
rm -f "$build/glimt-pure"
if ! GLIMT_TARGET_CPU=x86-64 GLIMT_KERNEL_VARIANTS="$variants" swift build -v -c release --product glimt-pure --static-swift-stdlib \
  --scratch-path "$work/build" --explicit-target-dependency-import-check error -Xlinker -z -Xlinker now > "$work/build.log" 2>&1; then
  echo "package: the build failed; the end of $work/build.log:" >&2
  tail -20 "$work/build.log" >&2
  exit 1
fi
# Each variant's code kept to itself. Every module carries its own copies of the generic code it
# specialises (Array<Float>.append, sorting...), as weak symbols, and the linker keeps one copy of
# each name for the whole binary: an AVX-512 module's copy could then run for the portable code on
# a CPU without AVX-512. So each variant's objects become one object (ld -r), whose functions not
# visible outside it are renamed NAME.VARIANT and made local: it calls its own copies, which no
# other module can call, and PackageTests tells its code by the names. Then the binary is linked
# again as SwiftPM linked it (the command from its log), with those objects instead.
link="$(grep -e ' -emit-executable ' "$work/build.log" | tail -1)"
[ -n "$link" ] || { echo "package: $work/build.log shows no link of glimt-pure" >&2; exit 1; }
rm -rf "$work/variants" && mkdir -p "$work/variants"
cp "$build/glimt-pure.product/Objects.LinkFileList" "$work/variants/objects"
for v in $variants; do
  v="${v%%=*}"
  ld -r -o "$work/variants/$v.o" "$build/TensorLite_$v.build/"*.o "$build/Faces_$v.build/"*.o
  readelf -sW "$work/variants/$v.o" | awk -v v="$v" '$4 == "FUNC" && $7 != "UND" && ($5 == "LOCAL" || $6 == "HIDDEN") { print $8, $8 "." v }' | sort -u \
    > "$work/variants/$v.renamed"
  objcopy --redefine-syms="$work/variants/$v.renamed" --localize-hidden "$work/variants/$v.o"
  grep -v -e "/TensorLite_$v.build/" -e "/Faces_$v.build/" "$work/variants/objects" > "$work/variants/objects.new"
  echo "$(pwd)/$work/variants/$v.o" >> "$work/variants/objects.new"
  mv "$work/variants/objects.new" "$work/variants/objects"
done
link="$(sed -e "s| -o [^ ]*/glimt-pure | -o $(pwd)/$work/glimt-pure |" -e "s|@[^ ]*/Objects.LinkFileList|@$(pwd)/$work/variants/objects|" <<< "$link")"
rm -f "$work/glimt-pure"
eval "$link" >> "$work/build.log" 2>&1 || { echo "package: the link failed; the end of $work/build.log:" >&2; tail -20 "$work/build.log" >&2; exit 1; }
[ -x "$work/glimt-pure" ] || { echo "package: the link did not write $work/glimt-pure: $link" >&2; exit 1; }
echo "package: built in $(( $(date +%s) - started )) s" >&2

root="$work/root"
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/glimt-pure" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" \
  "$root/usr/share/doc/glimt-pure" "$root/usr/lib/systemd/user"
# Stripped as dh_strip does, and without the $ORIGIN search path SwiftPM links in: the binary
# loads nothing from beside itself.
install -m 755 "$work/glimt-pure" "$root/usr/bin/glimt-pure"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/glimt-pure"
chrpath -d "$root/usr/bin/glimt-pure" >/dev/null
for w in sface yunet iris; do install -m 644 "Sources/SFaceWeights/Resources/$w.glw" "$root/usr/share/glimt-pure/$w.glw"; done
# The review page's own files, where an installed binary looks for them (PageFiles).
install -d -m 755 "$root/usr/share/glimt-pure/page" && install -m 644 Sources/GlimtPure/Review/Page/* "$root/usr/share/glimt-pure/page/"
# The man page and completions from the binary's own command definitions (its portable kernels,
# which any machine that builds the package runs).
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

# Depends, from the libraries the binary loads, by the packages' own shlibs and symbols files.
# dpkg-shlibdeps fails on a library no package provides: nothing of the toolchain slips in.
mkdir -p "$work/debian"
printf 'Source: glimt-pure\n\nPackage: glimt-pure\nArchitecture: amd64\n' > "$work/debian/control"
depends="$(cd "$work" && dpkg-shlibdeps -O root/usr/bin/glimt-pure)"
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
# xz at level 9: the package is made once and fetched many times, and the larger window finds a
# little more in the one large binary.
dpkg-deb --root-owner-group -Zxz -z9 --build "$root" "$deb" >/dev/null
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB; installed $installed_size KiB; Depends: $depends)" >&2
if command -v lintian >/dev/null 2>&1; then
  lintian --fail-on error "$deb" >&2 || { echo "package: lintian found errors in $deb" >&2; exit 1; }
fi
echo "$deb"
