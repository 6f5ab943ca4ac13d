#!/usr/bin/env bash
# libimcl and --batch against the imcl executable: run_libimcl.sh IMCL LIBIMCL_RUN SAMPLES WORK
#
# For every sample kernel (SAMPLES/*/*.imcl and SAMPLES/miniamr/*.imcl) and backend
# (opencl, cuda, c): up to 10 configurations of its space (tests/libimcl/configs.py,
# fixed seed), the defaults ({}) and three that imcl refuses. Each line is generated
#  - by the executable, one process per configuration (imcl -t), the reference;
#  - by the library (tests/libimcl/libimcl_run.c: one imcl_open, imcl_generate per
#    line, the whole list three times in the same process, every repeat identical);
#  - by imcl --batch, into WORK/.../batch/<line>/.
# The files must be byte-identical, and the library's status and diagnostics those of
# the executable. Then: the source handed over as text (-m), several backends in one
# call, the space dumps (imcl and t1, with and without --size), bad input to the
# library, --batch's statuses and messages, and 1,000 generations of one
# configuration in one process (in the sanitizer build: no leak, no stale state).
set -uo pipefail
IMCL=$(realpath "$1")
RUN=$(realpath "$2")
SAMPLES=$(realpath "$3")
WORK=$4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
pass=0
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
ok() { pass=$((pass + 1)); }

# A configuration's stderr, with the executable's params file named as the library
# names a configuration ("<config>"): the only place where they may differ.
norm() { sed "s|$1|<config>|g" "$2"; }

