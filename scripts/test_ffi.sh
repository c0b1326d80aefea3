#!/usr/bin/env bash
# Tests the C ABI (fm-ffi) from C and C++: builds the library, checks that include/fm.h
# compiles as C99/C11/C++11/C++17, compiles the examples in examples/c and examples/cpp,
# the C error-path test fm-ffi/tests/c/error_paths.c, the C++ factored-action test
# fm-ffi/tests/c/factored_game.cpp and the C++ query test fm-ffi/tests/c/queries.cpp with
# -Wall -Wextra -Werror, runs them, and runs each again under valgrind memcheck (zero
# errors, zero definite or indirect leaks); builds the query test once more with
# -fsanitize=address,undefined (when the compiler has them) and runs it. Then installs
# the library into a temporary prefix (scripts/install_ffi.sh), checks its SONAME and
# links, and builds and runs a small project against it with CMake's
# find_package(fm CONFIG) (fm::fm, fm::fm_static) and with pkg-config (fm, fm-static,
# fm --static with cc -static), each program run without LD_LIBRARY_PATH, checking
# what it needs (readelf -d) and where the loader finds it (ldd).
#
#   ./scripts/test_ffi.sh          (from anywhere; works from a fresh clone)
#
# The examples link the release library: the C ones dynamically (libfm.so, with a link
# of its SONAME's name and an rpath), the C++ ones statically (libfm.a -lpthread -ldl
# -lm). The error-path test runs twice: against a build with debug assertions and the
# `testing` feature (handle tracking, panic trigger) and against the release build.
# Ends with "ffi: N passed, M failed" and exits non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=target/ffi
passed=0
failed=0

die() {
    echo "test_ffi.sh: $*" >&2
    echo "ffi: $passed passed, $((failed + 1)) failed"
    exit 1
}

# Tools: a C and a C++ compiler; valgrind, cmake and pkg-config (installed with apt-get
# if missing).
command -v cc >/dev/null || die "no C compiler (cc) found"
command -v c++ >/dev/null || die "no C++ compiler (c++) found"
apt_updated=0
need_tool() {
    local tool=$1 package=$2
    command -v "$tool" >/dev/null && return 0
    echo "$tool not found: installing $package with apt-get" >&2
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        if [ "$apt_updated" = 0 ]; then
            apt-get update -qq >&2 || die "apt-get update failed"
            apt_updated=1
        fi
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >&2 ||
            die "could not install $package with apt-get"
    else
        die "$tool is required (apt-get install $package)"
    fi
}
need_tool valgrind valgrind
need_tool cmake cmake
need_tool pkg-config pkg-config

# Runs a named check, counting it; on failure shows its output.
check() {
    local name=$1
    shift
    local log="$OUT/logs/$name.log"
    local start=$SECONDS rc=0
    "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then
        passed=$((passed + 1))
        echo "ok    $name ($((SECONDS - start))s)"
    else
        failed=$((failed + 1))
        echo "FAIL  $name (exit $rc); output:"
        sed 's/^/    /' "$log" | tail -n 60
    fi
}

# Runs a binary under memcheck; passes only with no errors and no definite/indirect leak.
memcheck() {
    valgrind --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --error-exitcode=1 "$@"
}

# A memcheck run as a named check, followed by valgrind's own summary lines.
check_memcheck() {
    local name=$1
    shift
    check "$name" memcheck "$@"
    grep -E "in use at exit|definitely lost|indirectly lost|ERROR SUMMARY" "$OUT/logs/$name.log" |
        sed 's/^==[0-9]*== */      /'
}

# Checks that an output file contains a pattern.
has() {
    grep -q -- "$2" "$OUT/logs/$1.log"
}

