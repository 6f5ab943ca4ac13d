#!/usr/bin/env bash
# Compile speed of imcl: how many tuning variants per second it generates.
#
#   bench/compile_speed.sh [-i IMCL] [-n MAX] [-b "opencl cuda"] [-j JOBS] [SAMPLE...]
#
# For each sample (default: every samples/<K>/<K>.imcl), the configurations of its
# dumped space (`imcl --dump-space -b opencl`, restrictions evaluated in Python) are
# written as params files, at most MAX of them (default 10000; a fixed-seed sample
# when the space is larger); then each backend generates every variant, one imcl
# process per variant (imcl has no batch mode), each into its own folder of a temp
# dir. Only the imcl runs are timed (the loop that starts them included); writing
# the params files is not. JOBS > 1 runs that many imcl processes at once (xargs -P).
# As a baseline, the same number of `imcl --version` processes is timed: that is the
# cost of starting a process, which a batch mode could save at most.
#
# Output: variants per second per sample and backend, overall, and the command line
# that reproduces the run. Nothing is checked: this is not a test.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
MAX=10000
BACKENDS="opencl cuda"
JOBS=1
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "i:n:b:j:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) MAX=$OPTARG ;;
    b) BACKENDS=$OPTARG ;;
    j) JOBS=$OPTARG ;;
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
IMCL=$(realpath "$IMCL")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/imcl-compile-speed.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }
ms() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", (n > 0 ? 1000 * t / n : 0) }'; }

# Writes the params files of sample $1 into $2 (one JSON per line in list.txt too).
enumerate() {
    "$IMCL" --dump-space -b opencl "$ROOT/samples/$1/$1.imcl" | python3 -c '
import itertools, json, os, random, sys
space, out, cap = json.load(sys.stdin), sys.argv[1], int(sys.argv[2])
names = list(space["parameters"])
codes = [compile(r, "<r>", "eval") for r in space["restrictions"]]
ok = lambda c: all(eval(x, {}, dict(c)) for x in codes)
raw = 1
for n in names:
    raw *= len(space["parameters"][n])
rng = random.Random(1)
if raw <= 2000000:
    cfgs = [c for c in (dict(zip(names, v)) for v in itertools.product(*(space["parameters"][n] for n in names))) if ok(c)]
    total = len(cfgs)
    if total > cap:
        cfgs = rng.sample(cfgs, cap)
else:
    seen, total = {}, "too many to count"
    for _ in range(1000 * cap):
        if len(seen) >= cap:
            break
        c = {n: rng.choice(space["parameters"][n]) for n in names}
        if ok(c):
            seen[json.dumps(c, sort_keys=True)] = c
    cfgs = list(seen.values())
for i, c in enumerate(cfgs):
    with open(os.path.join(out, "p%05d.json" % i), "w") as f:
        json.dump(c, f)
print(len(cfgs), total)
' "$2" "$MAX"
}

echo "imcl compile speed: $IMCL ($("$IMCL" --version 2>&1 | head -1))"
echo "host: $(nproc) CPUs, $(uname -srm); jobs: $JOBS; backends: $BACKENDS"
printf '%-10s %-7s %8s %10s %12s %12s\n' sample backend variants seconds "variants/s" "ms/variant"
tot_n=0
tot_t=0
declare -A be_n be_t
for k in "${SAMPLES[@]}"; do
    src=$ROOT/samples/$k/$k.imcl
    [ -f "$src" ] || { echo "no sample $k" >&2; exit 2; }
    pdir=$TMP/$k/params
    mkdir -p "$pdir"
    read -r n total < <(enumerate "$k" "$pdir")
    for b in $BACKENDS; do
        odir=$TMP/$k/$b
        mkdir -p "$odir"
        t0=$(now)
        if [ "$JOBS" -le 1 ]; then
            for p in "$pdir"/p*.json; do
                v=$(basename "$p" .json)
                "$IMCL" -b "$b" -t "$p" -o "$odir/$v" "$src"
            done
        else
            printf '%s\n' "$pdir"/p*.json | xargs -P "$JOBS" -I{} sh -c \
                'v=$(basename "$1" .json); exec "$2" -b "$3" -t "$1" -o "$4/$v" "$5"' _ {} "$IMCL" "$b" "$odir" "$src"
        fi
        t1=$(now)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
        made=$(find "$odir" -mindepth 1 -maxdepth 1 -type d | wc -l)
        [ "$made" -eq "$n" ] || { echo "only $made of $n variants of $k were generated with -b $b" >&2; exit 1; }
        printf '%-10s %-7s %8d %10.2f %12s %12s\n' "$k" "$b" "$n" "$t" "$(rate "$n" "$t")" "$(ms "$n" "$t")"
        tot_n=$((tot_n + n))
        tot_t=$(awk -v a="$tot_t" -v b="$t" 'BEGIN { print a + b }')
        be_n[$b]=$(( ${be_n[$b]:-0} + n ))
        be_t[$b]=$(awk -v a="${be_t[$b]:-0}" -v b="$t" 'BEGIN { print a + b }')
        rm -rf "$odir"
    done
    echo "           ($k: $n of $total valid configurations)"
done
for b in $BACKENDS; do
    printf '%-10s %-7s %8d %10.2f %12s %12s\n' all "$b" "${be_n[$b]}" "${be_t[$b]}" "$(rate "${be_n[$b]}" "${be_t[$b]}")" \
        "$(ms "${be_n[$b]}" "${be_t[$b]}")"
done
printf '%-10s %-7s %8d %10.2f %12s %12s\n' all all "$tot_n" "$tot_t" "$(rate "$tot_n" "$tot_t")" "$(ms "$tot_n" "$tot_t")"

# Baseline: starting imcl without compiling anything.
base_n=$((tot_n < 2000 ? tot_n : 2000))
t0=$(now)
for ((i = 0; i < base_n; i++)); do "$IMCL" --version >/dev/null; done
t1=$(now)
t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
printf 'baseline: %d x imcl --version: %.2f s, %s ms per process (process start-up, the most a batch mode could save)\n' \
    "$base_n" "$t" "$(ms "$base_n" "$t")"
echo "reproduce: $0 -i $IMCL -n $MAX -b \"$BACKENDS\" -j $JOBS ${SAMPLES[*]}"
