#!/usr/bin/env bash
# Lua recipes (docs/recipes.md): run_recipes.sh IMCL RECIPE_DIR SAMPLES_DIR
#   1. RECIPE_DIR/calls.lua, which makes every call of the API once, generates the same
#      files as its hand-written twins (smooth.json; copy2.json, copy2.cuda.json for
#      CUDA), each kernel with -k and its twin, for the c, opencl and cuda backends;
#   2. every RECIPE_DIR/errors/<case>.lua (with errors/<case>.values.json as -t when
#      present) is refused with exit status 2, the exact stderr of errors/<case>.err
#      and no output folder;
#   3. every samples/**/<K>.lua dumps its space (--dump-space -r) for each backend,
#      every configuration of which imcl has checked, and generates its defaults.
# Each check prints PASS/FAIL; the last line is "N passed, M failed".
set -uo pipefail
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
SAMPLES=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failn=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { failn=$((failn + 1)); echo "FAIL $*"; }
cd "$DIR"

# 1. the API against its twins
for b in c opencl cuda; do
    "$IMCL" -b "$b" -r calls.lua -o "$tmp/r-$b" kernel.imcl 2>"$tmp/err" || { bad "calls.lua -b $b: $(cat "$tmp/err")"; continue; }
    twin=copy2.json
    [ "$b" = cuda ] && twin=copy2.cuda.json
    "$IMCL" -b "$b" -k smooth -t smooth.json -o "$tmp/j-$b" kernel.imcl &&
        "$IMCL" -b "$b" -k copy2 -t "$twin" -o "$tmp/j-$b" kernel.imcl || { bad "twins -b $b"; continue; }
    if diff -r "$tmp/r-$b" "$tmp/j-$b" >"$tmp/diff"; then
        ok "calls.lua -b $b: the same files as smooth.json and $twin"
    else
        bad "calls.lua -b $b differs from its twins: $(head -5 "$tmp/diff")"
    fi
done

# 2. errors
for r in errors/*.lua; do
    c=${r%.lua}
    values=()
    [ -f "$c.values.json" ] && values=(-t "$c.values.json")
    out=$tmp/out-$(basename "$c")
    "$IMCL" -b opencl -r "$r" "${values[@]}" -o "$out" kernel.imcl >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc != 2 ]; then
        bad "$r: exit status $rc, expected 2: $(cat "$tmp/err")"
    elif ! diff -u "$c.err" "$tmp/err" >"$tmp/diff"; then
        bad "$r: stderr differs from $c.err: $(cat "$tmp/diff")"
    elif [ -e "$out" ]; then
        bad "$r: refused, but wrote $out"
    else
        ok "$r: $(head -1 "$tmp/err")"
    fi
done

# 3. the samples' recipes
for r in "$SAMPLES"/*/*.lua; do
    src=${r%.lua}.imcl
    name=${r#"$SAMPLES"/}
    for b in c opencl cuda; do
        if ! "$IMCL" -b "$b" --dump-space -r "$r" "$src" >"$tmp/space.json" 2>"$tmp/err"; then
            bad "$name -b $b: --dump-space -r exited with status $?: $(cat "$tmp/err")"
            continue
        fi
        n=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["configurations"] if d["parameters"] else -1)' \
            "$tmp/space.json" 2>/dev/null)
        if [ -z "$n" ] || [ "$n" -lt 1 ]; then
            bad "$name -b $b: the dump has no tunables or no configuration"
        elif "$IMCL" -b "$b" -r "$r" -o "$tmp/gen-$b" "$src" 2>"$tmp/err"; then
            ok "$name -b $b: $n configurations checked, the defaults generated"
        else
            bad "$name -b $b: the defaults: $(cat "$tmp/err")"
        fi
    done
done
echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
