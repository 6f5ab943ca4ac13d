#!/usr/bin/env bash
# Footprint tables: run_footprint.sh IMCL DIR [--update]
# For every DIR/<case>.imcl, `imcl --footprint <case>.imcl` must print exactly
# DIR/<case>.out and exit 0. When DIR/flags exists, its options replace --footprint
# (tests/analyze: --analyze).
set -uo pipefail
IMCL=$(realpath "$1")
cd "$2"
FLAGS=(--footprint)
[ -f flags ] && read -r -a FLAGS <flags
pass=0
failed=0
for src in *.imcl; do
    want=${src%.imcl}.out
    got=$("$IMCL" "${FLAGS[@]}" "$src" 2>&1)
    rc=$?
    if [ "${3:-}" = --update ]; then printf '%s\n' "$got" > "$want"; fi
    if [ $rc -ne 0 ]; then
        echo "FAIL $src: exit status $rc"; failed=$((failed + 1))
    elif ! diff -u "$want" <(printf '%s\n' "$got"); then
        echo "FAIL $src: footprint differs from $want"; failed=$((failed + 1))
    else
        pass=$((pass + 1))
    fi
done
echo "${FLAGS[0]#--}: $pass passed, $failed failed"
[ $failed = 0 ]
