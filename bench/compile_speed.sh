#!/usr/bin/env bash
# Compile speed of imcl: how many tuning variants per second it generates, three ways
# side by side in one run.
#
#   bench/compile_speed.sh [-i IMCL] [-l LIBIMCL_RUN] [-n MAX] [-r REPEATS] [-b "opencl cuda"] [SAMPLE...]
#
# For each sample (default: every samples/<K>/<K>.imcl) and backend, MAX configurations
# of its dumped space (`imcl --dump-space -b BACKEND`, restrictions evaluated in Python,
# tests/libimcl/configs.py: all of them when there are fewer, else a fixed-seed
# sample; default 300) are written as params files and as one JSON-lines file. Then,
# REPEATS times (default 3):
#   process  one imcl process per variant (imcl -t p.json -o DIR/N), from a shell loop;
#   batch    one `imcl --batch list.jsonl -o DIR` (files written, as above);
#   library  libimcl in one process (tests/libimcl/libimcl_run -q: imcl_open once,
#            imcl_generate per variant, the files kept in memory, not written).
# Only those commands are timed (wall clock, process start included); writing the
# params files is not. Each figure is variants per second: the median and the
# minimum of the repeats. One core: nothing runs in parallel.
#
# Output: a table per sample and backend, the totals, and the command line that
# reproduces the run. Nothing is checked: this is not a test (tests/libimcl
# checks that the three give the same files).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
LIBRUN=$ROOT/build/tests/libimcl_run
MAX=300
REPEATS=3
BACKENDS="opencl cuda"
usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "i:l:n:r:b:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    l) LIBRUN=$OPTARG ;;
    n) MAX=$OPTARG ;;
    r) REPEATS=$OPTARG ;;
    b) BACKENDS=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
SAMPLES=("$@")
if [ ${#SAMPLES[@]} -eq 0 ]; then
    for d in "$ROOT"/samples/*/; do
        k=$(basename "$d")
        [ -f "$d/$k.imcl" ] && SAMPLES+=("$k")
    done
fi
[ -x "$IMCL" ] || { echo "imcl not found at $IMCL (build it, or pass -i)" >&2; exit 2; }
[ -x "$LIBRUN" ] || { echo "libimcl_run not found at $LIBRUN (build it, or pass -l)" >&2; exit 2; }
IMCL=$(realpath "$IMCL")
LIBRUN=$(realpath "$LIBRUN")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/imcl-compile-speed.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { print b - a }'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }
# "median min" of the numbers given
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f %.0f\n", m, v[1] }'; }

echo "imcl compile speed: $IMCL ($("$IMCL" --version 2>&1 | head -1)), library: $LIBRUN"
echo "host: $(nproc) CPUs, $(uname -srm); load: $(cut -d' ' -f1-3 /proc/loadavg); repeats: $REPEATS; backends: $BACKENDS"
printf '%-8s %-7s %8s %18s %18s %18s\n' sample backend variants "process/s med(min)" "batch/s med(min)" "library/s med(min)"
declare -A tot_n tot_t
for k in "${SAMPLES[@]}"; do
    src=$ROOT/samples/$k/$k.imcl
    [ -f "$src" ] || { echo "no sample $k" >&2; exit 2; }
    for b in $BACKENDS; do
        pdir=$TMP/$k/params.$b
        mkdir -p "$pdir"
        "$IMCL" --dump-space -b "$b" "$src" | python3 "$ROOT/tests/libimcl/configs.py" "$MAX" 1 > "$pdir/list.jsonl" 2> /dev/null
        n=$(wc -l < "$pdir/list.jsonl")
        i=0
        while IFS= read -r line; do
            i=$((i + 1))
            printf '%s\n' "$line" > "$pdir/p$i.json"
        done < "$pdir/list.jsonl"
        declare -a rp=() rb=() rl=()
        for ((r = 0; r < REPEATS; r++)); do
            odir=$TMP/$k/$b
            rm -rf "$odir"
            mkdir -p "$odir"
            t0=$(now)
            for ((i = 1; i <= n; i++)); do
                "$IMCL" -b "$b" -t "$pdir/p$i.json" -o "$odir/$i" "$src"
            done
            tp=$(since "$t0")
            made=$(find "$odir" -mindepth 1 -maxdepth 1 -type d | wc -l)
            [ "$made" -eq "$n" ] || { echo "only $made of $n variants of $k were generated with -b $b" >&2; exit 1; }
            rm -rf "$odir"
            t0=$(now)
            "$IMCL" --batch "$pdir/list.jsonl" -b "$b" -o "$odir" "$src"
            tb=$(since "$t0")
            made=$(find "$odir" -mindepth 1 -maxdepth 1 -type d | wc -l)
            [ "$made" -eq "$n" ] || { echo "--batch made $made of $n variants of $k with -b $b" >&2; exit 1; }
            rm -rf "$odir"
            t0=$(now)
            "$LIBRUN" -q -b "$b" "$src" "$pdir/list.jsonl" > /dev/null
            tl=$(since "$t0")
            rp+=("$(rate "$n" "$tp")")
            rb+=("$(rate "$n" "$tb")")
            rl+=("$(rate "$n" "$tl")")
            for m in process batch library; do
                t=$([ $m = process ] && echo "$tp" || { [ $m = batch ] && echo "$tb" || echo "$tl"; })
                tot_n[$m.$r]=$(( ${tot_n[$m.$r]:-0} + n ))
                tot_t[$m.$r]=$(awk -v a="${tot_t[$m.$r]:-0}" -v b="$t" 'BEGIN { print a + b }')
            done
        done
        read -r pm pmin < <(stats "${rp[@]}")
        read -r bm bmin < <(stats "${rb[@]}")
        read -r lm lmin < <(stats "${rl[@]}")
        printf '%-8s %-7s %8d %18s %18s %18s\n' "$k" "$b" "$n" "$pm ($pmin)" "$bm ($bmin)" "$lm ($lmin)"
    done
done
declare -a ap=() ab=() al=()
for ((r = 0; r < REPEATS; r++)); do
    ap+=("$(rate "${tot_n[process.$r]}" "${tot_t[process.$r]}")")
    ab+=("$(rate "${tot_n[batch.$r]}" "${tot_t[batch.$r]}")")
    al+=("$(rate "${tot_n[library.$r]}" "${tot_t[library.$r]}")")
done
read -r pm pmin < <(stats "${ap[@]}")
read -r bm bmin < <(stats "${ab[@]}")
read -r lm lmin < <(stats "${al[@]}")
printf '%-8s %-7s %8d %18s %18s %18s\n' all all "${tot_n[process.0]}" "$pm ($pmin)" "$bm ($bmin)" "$lm ($lmin)"
echo "reproduce: $0 -i $IMCL -l $LIBRUN -n $MAX -r $REPEATS -b \"$BACKENDS\" ${SAMPLES[*]}"
