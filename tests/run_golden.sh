#!/usr/bin/env bash
# Unparser golden files: run_golden.sh IMCL GOLDEN_DIR [--update]
# For every GOLDEN_DIR/<case>.imcl, generates the c, opencl and cuda outputs (with
# the parameters in <case>.json when present; only the backends <case>.backends
# lists when present, e.g. for a CUDA-only placement) and diffs them with the files kept in
# GOLDEN_DIR/<case>.expect/<backend>/, and checks that no generated line is over 100
# columns. The host runtime files (imcl_runtime_*, the same for every kernel) are kept
# once, in GOLDEN_DIR/runtime.expect/, and every case's must be the same. --update
# rewrites the expected files.
set -uo pipefail
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
UPDATE=${3:-}
cd "$DIR"
pass=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for src in *.imcl; do
    case=${src%.imcl}
    params=()
    [ -f "$case.json" ] && params=(-t "$case.json")
    ok=1
    # <case>.backends: the backends the case's configuration is for (default all)
    backends="c opencl cuda"
    [ -f "$case.backends" ] && backends=$(cat "$case.backends")
    for b in $backends; do
        out=$tmp/$case/$b
        if ! "$IMCL" -b "$b" -o "$out" "${params[@]}" "$src" 2>"$tmp/err"; then
            echo "FAIL $case ($b): imcl failed:"; cat "$tmp/err"; ok=0; continue
        fi
        # every line of generated code fits in 100 columns (wrappers/layout.c)
        long=$(awk 'length > 100 { print FILENAME ":" FNR ": " length " columns" }' "$out"/*)
        for f in "$out"/imcl_runtime_*; do
            [ -e "$f" ] || continue
            if [ "$UPDATE" = --update ]; then
                mkdir -p runtime.expect && cp "$f" runtime.expect/
            elif ! diff -u "runtime.expect/${f##*/}" "$f"; then
                echo "FAIL $case ($b): ${f##*/} differs from runtime.expect/"; ok=0
            fi
            rm "$f"
        done
        if [ "$UPDATE" = --update ]; then
            rm -rf "$case.expect/$b"; mkdir -p "$case.expect/$b"; cp "$out"/* "$case.expect/$b/"
        elif ! diff -ru "$case.expect/$b" "$out"; then
            echo "FAIL $case ($b): output differs from $case.expect/$b"; ok=0
        fi
        if [ -n "$long" ]; then echo "FAIL $case ($b): lines over 100 columns:"; echo "$long"; ok=0; fi
    done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi
done
echo "golden: $pass passed, $failed failed"
[ $failed = 0 ]
