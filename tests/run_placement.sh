#!/usr/bin/env bash
# Shape of the texture and constant placements: run_placement.sh IMCL DIR (tests/placement)
# For every SHAPE_DIR/<case>.imcl, generates the cuda and opencl outputs (with the
# parameters in <case>.json and the extra options on the first line of
# <case>.flags, e.g. --size, when present) into one folder and checks the rules of
# <case>.shape, one per line ('#' lines are comments):
#     FILE contains TEXT     the generated FILE (e.g. K.cu, K.cl, K_host.c) holds TEXT
#     FILE lacks TEXT        it does not
# TEXT is the rest of the line, matched as a fixed string. The point is what a
# placement must look like (a texture read, a __constant__ copy, no guard where the
# sampler does the boundary) without pinning every byte as the golden files do.
set -uo pipefail
# TEXT is looked for in the file in flat form (tests/lib/flat.sh): where the
# layout breaks a line does not matter.
# shellcheck source=lib/flat.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/flat.sh"
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failed=0
for src in "$DIR"/*.imcl; do
    case=$(basename "$src" .imcl)
    params=()
    [ -f "$DIR/$case.json" ] && params=(-t "$DIR/$case.json")
    flags=()
    [ -f "$DIR/$case.flags" ] && read -r -a flags <"$DIR/$case.flags"
    out=$tmp/$case
    ok=1
    if ! "$IMCL" -b cuda -b opencl -o "$out" "${params[@]}" "${flags[@]}" "$src" 2>"$tmp/err"; then
        echo "FAIL $case: imcl failed:"
        cat "$tmp/err"
        failed=$((failed + 1))
        continue
    fi
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in '' | '#'*) continue ;; esac
        file=${line%% *}
        rest=${line#* }
        verb=${rest%% *}
        text=${rest#* }
        if [ ! -f "$out/$file" ]; then
            echo "FAIL $case: no generated file $file"
            ok=0
            continue
        fi
        case $verb in
        contains) grep -qF -- "$(flat_text "$text")" <<<"$(flat "$out/$file")" ||
            { echo "FAIL $case: $file does not contain: $text"; ok=0; } ;;
        lacks) grep -qF -- "$(flat_text "$text")" <<<"$(flat "$out/$file")" &&
            { echo "FAIL $case: $file contains: $text"; ok=0; } ;;
        *) echo "FAIL $case: bad rule: $line"; ok=0 ;;
        esac
    done <"$DIR/$case.shape"
    if [ $ok = 1 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi
done
echo "placement: $pass passed, $failed failed"
[ $failed = 0 ]
