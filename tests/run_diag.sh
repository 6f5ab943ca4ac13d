#!/bin/bash
# Malformed-input diagnostics: golden stderr files.
#
#   run_diag.sh [-u] IMCL DIAG_DIR
#
# For every DIAG_DIR/NAME.imcl, runs `IMCL -b c -o FRESH_DIR NAME.imcl` from inside
# DIAG_DIR (so that file names in messages are stable) and requires:
#   - exit status exactly 1 (an error in the kernel source); for a case named
#     warn-*, exit status 0 (warnings only: the files are written),
#   - stderr byte-identical to NAME.err (a diff is shown otherwise),
#   - FRESH_DIR still empty (no file left behind on error; warn-* cases excepted),
#   - no crash: no signal, no sanitizer report, no internal compiler error.
# -u rewrites each NAME.err from imcl's output (the other checks still apply);
# read every rewritten file before committing it: the .err files are the truth.
# Prints "N passed, M failed"; exits non-zero when any case failed.
set -u

update=0
if [ "${1:-}" = "-u" ]; then
    update=1
    shift
fi
if [ $# -ne 2 ]; then
    echo "usage: $0 [-u] IMCL DIAG_DIR" >&2
    exit 2
fi
imcl=$1
dir=$2
case $imcl in
    /*) ;;
    *) imcl=$PWD/$imcl ;;
esac
if [ ! -x "$imcl" ]; then
    echo "$0: '$imcl' is not an executable" >&2
    exit 2
fi
cd "$dir" || exit 2

# A sanitizer report must not pass for the expected exit status 1.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99:print_stacktrace=1"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/imcl-diag.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
shopt -s nullglob
cases=(*.imcl)
if [ ${#cases[@]} -eq 0 ]; then
    echo "$0: no .imcl files in $dir" >&2
    exit 2
fi

fail() {
    echo "FAIL $1: $2"
    failed=$((failed + 1))
}

for src in "${cases[@]}"; do
    name=${src%.imcl}
    out=$tmp/out.$name
    mkdir "$out"
    timeout 30 "$imcl" -b c -o "$out" "$src" >"$tmp/stdout" 2>"$tmp/stderr"
    status=$?
    if [ $status -eq 124 ]; then
        fail "$name" "timed out"
        continue
    fi
    if [ $status -ge 128 ] || [ $status -eq 99 ] ||
        grep -qE 'Sanitizer|runtime error:|internal compiler error' "$tmp/stderr"; then
        fail "$name" "crashed (exit status $status)"
        sed 's/^/    /' "$tmp/stderr" | head -n 40
        continue
    fi
    want=1
    case $name in warn-*) want=0 ;; esac
    if [ $update -eq 1 ] && [ $status -eq $want ]; then
        cp "$tmp/stderr" "$name.err"
    fi
    ok=1
    if [ $status -ne $want ]; then
        fail "$name" "exit status $status, expected $want"
        ok=0
    elif [ ! -f "$name.err" ]; then
        fail "$name" "no $name.err (run with -u to create it, then read it)"
        ok=0
    elif ! cmp -s "$tmp/stderr" "$name.err"; then
        fail "$name" "stderr differs from $name.err"
        diff -u "$name.err" "$tmp/stderr" | sed 's/^/    /' | head -n 60
        ok=0
    fi
    if [ $want -eq 1 ] && [ -n "$(ls -A "$out")" ]; then
        [ $ok -eq 1 ] && fail "$name" "files left in the output directory on error:"
        ok=0
        ls -A "$out" | sed 's/^/    /'
    fi
    rm -rf "$out"
    [ $ok -eq 1 ] && passed=$((passed + 1))
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
