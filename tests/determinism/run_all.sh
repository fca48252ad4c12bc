#!/usr/bin/env bash
# Build the determinism program in every configuration docs/determinism.md lists and compare each
# one's hashes with tests/determinism/golden.txt: gcc and clang at -O0, -O2 and -O3, both under
# AddressSanitizer and UndefinedBehaviorSanitizer, 32-bit x86 (SSE2, static, run natively),
# aarch64 (static, under qemu-user), WebAssembly (emscripten, under node) and 64-bit Windows
# (MinGW-w64, static, under wine, which also runs the programs of examples/); on a machine with
# FMA also gcc -O3 -march=haswell, where the compiler may fuse. Then the source checks of
# check_sources.py with clang (meson test runs them with the build's own compiler).
# Each build also exchanges snapshots with the reference build: its step-100 snapshots must hash
# as golden.txt says, and the reference build's, compiled into the program from
# tests/determinism/snapshots/, must restore and resume to the build's own step-1000 hashes.
#
#   tests/determinism/run_all.sh [--clean] [CONFIG...]     (default: every configuration)
#
# Every build that has threads (all but wasm) checks the golden hashes again with 2, 3 and 8
# workers (determinism --threads N) and runs threads_host (a host's job system behind the task
# callbacks, against one thread); the tsan build does so under ThreadSanitizer (docs/threads.md).
#
# CONFIG: gcc-O0 gcc-O2 gcc-O3 clang-O0 clang-O2 clang-O3 gcc-sanitize clang-sanitize gcc-O3-fma
# tsan i686 aarch64 wasm mingw64, and sources (check_sources.py with clang).
#
# Build directories are build-det-CONFIG/, reused when present (--clean starts them afresh); each
# configuration's full output goes to build-det-logs/CONFIG.log.
# Prints one line per configuration and a summary; exits 1 if any configuration failed to build
# or differs from the golden file. Needs: gcc, clang, gcc-i686-linux-gnu, gcc-aarch64-linux-gnu,
# qemu-user, emscripten, node, gcc-mingw-w64-x86-64 and wine (.ci/run installs them).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
golden=tests/determinism/golden.txt
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs} # emcc's optimiser needs node's acorn
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export WINEDEBUG=${WINEDEBUG:--all} # wine's own diagnostics would fill the logs
export TSAN_OPTIONS=halt_on_error=1

clean=0
selected=()
for arg in "$@"; do
    case $arg in
    --clean) clean=1 ;;
    -h | --help)
        sed -n '2,26p' "$0"
        exit 0
        ;;
    *) selected+=("$arg") ;;
    esac
done

common=(-Dtests=false -Dprograms=false -Dwerror=true)
sanitize="-Db_sanitize=address,undefined -Dc_args=-fno-sanitize-recover=all"

# name | compiler (CC, or cross:FILE) | runner ('' = run directly) | meson options
configs=(
    "gcc-O0|gcc||-Doptimization=0"
    "gcc-O2|gcc||-Doptimization=2"
    "gcc-O3|gcc||-Doptimization=3 -Db_ndebug=true"
    "clang-O0|clang||-Doptimization=0"
    "clang-O2|clang||-Doptimization=2"
    "clang-O3|clang||-Doptimization=3 -Db_ndebug=true"
    "gcc-sanitize|gcc||$sanitize"
    # clang does not link its sanitizer runtime into shared libraries: allow undefined symbols.
    "clang-sanitize|clang||$sanitize -Db_lundef=false"
    "gcc-O3-fma|gcc||-Doptimization=3 -Dc_args=-march=haswell"
    # ThreadSanitizer, for the threaded runs above all (clang's runtime: allow undefined symbols).
    "tsan|clang||-Db_sanitize=thread -Db_lundef=false"
    "i686|cross:cross/i686.txt||"
    "aarch64|cross:cross/aarch64.txt|qemu-aarch64|"
    "wasm|cross:cross/wasm.txt|node|"
    "mingw64|cross:cross/mingw64.txt|wine|"
)

has_fma() { grep -qw fma /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo 2>/dev/null; }

# Whether the kernel executes the program at all: 126 is the shell's "cannot execute" (an
# i686 binary where the kernel has no 32-bit support gives "Exec format error").
can_run_natively() {
    "$1" --list >/dev/null 2>&1
    [ $? != 126 ]
}

summary=()
failed=0
mkdir -p build-det-logs
total_start=$SECONDS

# The threaded checks of one build: prints ok, or which of them differ or failed.
check_threads() {
    local runner=$1 program=$2 host=$3 log=$4 bad=""
    for workers in 2 3 8; do
        # shellcheck disable=SC2086 # runner is one word or empty
        if ! $runner "$program" --check "$golden" --threads "$workers" >>"$log" 2>&1; then
            bad+="--threads $workers differs; "
        fi
    done
    # shellcheck disable=SC2086
    if ! $runner "$host" >>"$log" 2>&1; then
        bad+="threads_host differs; "
    fi
    echo "${bad:-ok}"
}

