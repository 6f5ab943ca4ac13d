#!/usr/bin/env bash
# Loop unrolling (unroll_L<line>): run_unroll.sh IMCL UNROLL_DIR WORK_DIR
#
# 1. Behaviour: UNROLL_DIR holds cases in the format of tests/lang (<case>.imcl,
#    its oracle driver <case>.c, its configurations <case>.params, one per line)
#    and tests/run_lang.sh runs them: every configuration is generated for the c,
#    opencl and cuda backends, the C reference (never unrolled) and the OpenCL
#    kernel (unrolled as configured) run on PoCL against the oracle, integers
#    exact, and the CUDA output is compiled with nvcc and linked.
# 2. Shape: UNROLL_DIR/shape/shape.imcl is generated with each configuration of
#    UNROLL_DIR/shape/cases, and the .cl and .cu must hold the number of body
#    copies and loops the case says (4 copies and no remainder loop for a factor
#    4 on a 16-trip loop, a remainder loop for a factor 3, ...), and the unroll
#    comment; the C reference must be the same file as without -t (never unrolled).
# The last line is "N passed, M failed"; the status is non-zero when anything failed.
set -uo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 IMCL UNROLL_DIR WORK_DIR" >&2
    exit 2
fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")

pass=0
failn=0

# 1. behaviour, through the language-test runner
bash "$HERE/run_lang.sh" "$IMCL" "$DIR" "$WORK/run" | tee "$WORK/run.log"
line=$(tail -n 1 "$WORK/run.log")
if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    pass=$((pass + BASH_REMATCH[1]))
    failn=$((failn + BASH_REMATCH[2]))
else
    echo "FAIL run_lang.sh gave no verdict"
    failn=$((failn + 1))
fi

# 2. shape (one copy of the body: "interior": 0, tests/lib/flat.sh)
# shellcheck source=lib/flat.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/flat.sh"
# occurrences of TEXT in the kernel function of FILE only (from its __kernel /
# __global__ line to the closing brace at the left margin; the host code below
# has loops of its own)
count() { awk '/^(__kernel|__global__)/ { k = 1 } k { print } k && /^}/ { exit }' "$2" | grep -c -F -- "$1"; }
mkdir -p "$WORK/shape/plain"
"$IMCL" -b c -o "$WORK/shape/plain" "$DIR/shape/shape.imcl" || { echo "FAIL imcl -b c refused shape.imcl"; failn=$((failn + 1)); }
n=0
while IFS='|' read -r counts cfg comment; do
    case $counts in '#'* | '') continue ;; esac
    n=$((n + 1))
    read -r want_add want_sub want_for <<<"$counts"
    cfg=$(echo "$cfg" | sed 's/^ *//; s/ *$//')
    comment=$(echo "$comment" | sed 's/^ *//; s/ *$//')
    out=$WORK/shape/$n
    mkdir -p "$out"
    no_interior "$cfg" >"$out/params.json"
    ok=1
    if ! "$IMCL" -b c -b opencl -b cuda -t "$out/params.json" -o "$out" "$DIR/shape/shape.imcl" 2>"$out/err"; then
        echo "FAIL shape $cfg: imcl refused it:"
        cat "$out/err"
        ok=0
    else
        for f in "$out/shape.cl" "$out/shape.cu"; do
            got="$(count 'acc +=' "$f") $(count 'acc -=' "$f") $(count 'for (' "$f")"
            [ "$got" = "$want_add $want_sub $want_for" ] ||
                { echo "FAIL shape $cfg: ${f##*/} has $got (acc +=, acc -=, for), expected $want_add $want_sub $want_for"; ok=0; }
            if [ -n "$comment" ] && ! grep -q -F -- "/* $comment */" "$f"; then
                echo "FAIL shape $cfg: ${f##*/} lacks the comment '/* $comment */'"
                ok=0
            fi
        done
        cmp -s "$out/shape_ref.c" "$WORK/shape/plain/shape_ref.c" ||
            { echo "FAIL shape $cfg: the C reference differs from the one without -t"; ok=0; }
    fi
    if [ $ok = 1 ]; then
        echo "PASS shape $cfg"
        pass=$((pass + 1))
    else
        failn=$((failn + 1))
    fi
done <"$DIR/shape/cases"
[ $n -gt 0 ] || { echo "FAIL no shape cases in $DIR/shape/cases"; failn=$((failn + 1)); }

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
