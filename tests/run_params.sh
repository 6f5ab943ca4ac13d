#!/usr/bin/env bash
# Tuning-parameter validation: run_params.sh IMCL DIR
# Every DIR/<case>.json or .txt (2d-* cases use kernel2d.imcl, loops-* and
# ok-loops-* cases loops.imcl, alias-* cases kernel_alias.imcl, dead-*, ok-dead-* and
# cuda-dead-* cases dead.imcl, the others kernel.imcl; cuda-* and ok-cuda-* cases
# are compiled with -b cuda, the others
# with -b opencl -b c) must be refused with exit status 2, the exact stderr of <case>.err
# and no output file; every ok-*.txt / ok-*.json must be accepted, and ok-X.txt
# must produce the same files as its twin ok-X.twin.json.
set -uo pipefail
IMCL=$(realpath "$1")
cd "$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failed=0
report() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi; }
for p in *.json *.txt; do
    case $p in *.twin.json) continue ;; esac
    name=${p%.*}
    kernel=kernel.imcl
    [[ $name == 2d-* ]] && kernel=kernel2d.imcl
    [[ $name == loops-* || $name == ok-loops-* ]] && kernel=loops.imcl
    [[ $name == alias-* ]] && kernel=kernel_alias.imcl
    [[ $name == dead-* || $name == cuda-dead-* || $name == ok-dead-* ]] && kernel=dead.imcl
    backends=(-b opencl -b c)
    [[ $name == cuda-* || $name == ok-cuda-* ]] && backends=(-b cuda)
    out=$tmp/$name
    "$IMCL" "${backends[@]}" -o "$out" -t "$p" "$kernel" 2>"$tmp/err"
    rc=$?
    ok=1
    if [[ $name == ok-* ]]; then
        [ $rc = 0 ] || { echo "FAIL $p: refused (status $rc):"; cat "$tmp/err"; ok=0; }
        if [ -f "$name.twin.json" ] && [ $ok = 1 ]; then
            "$IMCL" "${backends[@]}" -o "$tmp/$name.twin" -t "$name.twin.json" "$kernel" || ok=0
            # The banner names nothing of the parameter file, so the outputs must match.
            diff -r "$out" "$tmp/$name.twin" >/dev/null || { echo "FAIL $p: output differs from $name.twin.json"; ok=0; }
        fi
    else
        [ $rc = 2 ] || { echo "FAIL $p: exit status $rc, expected 2"; ok=0; }
        diff -u "$name.err" "$tmp/err" || { echo "FAIL $p: message differs from $name.err"; ok=0; }
        [ ! -e "$out" ] || { echo "FAIL $p: output left in $out"; ok=0; }
    fi
    report $ok
done
echo "params: $pass passed, $failed failed"
[ $failed = 0 ]