run_config() {
    local name=$1 compiler=$2 runner=$3 options=$4
    local dir=build-det-$name
    local log=$root/build-det-logs/$name.log
    local start=$SECONDS
    if [ "$name" = gcc-O3-fma ] && ! has_fma; then
        summary+=("$(printf '%-16s skipped: this CPU has no FMA' "$name")")
        return
    fi
    if [ $clean = 1 ]; then
        rm -rf "$dir"
    fi
    local setup=(meson setup "$dir" "${common[@]}")
    # shellcheck disable=SC2206 # options are plain words
    setup+=($options)
    local env=()
    if [[ $compiler == cross:* ]]; then
        setup+=(--cross-file "${compiler#cross:}")
    else
        env=(CC="$compiler")
    fi
    local program=$dir/tests/determinism/determinism
    if [ "$name" = wasm ]; then
        program+=.js
    elif [ "$name" = mingw64 ]; then
        program+=.exe
    fi
    : >"$log"
    if [ ! -f "$dir/build.ninja" ] && ! env "${env[@]}" "${setup[@]}" >>"$log" 2>&1; then
        summary+=("$(printf '%-16s FAILED to configure (%s)' "$name" "$log")")
        failed=1
        return
    fi
    if ! ninja -C "$dir" >>"$log" 2>&1; then
        summary+=("$(printf '%-16s FAILED to build (%s)' "$name" "$log")")
        failed=1
        return
    fi
    if [ -z "$runner" ] && [ "$name" = i686 ] && ! can_run_natively "$program"; then
        # a kernel without 32-bit support (some virtual machines): the same static binary
        # under qemu's user mode
        runner=qemu-i386
        echo "run_all: this kernel cannot run 32-bit programs: $name runs under $runner" >>"$log"
    fi
    local output status
    # shellcheck disable=SC2086 # runner is one word or empty
    output=$($runner "$program" --check "$golden" 2>>"$log")
    status=$?
    echo "$output" >>"$log"
    if [ $status = 0 ] && [ "$name" = mingw64 ] && ! run_examples "$dir" "$runner" "$log"; then
        output+=$'\n'"determinism: but a program of examples/ failed under $runner ($log)"
        status=1
    fi
    local verdict
    verdict=$(echo "$output" | tail -n 1)
    local threaded=""
    if [ -f "$dir/tests/determinism/threads_host" ]; then
        # shellcheck disable=SC2086 # runner is one word or empty
        threaded=$(check_threads "$runner" "$program" "$dir/tests/determinism/threads_host" \
            "$log")
        if [ "$threaded" != "ok" ]; then
            status=1
            output+=$'\n'"threads: $threaded"
        fi
        verdict+=" (threads 2, 3, 8, host: $threaded)"
    fi
    if [ $status != 0 ]; then
        failed=1
        echo "$output" | grep -v '^determinism:' | sed "s/^/$name: /"
        summary+=("$(printf '%-16s DIFFERS  %s [%ds]' "$name" "${verdict#determinism: }" \
            $((SECONDS - start)))")
    else
        summary+=("$(printf '%-16s ok       %s [%ds]' "$name" "${verdict#determinism: }" \
            $((SECONDS - start)))")
    fi
}

# The programs of examples/ (plain C, no Criterion) in a cross build, under its runner: each must
# exit 0, and lockstep must print what docs/determinism.md shows, the same hash as natively.
run_examples() {
    local dir=$1 runner=$2 log=$3 example output
    for example in "$dir"/examples/*.exe; do
        # shellcheck disable=SC2086 # runner is one word
        # WINEPATH: lockstep_dll.exe loads libcarom-0.dll from the build folder.
        if ! output=$(WINEPATH="$root/$dir" $runner "$example" 2>>"$log"); then
            echo "$example failed" >>"$log"
            return 1
        fi
        output=${output//$'\r'/} # Windows programs end their lines with CR LF
        echo "$output" >>"$log"
        if [[ $example == */lockstep*.exe ]] && ! grep -qxF "$output" docs/determinism.md; then
            echo "$example printed '$output', not what docs/determinism.md shows" >>"$log"
            return 1
        fi
    done
}

for entry in "${configs[@]}"; do
    IFS='|' read -r name compiler runner options <<<"$entry"
    if [ ${#selected[@]} -gt 0 ] && [[ ! " ${selected[*]} " == *" $name "* ]]; then
        continue
    fi
    echo "determinism: building and running $name" >&2
    run_config "$name" "$compiler" "$runner" "$options"
done

if [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" sources "* ]]; then
    start=$SECONDS
    if output=$(python3 tests/determinism/check_sources.py . clang 2>&1); then
        summary+=("$(printf '%-16s ok       %s [%ds]' "sources-clang" "$(echo "$output" | tail -n 1)" \
            $((SECONDS - start)))")
    else
        failed=1
        echo "$output"
        summary+=("$(printf '%-16s FAILED   %s' "sources-clang" "$(echo "$output" | tail -n 1)")")
    fi
fi

echo "---- determinism builds (golden: tests/determinism/golden.txt) ----"
printf '%s\n' "${summary[@]}"
ok=$(printf '%s\n' "${summary[@]}" | grep -c ' ok ')
bad=$(printf '%s\n' "${summary[@]}" | grep -cE ' (DIFFERS|FAILED) ')
echo "determinism: $ok builds agree, $bad differ or failed, in $((SECONDS - total_start)) s"
exit $failed