echo "== building fm-ffi (release, and with debug assertions and the testing feature)"
# The release build test.sh made (scripts/release_build.sh: nothing built twice).
./scripts/release_build.sh
# The debug library: the test profile's (debug assertions, overflow checks), built by
# the selection test.sh's `cargo test` uses, so that only fm-ffi itself is built again
# with the feature. A test build leaves its libraries under deps/: cargo's own report
# of the artifacts names the file.
DEBUG_LIB=$(cargo test --workspace --exclude fm-py --features fm-ffi/testing --lib --bins \
    --no-run --message-format=json-render-diagnostics | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "fm" \
            and "cdylib" in m["target"]["kind"] and not m["profile"]["test"]:
        print(*[f for f in m["filenames"] if f.endswith((".so", ".dylib"))])
')
[ -f "$DEBUG_LIB" ] || die "the debug build named no library ($DEBUG_LIB)"

rm -rf "$OUT"
mkdir -p "$OUT/release" "$OUT/debug" "$OUT/bin" "$OUT/logs"
# Copies, so that later cargo builds (other features, other crates) cannot swap the
# libraries under the binaries linked here. The shared library is copied under its
# SONAME (libfm.so.SOVER, fm-ffi/build.rs), the name the programs linked with -lfm
# record and load, with the link -lfm finds (what scripts/install_ffi.sh installs).
TARGET=${CARGO_TARGET_DIR:-target}
soname_of() {
    objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'
}
SONAME=$(soname_of "$TARGET/release/libfm.so")
[ -n "$SONAME" ] || die "$TARGET/release/libfm.so has no SONAME"
[ "$(soname_of "$DEBUG_LIB")" = "$SONAME" ] || die "$DEBUG_LIB has not the SONAME $SONAME"
cp "$TARGET/release/libfm.so" "$OUT/release/$SONAME"
cp "$TARGET/release/libfm.a" "$OUT/release/"
cp "$DEBUG_LIB" "$OUT/debug/$SONAME"
ln -s "$SONAME" "$OUT/release/libfm.so"
ln -s "$SONAME" "$OUT/debug/libfm.so"

CFLAGS=(-std=c11 -Wall -Wextra -Werror -g -Iinclude)
CXXFLAGS=(-std=c++17 -Wall -Wextra -Werror -g -Iinclude)
DYN_RELEASE=(-L"$OUT/release" -lfm -Wl,-rpath,"$ROOT/$OUT/release")
DYN_DEBUG=(-L"$OUT/debug" -lfm -Wl,-rpath,"$ROOT/$OUT/debug")
STATIC_RELEASE=("$OUT/release/libfm.a" -lpthread -ldl -lm)

echo "== header"
printf '#include "fm.h"\nint main(void) { return FM_OK; }\n' >"$OUT/header.c"
printf '#include "fm.hpp"\nint main() { return FM_OK; }\n' >"$OUT/header.cpp"
check header_c99 cc -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$OUT/header.c" -o "$OUT/header_c99.o"
check header_c11 cc -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -c "$OUT/header.c" -o "$OUT/header_c11.o"
check header_cxx11 c++ -std=c++11 -pedantic -Wall -Wextra -Werror -Iinclude -c "$OUT/header.cpp" -o "$OUT/header_cxx11.o"
check header_cxx17 c++ -std=c++17 -pedantic -Wall -Wextra -Werror -Iinclude -c "$OUT/header.cpp" -o "$OUT/header_cxx17.o"

echo "== compiling"
check build_random_game cc "${CFLAGS[@]}" examples/c/random_game.c "${DYN_RELEASE[@]}" -o "$OUT/bin/random_game"
check build_json_commands cc "${CFLAGS[@]}" examples/c/json_commands.c "${DYN_RELEASE[@]}" -o "$OUT/bin/json_commands"
check build_random_game_cpp c++ "${CXXFLAGS[@]}" examples/cpp/random_game.cpp "${STATIC_RELEASE[@]}" -o "$OUT/bin/random_game_cpp"
check build_json_commands_cpp c++ "${CXXFLAGS[@]}" examples/cpp/json_commands.cpp "${STATIC_RELEASE[@]}" -o "$OUT/bin/json_commands_cpp"
check build_error_paths_debug cc "${CFLAGS[@]}" -DFM_TESTING fm-ffi/tests/c/error_paths.c -pthread "${DYN_DEBUG[@]}" -o "$OUT/bin/error_paths_debug"
check build_error_paths_release cc "${CFLAGS[@]}" fm-ffi/tests/c/error_paths.c -pthread "${DYN_RELEASE[@]}" -o "$OUT/bin/error_paths_release"
check build_factored_game_cpp c++ "${CXXFLAGS[@]}" fm-ffi/tests/c/factored_game.cpp "${STATIC_RELEASE[@]}" -o "$OUT/bin/factored_game_cpp"
check build_queries_cpp c++ "${CXXFLAGS[@]}" -pthread fm-ffi/tests/c/queries.cpp "${STATIC_RELEASE[@]}" -o "$OUT/bin/queries_cpp"
# The same with AddressSanitizer and UBSan, if this compiler has them (the Rust library
# itself is not instrumented; the C++ side and every buffer it hands over are).
SANITIZE=0
if printf 'int main(){return 0;}\n' | c++ -x c++ -fsanitize=address,undefined - -o "$OUT/bin/sanitize_probe" 2>/dev/null &&
    "$OUT/bin/sanitize_probe"; then
    SANITIZE=1
    check build_queries_cpp_asan c++ "${CXXFLAGS[@]}" -pthread -fsanitize=address,undefined \
        -fno-omit-frame-pointer -fno-sanitize-recover=undefined fm-ffi/tests/c/queries.cpp \
        "${DYN_RELEASE[@]}" -o "$OUT/bin/queries_cpp_asan"
else
    echo "      (no -fsanitize=address,undefined with this compiler: sanitizer build skipped)"
fi
# The documents' C examples, compiled like the examples and run below: the first ```c
# block of README.md and of the C guide, docs/c.md.
awk '/^```c$/ { c = 1; next } c && /^```$/ { exit } c' README.md >"$OUT/readme_example.c"
check readme_example_extracted test -s "$OUT/readme_example.c"
check build_readme_example cc "${CFLAGS[@]}" "$OUT/readme_example.c" "${DYN_RELEASE[@]}" -o "$OUT/bin/readme_example"
awk '/^```c$/ { c = 1; next } c && /^```$/ { exit } c' docs/c.md >"$OUT/guide_example.c"
check guide_example_extracted test -s "$OUT/guide_example.c"
check build_guide_example cc "${CFLAGS[@]}" "$OUT/guide_example.c" "${DYN_RELEASE[@]}" -o "$OUT/bin/guide_example"
[ "$failed" = 0 ] || die "compilation failed"

echo "== running"
# A caught panic prints nothing (the error-path test checks that stderr stays empty);
# should one print anyway, keep the logs short.
export RUST_BACKTRACE=0
check run_random_game "$OUT/bin/random_game" 1
check run_random_game_result has run_random_game "^result: "
check run_json_commands "$OUT/bin/json_commands" 1 6
check run_json_commands_events has run_json_commands "events \[{\"type\""
check run_json_commands_refused has run_json_commands 'refused: FM_ILLEGAL_COMMAND, rule "input"'
check run_random_game_cpp "$OUT/bin/random_game_cpp" 1
check run_json_commands_cpp "$OUT/bin/json_commands_cpp" 1 6
# C and C++ pick the same commands from the same seed: the same games.
check c_and_cpp_agree bash -c "diff <(grep '^game' '$OUT/logs/run_random_game.log') \
    <(grep '^game' '$OUT/logs/run_random_game_cpp.log')"
check run_readme_example "$OUT/bin/readme_example"
check run_readme_example_output has run_readme_example "commands; 4.1: "
check run_guide_example "$OUT/bin/guide_example"
check run_guide_example_output has run_guide_example "commands; 4.1: "
check run_error_paths_debug "$OUT/bin/error_paths_debug"
check run_error_paths_debug_all has run_error_paths_debug "error_paths: [0-9]* passed, 0 failed"
check run_error_paths_release "$OUT/bin/error_paths_release"
check run_factored_game_cpp "$OUT/bin/factored_game_cpp"
check run_queries_cpp "$OUT/bin/queries_cpp"
check run_queries_cpp_all has run_queries_cpp "queries: [0-9]* passed, 0 failed"
if [ "$SANITIZE" = 1 ]; then
    check run_queries_cpp_asan env ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$OUT/bin/queries_cpp_asan"
fi

echo "== valgrind memcheck"
check_memcheck memcheck_random_game "$OUT/bin/random_game" 2
check_memcheck memcheck_json_commands "$OUT/bin/json_commands" 2 10
check_memcheck memcheck_random_game_cpp "$OUT/bin/random_game_cpp" 2
check_memcheck memcheck_json_commands_cpp "$OUT/bin/json_commands_cpp" 2 10
check_memcheck memcheck_readme_example "$OUT/bin/readme_example"
check_memcheck memcheck_error_paths_debug "$OUT/bin/error_paths_debug"
check_memcheck memcheck_error_paths_release "$OUT/bin/error_paths_release"
check_memcheck memcheck_factored_game_cpp "$OUT/bin/factored_game_cpp"
check_memcheck memcheck_queries_cpp "$OUT/bin/queries_cpp"

echo "== packaging: install into a prefix, then find it with CMake and pkg-config"
PREFIX="$ROOT/$OUT/prefix"
HEADER_VERSION=$(sed -n 's/^#define FM_VERSION_STRING "\(.*\)"$/\1/p' include/fm.h)
# The ABI version (fm-ffi/build.rs): 0.MINOR before 1.0, MAJOR after.
case $HEADER_VERSION in
0.0.*) SOVER=$HEADER_VERSION ;;
0.*) SOVER=0.$(echo "$HEADER_VERSION" | cut -d. -f2) ;;
*) SOVER=${HEADER_VERSION%%.*} ;;
esac
# Checks of ELF files, each showing what it read: a line of the dynamic section
# (readelf -d: "Library soname: [...]", "Shared library: [...]" for each NEEDED,
# "Library runpath: [...]"); NEEDED entries, none of them libfm; no NEEDED at all;
# what the loader finds, with no LD_LIBRARY_PATH.
dynamic_has() {
    local d
    d=$(readelf -d "$1") && echo "$d" && grep -qF -- "$2" <<<"$d"
}
needs_no_libfm() {
    local d
    d=$(readelf -d "$1") && echo "$d" && grep -q NEEDED <<<"$d" &&
        ! grep -qF "Shared library: [libfm" <<<"$d"
}
needs_nothing() {
    local d
    d=$(readelf -d "$1") && echo "$d" && ! grep -q NEEDED <<<"$d"
}
loads() {
    local d
    d=$(env -u LD_LIBRARY_PATH ldd "$1") && echo "$d" && grep -qF -- "$2" <<<"$d"
}
# The shared library: the real file libfm.so.X.Y.Z, the SONAME link libfm.so.SOVER to
# it (what programs load), the development link libfm.so to that (what -lfm finds).
installed_shared_library() {
    ls -l "$PREFIX"/lib/libfm.so* &&
        [ -f "$PREFIX/lib/libfm.so.$HEADER_VERSION" ] && [ ! -L "$PREFIX/lib/libfm.so.$HEADER_VERSION" ] &&
        [ "$(readlink "$PREFIX/lib/libfm.so.$SOVER")" = "libfm.so.$HEADER_VERSION" ] &&
        [ "$(readlink "$PREFIX/lib/libfm.so")" = "libfm.so.$SOVER" ]
}
LOADED="libfm.so.$SOVER => $PREFIX/lib/libfm.so.$SOVER"

