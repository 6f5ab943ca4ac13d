#!/usr/bin/env bash
# The AN5D set on an NVIDIA GPU (bench/an5d/README.md, "On a GPU"): for every kernel, the
# CUDA default and the configurations of gpu_configs.py, checked against the hand loop and
# timed side by side with the device's copy bandwidth (gpu.c). As scripts/gpu-check.sh,
# in two steps: `bundle` builds here (nvcc, no GPU needed), `run` runs there.
#
#   bench/an5d/gpu.sh bundle DIR [-i IMCL] [-k "K..."]   programs in DIR/an5d
#   bench/an5d/gpu.sh run DIR [-k "K..."] [-2 N2] [-3 N3] [-r REPS]   (8192, 512, 10)
#
# `run` prints each kernel's lines (KERNEL CONFIG GSTENCIL/S FRACTION_OF_ROOF) with the
# configuration's JSON, into DIR/logs/an5d.txt as well, then a table per kernel: the
# default and the best of the configurations, their fractions of the copy roofline and
# default / best. Exit status: 0, or 1 when a configuration failed or differed.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$(dirname "$HERE")")
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
GPU_ARCH=${GPU_ARCH:-sm_90}
usage() { sed -n '7,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
MODE=$1
DIR=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
IMCL=$ROOT/build/imcl
KERNELS=
N2=8192
N3=512
REPS=10
while getopts "i:k:2:3:r:" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    k) KERNELS=$OPTARG ;;
    2) N2=$OPTARG ;;
    3) N3=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) usage ;;
    esac
done
[ -n "$KERNELS" ] || KERNELS=$(cd "$HERE/kernels" && ls ./*.imcl | sed 's|./||; s|\.imcl$||' | sort)

bundle() {
    [ -x "$NVCC" ] || { echo "an5d/gpu.sh: nvcc not found at $NVCC (set NVCC)" >&2; exit 1; }
    [ -x "$IMCL" ] || { echo "an5d/gpu.sh: no $IMCL: build imcl first" >&2; exit 1; }
    local work=$DIR/an5d-work k c n cfg t d
    rm -rf "$work" "$DIR/an5d"
    mkdir -p "$work/obj" "$DIR/an5d"
    # objects every program links: the hand loops (portable code: the GPU machine's
    # processor is another) and the copy bandwidth
    gcc -O3 -fopenmp -std=c11 -c "$HERE/loops.c" -o "$work/obj/loops.o"
    "$NVCC" -O3 -arch="$GPU_ARCH" -c "$ROOT/bench/gpu/copy_bw.cu" -o "$work/obj/copy_bw.o"
    local jobs=$work/jobs
    : >"$jobs"
    for k in $KERNELS; do
        mkdir -p "$work/$k"
        : >"$DIR/an5d/$k.configs"
        n=0
        c=0
        local list="#define AN5D_CONFIGS(X)" includes=
        while read -r cfg; do
            c=$((c + 1))
            local out=$work/$k/c$c t=()
            mkdir -p "$out"
            if [ "$cfg" != default ]; then
                echo "$cfg" >"$out/params.json"
                t=(-t "$out/params.json")
            fi
            if ! "$IMCL" -b cuda --prefix "g$((n + 1))_" -o "$out" "${t[@]}" \
                "$HERE/kernels/$k.imcl" 2>"$out/refused"; then
                echo "$k: imcl refuses $cfg: $(head -1 "$out/refused")"
                continue
            fi
            n=$((n + 1))
            echo "$cfg" >>"$DIR/an5d/$k.configs"
            includes+="#include \"c$c/$k.h\""$'\n'
            list+=" X(g${n}_$k)"
            # (--prefix names the __global__ kernel too: the configurations of one kernel
            # link into one program)
            echo "$NVCC -O3 -arch=$GPU_ARCH -c $out/$k.cu" \
                "-o $work/$k/g$n.o" >>"$jobs"
            # the host runtime, the same in every folder: once
            [ $n = 1 ] && echo "$NVCC -O3 -arch=$GPU_ARCH -c $out/imcl_runtime_cuda.cu" \
                "-o $work/$k/runtime.o" >>"$jobs"
        done < <("$IMCL" -b cuda --dump-space "$HERE/kernels/$k.imcl" | python3 "$HERE/gpu_configs.py")
        t=double
        [ "${k##*_}" = f ] && t=float
        d=2
        case $k in *3d*) d=3 ;; esac
        printf '%s#define AN5D_NAME "%s"\n#define AN5D_KERNEL %s\n#define AN5D_T %s\n#define AN5D_DIMS %d\n%s\n' \
            "$includes" "$k" "$k" "$t" "$d" "$list" >"$work/$k/gpu_list.h"
    done
    echo "an5d/gpu.sh: $(wc -l <"$jobs") CUDA files to build"
    xargs -P "$(nproc)" -L 1 -a "$jobs" sh -c '"$@" || exit 255' sh
    for k in $KERNELS; do
        gcc -O2 -fopenmp -std=c11 -I "$work/$k" -I "$HERE" -I "$ROOT/bench/gpu" -c "$HERE/gpu.c" -o "$work/$k/gpu.o"
        "$NVCC" -arch="$GPU_ARCH" -cudart shared -o "$DIR/an5d/an5d-gpu-$k" "$work/$k"/*.o \
            "$work/obj/loops.o" "$work/obj/copy_bw.o" -lgomp
    done
    rm -rf "$work"
    echo "an5d/gpu.sh: $(ls "$DIR/an5d" | grep -c '^an5d-gpu-') programs in $DIR/an5d ($(du -sh "$DIR/an5d" | cut -f1))"
}

run() {
    local log=$DIR/logs/an5d.txt k status=0 line c
    mkdir -p "$DIR/logs"
    : >"$log"
    for k in $KERNELS; do
        local w=$N2
        case $k in *3d*) w=$N3 ;; esac
        "$DIR/an5d/an5d-gpu-$k" "$w" "$REPS" >"$DIR/logs/an5d-$k.out" 2>>"$log" || status=1
        while read -r line; do
            c=$(echo "$line" | cut -d' ' -f2)
            echo "$line $(sed -n "${c}p" "$DIR/an5d/$k.configs")" | tee -a "$log"
        done <"$DIR/logs/an5d-$k.out"
    done
    echo "kernel       default GS/s (of roof)  best GS/s (of roof)  default/best  best configuration"
    for k in $KERNELS; do
        awk -v k="$k" -v cfgs="$DIR/an5d/$k.configs" '
            BEGIN { n = 0; while ((getline l < cfgs) > 0) cfg[++n] = l }
            $3 != "-" { gs[$2] = $3; fr[$2] = $4; if (b == "" || $3 + 0 > bgs) { bgs = $3 + 0; b = $2 } }
            END {
                if (!(1 in gs)) { printf "%-12s default failed\n", k; exit }
                printf "%-12s %7.2f (%.2f)   %7.2f (%.2f)   %5.2f   %s\n", k, gs[1], fr[1],
                       gs[b], fr[b], gs[1] / gs[b], cfg[b]
            }' "$DIR/logs/an5d-$k.out"
    done
    return $status
}

case $MODE in
bundle) bundle ;;
run) run ;;
*) usage ;;
esac
