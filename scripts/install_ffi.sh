#!/usr/bin/env bash
# Installs fm's C/C++ library into a prefix, for other build systems to find:
#
#   PREFIX/include/fm.h, fm.hpp
#   PREFIX/lib/libfm.so (libfm.dylib on macOS), libfm.a
#   PREFIX/lib/pkgconfig/fm.pc              pkg-config --cflags --libs fm
#   PREFIX/lib/cmake/fm/fmConfig.cmake      find_package(fm CONFIG): fm::fm, fm::fm_static
#   PREFIX/lib/cmake/fm/fmConfigVersion.cmake
#
#   ./scripts/install_ffi.sh PREFIX     (builds the release library first; with
#                                        FM_NO_BUILD=1, installs target/release as it is;
#                                        CARGO_TARGET_DIR is honoured)
#
# The version written into fm.pc and the CMake package is the header's
# FM_VERSION_STRING, which fm-ffi's tests keep equal to Cargo's version.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# != 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
mkdir -p "$1"
PREFIX=$(cd "$1" && pwd)

if [ "${FM_NO_BUILD:-}" != 1 ]; then
    cargo build --release -p fm-ffi
fi
VERSION=$(sed -n 's/^#define FM_VERSION_STRING "\(.*\)"$/\1/p' include/fm.h)
[ -n "$VERSION" ] || { echo "install_ffi.sh: no FM_VERSION_STRING in include/fm.h" >&2; exit 1; }
REL=${CARGO_TARGET_DIR:-target}/release
SHARED=libfm.so
[ -f "$REL/libfm.dylib" ] && [ ! -f "$REL/libfm.so" ] && SHARED=libfm.dylib
for f in "$REL/$SHARED" "$REL/libfm.a"; do
    [ -f "$f" ] || { echo "install_ffi.sh: $f not built (cargo build --release -p fm-ffi)" >&2; exit 1; }
done
SIZEOF_VOID_P=$(($(getconf LONG_BIT) / 8))

install -d "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/fm"
install -m 644 include/fm.h include/fm.hpp "$PREFIX/include/"
install -m 755 "$REL/$SHARED" "$PREFIX/lib/"
install -m 644 "$REL/libfm.a" "$PREFIX/lib/"
subst() {
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@VERSION@|$VERSION|g" -e "s|@SHARED@|$SHARED|g" \
        -e "s|@SIZEOF_VOID_P@|$SIZEOF_VOID_P|g" "$1" >"$2"
}
subst fm-ffi/pkg/fm.pc.in "$PREFIX/lib/pkgconfig/fm.pc"
subst fm-ffi/pkg/fmConfig.cmake.in "$PREFIX/lib/cmake/fm/fmConfig.cmake"
subst fm-ffi/pkg/fmConfigVersion.cmake.in "$PREFIX/lib/cmake/fm/fmConfigVersion.cmake"
echo "installed fm $VERSION into $PREFIX"