check install_ffi env FM_NO_BUILD=1 scripts/install_ffi.sh "$PREFIX"
check installed_files bash -c "cd '$PREFIX' && ls include/fm.h include/fm.hpp lib/libfm.a \
    lib/pkgconfig/fm.pc lib/pkgconfig/fm-static.pc lib/cmake/fm/fmConfig.cmake \
    lib/cmake/fm/fmConfigVersion.cmake"
check installed_shared_library installed_shared_library
check installed_soname dynamic_has "$PREFIX/lib/libfm.so.$HEADER_VERSION" "Library soname: [libfm.so.$SOVER]"
check cmake_configure cmake -S fm-ffi/tests/pkg -B "$OUT/cmake_build" -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DCMAKE_BUILD_TYPE=Release
check cmake_build cmake --build "$OUT/cmake_build"
# fm::fm: the program records the SONAME and loads the installed library.
check cmake_run_c env -u LD_LIBRARY_PATH "$OUT/cmake_build/consumer_c"
check cmake_run_c_output has cmake_run_c "^consumer: fm "
check cmake_c_needs_soname dynamic_has "$OUT/cmake_build/consumer_c" "Shared library: [libfm.so.$SOVER]"
check cmake_c_loads_installed loads "$OUT/cmake_build/consumer_c" "$LOADED"
# fm::fm_static: nothing of fm needed at run time.
check cmake_run_cpp env -u LD_LIBRARY_PATH "$OUT/cmake_build/consumer_cpp"
check cmake_run_cpp_output has cmake_run_cpp "^consumer_cpp: fm .*over: game_over"
check cmake_cpp_needs_no_libfm needs_no_libfm "$OUT/cmake_build/consumer_cpp"
# A request the package cannot meet (a newer major version) fails to configure.
mkdir -p "$OUT/cmake_too_new"
printf 'cmake_minimum_required(VERSION 3.13)\nproject(x C)\nfind_package(fm 99 CONFIG REQUIRED)\n' \
    >"$OUT/cmake_too_new/CMakeLists.txt"