for src in "$SAMPLES"/*/*.imcl; do
    [ -f "$src" ] || continue
    k=$(basename "$src" .imcl)
    for b in opencl cuda c; do
        w=$WORK/$k/$b
        mkdir -p "$w/exe"
        if ! "$IMCL" --dump-space -b "$b" "$src" > "$w/space.json"; then
            fail "$k $b: --dump-space failed"
            continue
        fi
        {
            echo '{}'
            python3 "$HERE/libimcl/configs.py" 10 2 < "$w/space.json" 2>/dev/null
            echo '{"block_size_x": 2048}'
            echo '{"mem_no_such_array": "shared"}'
            echo '{"coarsen_x": 3, "block_size_y": "two"}'
        } > "$w/configs.jsonl"
        n=$(wc -l < "$w/configs.jsonl")
        # the executable, one process per configuration
        for ((i = 1; i <= n; i++)); do
            sed -n "${i}p" "$w/configs.jsonl" > "$w/p$i.json"
            "$IMCL" -b "$b" -t "$w/p$i.json" -o "$w/exe/$i" "$src" 2> "$w/exe/$i.stderr"
            echo $? > "$w/exe/$i.status"
        done
        # the library, three times over
        if ! "$RUN" -b "$b" -r 3 -o "$w/lib" "$src" "$w/configs.jsonl"; then
            fail "$k $b: libimcl_run failed"
            continue
        fi
        # --batch
        "$IMCL" --batch "$w/configs.jsonl" -b "$b" -o "$w/batch" "$src" 2> "$w/batch.stderr"
        bstatus=$?
        good=1
        nfail=0
        for ((i = 1; i <= n; i++)); do
            es=$(cat "$w/exe/$i.status")
            ls_=$(cat "$w/lib/$i.status")
            [ "$es" = "$ls_" ] || { fail "$k $b line $i: status $ls_ from the library, $es from imcl"; good=0; continue; }
            if ! diff -q <(norm "$w/p$i.json" "$w/exe/$i.stderr") "$w/lib/$i.stderr" > /dev/null; then
                fail "$k $b line $i: diagnostics differ"
                diff <(norm "$w/p$i.json" "$w/exe/$i.stderr") "$w/lib/$i.stderr" | head -5
                good=0
            fi
            if [ "$es" = 0 ]; then
                diff -r "$w/exe/$i" "$w/lib/$i" > /dev/null || { fail "$k $b line $i: library files differ"; good=0; }
                diff -r "$w/exe/$i" "$w/batch/$i" > /dev/null || { fail "$k $b line $i: --batch files differ"; good=0; }
            else
                nfail=$((nfail + 1))
                [ ! -e "$w/batch/$i" ] || { fail "$k $b line $i: --batch wrote a refused configuration"; good=0; }
                grep -q "configs.jsonl:$i: configuration not generated (status $es)" "$w/batch.stderr" ||
                    { fail "$k $b line $i: --batch does not report the line"; good=0; }
            fi
        done
        want=$([ $nfail -gt 0 ] && echo 1 || echo 0)
        [ $bstatus = "$want" ] || { fail "$k $b: --batch exited with $bstatus, expected $want"; good=0; }
        grep -q "imcl: $((n - nfail)) of $n configurations generated, $nfail failed" "$w/batch.stderr" ||
            { fail "$k $b: --batch summary missing"; good=0; }
        [ $good = 1 ] && ok
        [ $good = 1 ] && rm -rf "$w/exe" "$w/lib" "$w/batch" "$w"/p*.json
    done

    # the source as text, and two backends in one call
    w=$WORK/$k/more
    mkdir -p "$w"
    echo '{}' > "$w/c.jsonl"
    "$IMCL" -b opencl -b c -o "$w/exe" "$src" 2> /dev/null
    if "$RUN" -m -b "opencl, c" -o "$w/lib" "$src" "$w/c.jsonl" && diff -r "$w/exe" "$w/lib/1" > /dev/null; then
        ok
    else
        fail "$k: source as text, -b opencl -b c: files differ"
    fi
    # the dumps
    for fmt in imcl t1; do
        for size in "" 64x64x64 64x48; do
            sopt=()
            [ -n "$size" ] && sopt=(--size "$size")
            want=$("$IMCL" --dump-space=$fmt -b opencl "${sopt[@]}" "$src" 2>&1; echo "status $?")
            lopt=()
            [ -n "$size" ] && lopt=(-s "$size")
            got=$("$RUN" -d $fmt -b opencl "${lopt[@]}" "$src" 2>&1; echo "status $?")
            [ "$want" = "$got" ] && ok || fail "$k: --dump-space=$fmt ${sopt[*]} differs from imcl_dump_space"
        done
    done
done

# Sources that need the C preprocessor (and some that it refuses), read by the library
# and handed over as text: the same status, diagnostics and files as imcl.
w=$WORK/cpp
mkdir -p "$w"
echo '{}' > "$w/c.jsonl"
for src in "$HERE"/lang/preproc.imcl "$HERE"/diag/preprocessor-*.imcl; do
    k=$(basename "$src" .imcl)
    "$IMCL" -b opencl -o "$w/$k.exe" "$src" 2> "$w/$k.stderr"
    es=$?
    for m in "" -m; do
        "$RUN" $m -b opencl -o "$w/$k.lib$m" "$src" "$w/c.jsonl" 2> /dev/null
        if [ "$(cat "$w/$k.lib$m/1.status")" != $es ]; then
            fail "$k $m: status $(cat "$w/$k.lib$m/1.status") from the library, $es from imcl"
        elif ! diff -q "$w/$k.stderr" "$w/$k.lib$m/1.stderr" > /dev/null; then
            fail "$k $m: diagnostics differ"
            diff "$w/$k.stderr" "$w/$k.lib$m/1.stderr" | head -6
        elif [ $es = 0 ] && ! diff -r "$w/$k.exe" "$w/$k.lib$m/1" > /dev/null; then
            fail "$k $m: files differ"
        else
            ok
        fi
    done
done

# Bad input to the library: the unit's status and message are imcl's.
w=$WORK/bad
mkdir -p "$w"
printf 'void f(Image<float> a) { a[idx][idy] = ; }\n' > "$w/broken.imcl"
echo '{}' > "$w/c.jsonl"
for case in "broken.imcl" "missing.imcl"; do
    "$IMCL" -b opencl -o "$w/out" "$w/$case" 2> "$w/exe.stderr"
    es=$?
    "$RUN" -b opencl -o "$w/lib" "$w/$case" "$w/c.jsonl" 2> /dev/null
    if [ "$(cat "$w/lib/1.status")" = $es ] && [ $es != 0 ] && diff -q "$w/exe.stderr" "$w/lib/1.stderr" > /dev/null; then
        ok
    else
        fail "library on $case: status $(cat "$w/lib/1.status") (imcl: $es) or diagnostics differ"
    fi
done
got=$("$RUN" -b nosuch "$w/c.jsonl" "$w/c.jsonl" 2>&1; "$RUN" -b nosuch -o "$w/lib2" "$SAMPLES/sum7/sum7.imcl" "$w/c.jsonl"; cat "$w/lib2/1.stderr")
[[ $got == *"imcl: error: unknown backend 'nosuch' (expected cuda, opencl or c)"* ]] && ok || fail "unknown backend: $got"
got=$("$RUN" -d t1 -k nosuch "$SAMPLES/sum7/sum7.imcl" 2>&1; echo "status $?")
[[ $got == *"no kernel named 'nosuch'"*"status 2" ]] && ok || fail "unknown kernel: $got"

# --batch: a missing file, -t with --batch, malformed lines
got=$("$IMCL" --batch "$w/none.jsonl" -b opencl -o "$w/b" "$SAMPLES/sum7/sum7.imcl" 2>&1; echo "status $?")
[[ $got == *"cannot open batch file"*"status 2" ]] && ok || fail "--batch with a missing file: $got"
got=$("$IMCL" --batch "$w/c.jsonl" -t "$w/c.jsonl" "$SAMPLES/sum7/sum7.imcl" 2>&1; echo "status $?")
[[ $got == *"--batch takes the configurations from its file: no -t"*"status 2" ]] && ok || fail "--batch with -t: $got"
printf '{"block_size_x": 16}\n\n[1, 2]\n{"block_size_x": 4,\n' > "$w/mixed.jsonl"
got=$("$IMCL" --batch "$w/mixed.jsonl" -b opencl -o "$w/mixed" "$SAMPLES/sum7/sum7.imcl" 2>&1; echo "status $?")
if [[ $got == *"mixed.jsonl:3: expected a flat JSON object"* && $got == *"mixed.jsonl:4:1: malformed JSON"* &&
      $got == *"1 of 3 configurations generated, 2 failed"*"status 1" ]] && [ -f "$w/mixed/1/sum7.cl" ] &&
      [ ! -e "$w/mixed/3" ] && [ ! -e "$w/mixed/4" ]; then
    ok
else
    fail "--batch with bad lines: $got"
fi

# Many generations in one process: every one identical to the first.
sed -n 2p "$WORK/sum7/opencl/configs.jsonl" > "$w/one.jsonl" 2>/dev/null || echo '{}' > "$w/one.jsonl"
"$RUN" -b opencl -r 1000 -q "$SAMPLES/sum7/sum7.imcl" "$w/one.jsonl" > "$w/many.txt" &&
    grep -q '^variants 1000 ' "$w/many.txt" && ok || fail "1000 generations in one process"

echo "libimcl: $pass passed, $failed failed"
[ $failed = 0 ]
