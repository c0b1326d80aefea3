#!/usr/bin/env bash
# Installs fm's C/C++ library into a prefix, for other build systems to find:
#
#   PREFIX/include/fm.h, fm.hpp
#   PREFIX/lib/libfm.so.X.Y.Z             the shared library, its SONAME libfm.so.SOVER
#   PREFIX/lib/libfm.so.SOVER -> libfm.so.X.Y.Z   what programs load (their NEEDED entry)
#   PREFIX/lib/libfm.so -> libfm.so.SOVER        what -lfm finds when linking
#   PREFIX/lib/libfm.a                    the static library
#   PREFIX/lib/pkgconfig/fm.pc            cc game.c $(pkg-config --cflags --libs fm)
#   PREFIX/lib/pkgconfig/fm-static.pc     cc game.c $(pkg-config --cflags --libs fm-static)
#   PREFIX/lib/cmake/fm/fmConfig.cmake    find_package(fm CONFIG): fm::fm, fm::fm_static
#   PREFIX/lib/cmake/fm/fmConfigVersion.cmake
#
# (on macOS libfm.X.Y.Z.dylib, libfm.SOVER.dylib and libfm.dylib, the install name
# @rpath/libfm.SOVER.dylib).
#
#   ./scripts/install_ffi.sh PREFIX     (builds the release library first; with
#                                        FM_NO_BUILD=1, installs target/release as it is;
#                                        CARGO_TARGET_DIR is honoured)
#
# X.Y.Z is the header's FM_VERSION_STRING, which fm-ffi's tests keep equal to Cargo's
# version; SOVER, the ABI version, is 0.Y before 1.0 (a new 0.Y may break the ABI) and
# X from 1.0 on: fm-ffi/build.rs writes it into the library, and this script checks it.
# fm.pc's Libs carry an rpath to PREFIX/lib, so that programs built with it run without
# LD_LIBRARY_PATH (not for PREFIX=/usr, whose lib directory the loader searches).
# fm-static.pc links libfm.a and the system libraries it needs: the ones rustc names for
# a static library of this target (`--print native-static-libs`; fm-ffi's dependencies
# add none), which are also fm.pc's Libs.private, for a fully static `cc -static` link.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# != 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
mkdir -p "$1"
PREFIX=$(cd "$1" && pwd)
die() {
    echo "install_ffi.sh: $*" >&2
    exit 1
}

if [ "${FM_NO_BUILD:-}" != 1 ]; then
    cargo build --release -p fm-ffi
fi
VERSION=$(sed -n 's/^#define FM_VERSION_STRING "\(.*\)"$/\1/p' include/fm.h)
[ -n "$VERSION" ] || die "no FM_VERSION_STRING in include/fm.h"
case $VERSION in
0.0.*) SOVER=$VERSION ;;
0.*) SOVER=0.$(echo "$VERSION" | cut -d. -f2) ;;
*) SOVER=${VERSION%%.*} ;;
esac
REL=${CARGO_TARGET_DIR:-target}/release
if [ "$(uname -s)" = Darwin ]; then
    BUILT=libfm.dylib REAL=libfm.$VERSION.dylib SONAME=libfm.$SOVER.dylib
    # The name programs record: the install name fm-ffi/build.rs gives the library.
    RECORDED=@rpath/$SONAME
else
    BUILT=libfm.so REAL=libfm.so.$VERSION SONAME=libfm.so.$SOVER
    RECORDED=$SONAME
fi
for f in "$REL/$BUILT" "$REL/libfm.a"; do
    [ -f "$f" ] || die "$f not built (cargo build --release -p fm-ffi)"
done
# The library must carry that name, or the links below would name a file no program
# asks for (a library built before fm-ffi/build.rs had none).
if [ "$BUILT" = libfm.dylib ]; then
    BUILT_NAME=$(otool -D "$REL/$BUILT" | sed -n 2p)
elif command -v objdump >/dev/null; then
    BUILT_NAME=$(objdump -p "$REL/$BUILT" | awk '$1 == "SONAME" { print $2 }')
else
    BUILT_NAME=$RECORDED # nothing to read it with
fi
[ "$BUILT_NAME" = "$RECORDED" ] || die "$REL/$BUILT carries the name '${BUILT_NAME:-(none)}', \
not $RECORDED: rebuild it (cargo build --release -p fm-ffi)"

# The system libraries a program linking libfm.a needs, as rustc names them, less
# -lgcc_s: a C or C++ compiler links the unwinder itself (libgcc_s, or libgcc_eh in a
# `cc -static` link, which -lgcc_s would make fail).
probe=$(mktemp -d)
NATIVE=$(rustc --crate-type staticlib --crate-name probe --print native-static-libs \
    -o "$probe/libprobe.a" - </dev/null 2>&1 | sed -n 's/^note: native-static-libs: //p') || true
rm -rf "$probe"
[ -n "$NATIVE" ] || die "rustc named no native-static-libs (is rustc on PATH?)"
STATIC_LIBS='' STATIC_LIBS_CMAKE=''
for f in $NATIVE; do
    [ "$f" = -lgcc_s ] && continue
    STATIC_LIBS="$STATIC_LIBS${STATIC_LIBS:+ }$f"
    STATIC_LIBS_CMAKE="$STATIC_LIBS_CMAKE${STATIC_LIBS_CMAKE:+;}${f#-l}"
done
# shellcheck disable=SC2016 # ${libdir}: pkg-config's variable, written as it is
RPATH='-Wl,-rpath,${libdir} '
[ "$PREFIX" = /usr ] && RPATH=
SIZEOF_VOID_P=$(($(getconf LONG_BIT) / 8))

install -d "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/fm"
install -m 644 include/fm.h include/fm.hpp "$PREFIX/include/"
install -m 755 "$REL/$BUILT" "$PREFIX/lib/$REAL"
[ "$SONAME" = "$REAL" ] || ln -sfn "$REAL" "$PREFIX/lib/$SONAME"
ln -sfn "$SONAME" "$PREFIX/lib/$BUILT"
install -m 644 "$REL/libfm.a" "$PREFIX/lib/"
subst() {
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@VERSION@|$VERSION|g" -e "s|@REAL@|$REAL|g" \
        -e "s|@RECORDED@|$RECORDED|g" -e "s|@RPATH@|$RPATH|g" \
        -e "s|@STATIC_LIBS@|$STATIC_LIBS|g" -e "s|@STATIC_LIBS_CMAKE@|$STATIC_LIBS_CMAKE|g" \
        -e "s|@SIZEOF_VOID_P@|$SIZEOF_VOID_P|g" "$1" >"$2"
}
subst fm-ffi/pkg/fm.pc.in "$PREFIX/lib/pkgconfig/fm.pc"
subst fm-ffi/pkg/fm-static.pc.in "$PREFIX/lib/pkgconfig/fm-static.pc"
subst fm-ffi/pkg/fmConfig.cmake.in "$PREFIX/lib/cmake/fm/fmConfig.cmake"
subst fm-ffi/pkg/fmConfigVersion.cmake.in "$PREFIX/lib/cmake/fm/fmConfigVersion.cmake"
echo "installed fm $VERSION ($SONAME) into $PREFIX"