check cmake_refuses_other_version bash -c "! cmake -S '$OUT/cmake_too_new' -B '$OUT/cmake_too_new/build' \
    -DCMAKE_PREFIX_PATH='$PREFIX' >/dev/null 2>&1"
# pkg-config, with the commands README.md and docs/c.md give; the programs run without
# LD_LIBRARY_PATH.
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
check pkgconfig_version test "$(pkg-config --modversion fm)" = "$HEADER_VERSION"
check pkgconfig_static_version test "$(pkg-config --modversion fm-static)" = "$HEADER_VERSION"
# fm: the shared library, found at run time through the rpath in fm.pc's Libs.
# shellcheck disable=SC2046
check pkgconfig_build cc fm-ffi/tests/pkg/consumer.c $(pkg-config --cflags --libs fm) \
    -o "$OUT/bin/consumer_pkgconfig"
check pkgconfig_run env -u LD_LIBRARY_PATH "$OUT/bin/consumer_pkgconfig"
check pkgconfig_run_output has pkgconfig_run "^consumer: fm "
check pkgconfig_needs_soname dynamic_has "$OUT/bin/consumer_pkgconfig" "Shared library: [libfm.so.$SOVER]"
check pkgconfig_runpath dynamic_has "$OUT/bin/consumer_pkgconfig" "path: [$PREFIX/lib]"
check pkgconfig_loads_installed loads "$OUT/bin/consumer_pkgconfig" "$LOADED"
# shellcheck disable=SC2046
check pkgconfig_build_cpp c++ -std=c++17 fm-ffi/tests/pkg/consumer.cpp $(pkg-config --cflags --libs fm) \
    -o "$OUT/bin/consumer_pkgconfig_cpp"
