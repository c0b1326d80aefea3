#!/usr/bin/env bash
# Tests the C ABI (fm-ffi) from C and C++: builds the library, checks that include/fm.h
# compiles as C99/C11/C++11/C++17, compiles the examples in examples/c and examples/cpp,
# the C error-path test fm-ffi/tests/c/error_paths.c and the C++ factored-action test
# fm-ffi/tests/c/factored_game.cpp with -Wall -Wextra -Werror, runs
# them, and runs each again under valgrind memcheck (zero errors, zero definite or
# indirect leaks).
#
#   ./scripts/test_ffi.sh          (from anywhere; works from a fresh clone)
#
# The examples link the release library: the C ones dynamically (libfm.so, with an
# rpath), the C++ ones statically (libfm.a -lpthread -ldl -lm). The error-path test runs
# twice: against a debug build with the `testing` feature (handle tracking, panic
# trigger) and against the release build. Ends with "ffi: N passed, M failed" and exits
# non-zero if anything failed.
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

# Tools: a C and a C++ compiler, and valgrind (installed with apt-get if missing).
command -v cc >/dev/null || die "no C compiler (cc) found"
command -v c++ >/dev/null || die "no C++ compiler (c++) found"
if ! command -v valgrind >/dev/null; then
    echo "valgrind not found: installing it with apt-get" >&2
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind) >&2 ||
            die "could not install valgrind with apt-get"
    else
        die "valgrind is required (apt-get install valgrind)"
    fi
fi

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

echo "== building fm-ffi (release, and debug with the testing feature)"
cargo build --release -p fm-ffi
cargo build -p fm-ffi --features testing

rm -rf "$OUT"
mkdir -p "$OUT/release" "$OUT/debug" "$OUT/bin" "$OUT/logs"
# Copies, so that later cargo builds (other features, other crates) cannot swap the
# libraries under the binaries linked here.
cp target/release/libfm.so target/release/libfm.a "$OUT/release/"
cp target/debug/libfm.so "$OUT/debug/"

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
# The README's C example, extracted from README.md (or, until the section is pasted
# there, from docs/README-ffi-section.md): the first ```c block after "## Use from C/C++".
readme_src=README.md
grep -q '^## Use from C/C++' README.md || readme_src=docs/README-ffi-section.md
awk '/^## Use from C\/C\+\+/ { s = 1 } s && /^```c$/ { c = 1; next } c && /^```$/ { exit } c' \
    "$readme_src" >"$OUT/readme_example.c"
check readme_example_extracted test -s "$OUT/readme_example.c"
check build_readme_example cc "${CFLAGS[@]}" "$OUT/readme_example.c" "${DYN_RELEASE[@]}" -o "$OUT/bin/readme_example"
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
check run_error_paths_debug "$OUT/bin/error_paths_debug"
check run_error_paths_debug_all has run_error_paths_debug "error_paths: [0-9]* passed, 0 failed"
check run_error_paths_release "$OUT/bin/error_paths_release"
check run_factored_game_cpp "$OUT/bin/factored_game_cpp"

echo "== valgrind memcheck"
check_memcheck memcheck_random_game "$OUT/bin/random_game" 2
check_memcheck memcheck_json_commands "$OUT/bin/json_commands" 2 10
check_memcheck memcheck_random_game_cpp "$OUT/bin/random_game_cpp" 2
check_memcheck memcheck_json_commands_cpp "$OUT/bin/json_commands_cpp" 2 10
check_memcheck memcheck_readme_example "$OUT/bin/readme_example"
check_memcheck memcheck_error_paths_debug "$OUT/bin/error_paths_debug"
check_memcheck memcheck_error_paths_release "$OUT/bin/error_paths_release"
check_memcheck memcheck_factored_game_cpp "$OUT/bin/factored_game_cpp"

echo "ffi: $passed passed, $failed failed"
[ "$failed" = 0 ]
