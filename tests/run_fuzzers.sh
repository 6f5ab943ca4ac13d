#!/usr/bin/env bash
# One libFuzzer harness for a while (tests/fuzz/README.md):
#   run_fuzzers.sh HARNESS NAME SOURCE_DIR WORK_DIR SECONDS
# NAME is source, config or params. The seed corpus is made from the repository
# (samples, the language, golden, diagnostics and shape kernels; for config, each with
# its configurations; for params, every parameter file of the tests), plus the
# regression corpus tests/fuzz/regressions/NAME, replayed first. Fails on any crash,
# sanitizer report, leak or timeout (libFuzzer's exit status), and then writes the
# input that broke it next to the log in WORK_DIR.
set -uo pipefail
HARNESS=$(realpath "$1") NAME=$2 SRC=$(realpath "$3") WORK=$4 SECONDS_=${5:-20}
rm -rf "$WORK"
mkdir -p "$WORK/seeds" "$WORK/corpus" "$WORK/crashes"
seeds=$WORK/seeds
kernels=("$SRC"/samples/*/*.imcl "$SRC"/tests/lang/*.imcl "$SRC"/tests/golden/*.imcl "$SRC"/tests/diag/*.imcl
         "$SRC"/tests/shape/*.imcl "$SRC"/tests/recipe/*.imcl "$SRC"/tests/params/*.imcl)
i=0
case $NAME in
source)
    for k in "${kernels[@]}"; do i=$((i + 1)); cp "$k" "$seeds/$i.imcl"; done ;;
config)
    # a configuration, a NUL byte, a kernel
    for p in "$SRC"/samples/*/params.json "$SRC"/tests/golden/*.json; do
        k=${p%.json}.imcl
        [ -f "$k" ] || k=$(ls "$(dirname "$p")"/*.imcl | head -1)
        i=$((i + 1)); { cat "$p"; printf '\0'; cat "$k"; } >"$seeds/$i"
    done
    for l in "$SRC"/tests/lang/*.params; do
        k=${l%.params}.imcl
        grep -v '^[[:space:]]*\(#\|$\)' "$l" | sed 's/^cuda:[[:space:]]*//' | while read -r line; do
            i=$((i + 1)); { printf '%s' "$line"; printf '\0'; cat "$k"; } >"$seeds/$(basename "$l")-$i"
        done
    done ;;
params)
    for p in "$SRC"/tests/params/*.json "$SRC"/tests/params/*.txt "$SRC"/samples/*/*.json; do
        i=$((i + 1)); cp "$p" "$seeds/$i"
    done ;;
*) echo "run_fuzzers: unknown harness $NAME" >&2; exit 2 ;;
esac
regressions=()
[ -d "$SRC/tests/fuzz/regressions/$NAME" ] && regressions=("$SRC/tests/fuzz/regressions/$NAME")
cd "$WORK"
"$HARNESS" -dict="$SRC/tests/fuzz/imcl.dict" -max_total_time="$SECONDS_" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="$WORK/crashes/" -print_final_stats=1 \
    corpus "${regressions[@]}" "$seeds" >"$WORK/log" 2>&1
rc=$?
tail -n 15 "$WORK/log"
if [ $rc != 0 ]; then
    echo "FAIL fuzz.$NAME: libFuzzer exited with status $rc; the input is in $WORK/crashes:"
    ls "$WORK/crashes"
    exit 1
fi
echo "PASS fuzz.$NAME: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/log" | grep -o '[0-9]*$') runs, no crash"