check pkgconfig_run_cpp env -u LD_LIBRARY_PATH "$OUT/bin/consumer_pkgconfig_cpp"
check pkgconfig_cpp_needs_soname dynamic_has "$OUT/bin/consumer_pkgconfig_cpp" "Shared library: [libfm.so.$SOVER]"
# fm-static: libfm.a, with or without --static; nothing of fm needed at run time.
for flag in "" --static; do
    name=pkgconfig_static${flag:+_flag}
    # shellcheck disable=SC2046,SC2086
    check "${name}_build" cc fm-ffi/tests/pkg/consumer.c $(pkg-config $flag --cflags --libs fm-static) \
        -o "$OUT/bin/consumer_$name"
    check "${name}_run" env -u LD_LIBRARY_PATH "$OUT/bin/consumer_$name"
    check "${name}_run_output" has "${name}_run" "^consumer: fm "
    check "${name}_needs_no_libfm" needs_no_libfm "$OUT/bin/consumer_$name"
done
# fm with --static: a wholly static program (cc -static, where -lfm is libfm.a), if
# this C library has a static archive.
if printf 'int main(void) { return 0; }\n' | cc -static -x c - -o "$OUT/bin/static_probe" 2>/dev/null; then
    # shellcheck disable=SC2046
    check pkgconfig_fully_static_build cc -static fm-ffi/tests/pkg/consumer.c \
        $(pkg-config --static --cflags --libs fm) -o "$OUT/bin/consumer_fully_static"
    check pkgconfig_fully_static_run "$OUT/bin/consumer_fully_static"
    check pkgconfig_fully_static_run_output has pkgconfig_fully_static_run "^consumer: fm "
    check pkgconfig_fully_static_needs_nothing needs_nothing "$OUT/bin/consumer_fully_static"
else
    echo "      (cc -static links nothing here, no static C library: the fully static build skipped)"
fi

echo "ffi: $passed passed, $failed failed"
[ "$failed" = 0 ]
