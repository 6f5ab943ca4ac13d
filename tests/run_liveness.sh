#!/usr/bin/env bash
# Liveness and dead code: run_liveness.sh IMCL LIVENESS_DIR LANG_DIR WORK_DIR [--update]
#
# 1. For every LIVENESS_DIR/<case>.imcl, `imcl --liveness [-t <case>.json] <case>.imcl`
#    (run inside LIVENESS_DIR) must exit 0 and print exactly <case>.out (stdout, then
#    stderr). A case with a <case>.json is then compiled with -t for the c, opencl
#    and cuda backends, each of which must exit 0, and the lines of its optional
#    <case>.shape (`BACKEND contains TEXT`, `BACKEND lacks TEXT`) must hold for the
#    files each backend wrote.
# 2. For every LIVENESS_DIR/<case>.lacks, the kernel file LANG_DIR/<case>.imcl (an
#    oracle-checked language case, tests/lang/README.md) is generated for the c,
#    opencl and cuda backends under the default configuration and each line of
#    LANG_DIR/<case>.params; each run must exit 0, print exactly the warnings of
#    LIVENESS_DIR/<case>.warn (run inside LANG_DIR), and no generated file may hold
#    any line of <case>.lacks (in flat form, tests/lib/flat.sh): the dead code is
#    absent from every kernel.
# --update rewrites the .out and .warn files from imcl's output (read them before
# committing: they are the truth). The last line is "liveness: N passed, M failed".
set -uo pipefail
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
LANG_DIR=$(realpath "$3")
WORK=$4
UPDATE=${5:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib/flat.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99"
rm -rf "$WORK"
mkdir -p "$WORK"
pass=0
failed=0
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

cd "$DIR"
for src in *.imcl; do
    name=${src%.imcl}
    args=(--liveness)
    [ -f "$name.json" ] && args+=(-t "$name.json")
    got=$("$IMCL" "${args[@]}" "$src" 2>&1)
    rc=$?
    [ "$UPDATE" = --update ] && [ $rc -eq 0 ] && printf '%s\n' "$got" >"$name.out"
    if [ $rc -ne 0 ]; then
        fail "$name" "exit status $rc"; printf '%s\n' "$got" | head -20; continue
    elif ! diff -u "$name.out" <(printf '%s\n' "$got"); then
        fail "$name" "--liveness output differs from $name.out"; continue
    fi
    ok=1
    if [ -f "$name.json" ]; then
        for b in c opencl cuda; do
            out=$WORK/$name/$b
            mkdir -p "$out"
            if ! "$IMCL" -b $b -t "$name.json" -o "$out" "$src" >"$out.log" 2>&1; then
                fail "$name" "imcl -b $b -t $name.json exited with status $?"; sed 's/^/    /' "$out.log"; ok=0
            fi
        done
        # <case>.shape: lines `BACKEND contains TEXT` / `BACKEND lacks TEXT` about the
        # files that backend generated (in flat form)
        if [ -f "$name.shape" ]; then
            while read -r b rule text; do
                [ -n "$b" ] && [ "${b#\#}" = "$b" ] || continue
                all=$(for f in "$WORK/$name/$b"/*; do flat "$f"; done)
                case $rule in
                contains) [[ $all == *"$text"* ]] || { fail "$name" "-b $b generated no '$text'"; ok=0; } ;;
                lacks) [[ $all != *"$text"* ]] || { fail "$name" "-b $b generated '$text'"; ok=0; } ;;
                *) fail "$name" "$name.shape: unknown rule '$rule'"; ok=0 ;;
                esac
            done <"$name.shape"
        fi
    fi
    [ $ok = 1 ] && pass=$((pass + 1))
done

shopt -s nullglob
for lacks in "$DIR"/*.lacks; do
    name=$(basename "$lacks" .lacks)
    src=$LANG_DIR/$name.imcl
    [ -f "$src" ] || { fail "$name" "no $src"; continue; }
    configs=('{}')
    if [ -f "$LANG_DIR/$name.params" ]; then
        while IFS= read -r line; do configs+=("$line"); done \
            < <(grep -v '^[[:space:]]*\(#\|$\)' "$LANG_DIR/$name.params")
    fi
    ok=1
    for i in "${!configs[@]}"; do
        printf '%s\n' "${configs[$i]}" >"$WORK/$name.$i.json"
        for b in c opencl cuda; do
            out=$WORK/$name@$i/$b
            mkdir -p "$out"
            (cd "$LANG_DIR" && "$IMCL" -b $b -t "$WORK/$name.$i.json" -o "$out" "$name.imcl") \
                >/dev/null 2>"$out.err"
            rc=$?
            [ "$UPDATE" = --update ] && [ $rc -eq 0 ] && [ "$i$b" = 0c ] && cp "$out.err" "$DIR/$name.warn"
            if [ $rc -ne 0 ]; then
                fail "$name@$i" "imcl -b $b exited with status $rc"; sed 's/^/    /' "$out.err"; ok=0; continue
            fi
            if ! diff -u "$DIR/$name.warn" "$out.err"; then
                fail "$name@$i" "imcl -b $b: warnings differ from $name.warn"; ok=0
            fi
            n=0
            for f in "$out"/*; do
                n=$((n + 1))
                text=$(flat "$f")
                while IFS= read -r bad; do
                    [ -n "$bad" ] || continue
                    if [[ $text == *"$bad"* ]]; then
                        fail "$name@$i" "$(basename "$f") (-b $b) holds '$bad'"; ok=0
                    fi
                done <"$lacks"
            done
            [ $n -gt 0 ] || { fail "$name@$i" "imcl -b $b wrote no file"; ok=0; }
        done
    done
    [ $ok = 1 ] && pass=$((pass + 1))
done
echo "liveness: $pass passed, $failed failed"
[ $failed = 0 ]
