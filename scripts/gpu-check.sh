#!/usr/bin/env bash
# The CUDA tests and benchmarks on a real NVIDIA GPU (docs/testing.md, "Running CUDA on
# a GPU").
#
#   scripts/gpu-check.sh bundle DIR [BUILD_DIR]   build everything, no GPU needed
#   scripts/gpu-check.sh run DIR [PART...]         run it where there is a GPU
#
# `bundle` (BUILD_DIR: a configured and built release tree, default build) puts into DIR
# every program that needs a GPU and nothing to build it with, so that `run` needs only
# the NVIDIA driver, bash and python3 (a GPU machine without flex, Lua or PoCL):
#   1. the tests that build CUDA (lit.samples, lit.plan, lit.lang, lit.unroll, run with IMCL_GPU_BUNDLE
#      set: tests/lib/gpu.sh puts each nvcc-built oracle check in DIR/bin and DIR/list),
#      and tests/space/run_space.py with more CUDA configurations of the dumped spaces
#      than ctest draws (SPACE_CUDA_N per sample, default 12; its newest parameters too);
#   2. the emulator's unit tests tests/cuda_cpu/*.cu built by nvcc: what the emulator is
#      tested against (error codes, shuffle results, texture reads) checked on hardware;
#   3. miniamr-proxy with its cuda backend (for the runs of tests/proxy/cuda, checked by
#      tests/proxy/last_json.py, and bench/miniamr.sh);
#   4. bench/gpu/sum7.c (the 7-point double stencil through its plan: GStencil/s and the
#      fraction of the device's copy bandwidth) for each configuration in
#      bench/gpu/sum7.configs (the default first), built for sm_90 (GPU_ARCH); `run`
#      times each at 256^3, then the default and the fastest at 512^3; bench/gpu/batch.c
#      (miniAMR's stencil7 on batches of 8^3, 16^3 and 32^3 blocks resident on the
#      device, one launch for all) for the configurations BATCH_CONFIGS below; and
#      bench/gpu/blur5.c (the 5x5 float blur on an 8192^2 image) for BLUR5_CONFIGS;
#   5. the AN5D set (bench/an5d/gpu.sh bundle): per kernel one program that checks the
#      CUDA default and the configurations of bench/an5d/gpu_configs.py against the hand
#      loop and times them beside the copy bandwidth;
#   6. DIR/lib: the CUDA runtime, the OpenCL loader and libgomp the programs link.
# `run` runs the PARTs named (default: all, in this order): `checks`, the listed checks (8
# at a time) and the unit tests; `proxy`, the proxy validated cell by cell (v1, v2, v3,
# v2 --resident); `an5d`, the AN5D set (bench/an5d/gpu.sh run); `bench`, the other
# benchmarks; and ends with "N passed, M failed"; the failures tests/gpu/known-failures lists (the toolchain's) are reported as
# KNOWN and not counted; each check's output goes to DIR/logs/LABEL.log (the benchmarks' numbers are
# printed, not judged; docs/performance.md is where they are recorded).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_LIBDIR=${CUDA_LIBDIR:-/usr/local/cuda/lib64}
GPU_ARCH=${GPU_ARCH:-sm_90}
usage() { sed -n '5,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
MODE=$1
DIR=$(mkdir -p "$2" && cd "$2" && pwd)
cd "$ROOT"
. tests/lib/gpu.sh # gpu_present

pass=0
failn=0
result() { if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else failn=$((failn + 1)); echo "FAIL $1"; fi; }
finish() { echo "$pass passed, $failn failed"; [ "$failn" -eq 0 ]; }

# the stencil7 configurations timed on batches of blocks: the default, then shapes that
# fit miniAMR's small blocks, and the batch looped inside each thread (batch_loop)
BATCH_CONFIGS=(
    default
    '{"batch_loop": 1}'
    '{"block_size_x": 8, "block_size_y": 8, "block_size_z": 4, "batch_loop": 1}'
    '{"block_size_x": 8, "block_size_y": 8, "block_size_z": 4}'
    '{"block_size_x": 16, "block_size_y": 8, "block_size_z": 2}'
    '{"block_size_x": 32, "block_size_y": 4, "block_size_z": 2}'
    '{"block_size_x": 32, "block_size_y": 8, "stream_z": 8}'
    '{"block_size_x": 8, "block_size_y": 8, "stream_z": 8}'
)

# the blur5 configurations (2D): the default, the sample's, and other shapes
BLUR5_CONFIGS=(
    default
    '{"block_size_x": 8, "block_size_y": 8}'
    '{"block_size_x": 16, "block_size_y": 8}'
    '{"block_size_x": 16, "block_size_y": 16}'
    '{"block_size_x": 32, "block_size_y": 8}'
    '{"block_size_x": 32, "block_size_y": 16}'
    '{"block_size_x": 64, "block_size_y": 4}'
    '{"block_size_x": 128, "block_size_y": 1}'
)

# bench_sources NAME KERNEL.imcl DRIVER.c CONFIG...: for the Nth CONFIG ('default': no
# -t), generates the CUDA of KERNEL into BUILD/work/gpu-bench/NAME-N (BUILD: bundle's
# build tree) and writes there the nvcc command that links it with DRIVER into
# DIR/bench/NAME-N (build.sh); CONFIG goes to DIR/bench/NAME-N.json
bench_sources() {
    local name=$1 kernel=$2 driver=$3 n=0 cfg w t
    shift 3
    for cfg in "$@"; do
        n=$((n + 1))
        w=$build/work/gpu-bench/$name-$n
        t=()
        mkdir -p "$w"
        [ "$cfg" = default ] || { echo "$cfg" >"$w/params.json"; t=(-t "$w/params.json"); }
        echo "$cfg" >"$DIR/bench/$name-$n.json"
        echo "$NVCC -O3 -arch=$GPU_ARCH -cudart shared -I $w $w/$(basename "$kernel" .imcl).cu" \
            "$w/imcl_runtime_cuda.cu bench/gpu/copy_bw.cu $driver -o $DIR/bench/$name-$n" >"$w/build.sh"
        "$build/imcl" -b cuda --prefix cuda_ -o "$w" "${t[@]}" "$kernel"
        result "imcl $name-$n" $?
    done
}

# run_benches NAME ARGS...: each DIR/bench/NAME-N in turn after a line "NAME.N CONFIG",
# once per ARGS (a word list), the output also appended to DIR/logs/NAME.txt
run_benches() {
    local name=$1 b a rc
    shift
    for ((b = 1; ; b++)); do
        [ -x "$DIR/bench/$name-$b" ] || break
        echo "$name.$b $(cat "$DIR/bench/$name-$b.json")" | tee -a "$DIR/logs/$name.txt"
        rc=0
        for a in "$@"; do
            # shellcheck disable=SC2086 # ARGS is a word list
            "$DIR/bench/$name-$b" $a 2>&1 | tee -a "$DIR/logs/$name.txt"
            [ "${PIPESTATUS[0]}" = 0 ] || rc=1
        done
        result "bench.$name.$b" $rc
    done
}

bundle() {
    local build=$(cd "${1:-build}" && pwd) b cfg
    [ -x "$NVCC" ] || { echo "gpu-check: nvcc not found at $NVCC (set NVCC)" >&2; exit 1; }
    rm -rf "$DIR"/{bin,list,lib,proxy,bench}
    mkdir -p "$DIR"/{bin,lib,proxy,bench}
    export IMCL_GPU_BUNDLE=$DIR

    echo "== 1. the tests that build CUDA"
    (cd "$build" && ctest --output-on-failure -j2 -R '^lit\.(samples|lang|unroll|plan)$')
    result ctest $?
    python3 tests/space/run_space.py --quick --n 2 --run-max 1 --cuda-n "${SPACE_CUDA_N:-12}" --new-n 2 \
        --no-negative --imcl "$build/imcl" --samples samples --drivers tests/run --work "$build/work/space-gpu"
    result space $?

    echo "== 2. the emulator's unit tests, built by nvcc"
    for u in barrier shuffle constant texture limits; do
        "$NVCC" -O2 -o "$DIR/bin/unit.$u" "tests/cuda_cpu/$u.cu" && echo "unit.$u 60" >>"$DIR/list"
        result "nvcc unit.$u" $?
    done

    echo "== 3. the proxy"
    cp "$build/samples/miniamr/proxy/miniamr-proxy" "$DIR/proxy/"
    result proxy $?

    echo "== 4. benchmarks: bench/gpu/sum7.c (bench/gpu/sum7.configs), bench/gpu/batch.c"
    rm -rf "$build/work/gpu-bench"
    local sum7=()
    while read -r cfg; do
        case $cfg in '#'* | '') continue ;; sample) cfg=$(cat samples/sum7/params.json) ;; esac
        sum7+=("$cfg")
    done <bench/gpu/sum7.configs
    bench_sources sum7 samples/sum7/sum7.imcl bench/gpu/sum7.c "${sum7[@]}"
    bench_sources batch samples/miniamr/stencil7.imcl bench/gpu/batch.c "${BATCH_CONFIGS[@]}"
    bench_sources blur5 samples/blur5/blur5.imcl bench/gpu/blur5.c "${BLUR5_CONFIGS[@]}"
    ls "$build"/work/gpu-bench/*/build.sh | xargs -P 2 -n 1 bash
    for b in "$build"/work/gpu-bench/*; do
        [ -x "$DIR/bench/${b##*/}" ]
        result "nvcc bench ${b##*/}" $?
    done

    echo "== 5. the AN5D set"
    bash bench/an5d/gpu.sh bundle "$DIR" -i "$build/imcl"
    result an5d $?

    echo "== 6. libraries"
    for b in "$CUDA_LIBDIR/libcudart.so.13" $(ldconfig -p | awk '/libOpenCL.so.1 |libgomp.so.1 / {print $NF}'); do
        cp -L "$b" "$DIR/lib/"
    done
    result libraries $?
    echo "bundle: $(wc -l <"$DIR/list") checks in $DIR ($(du -sh "$DIR" | cut -f1))"
}

# one listed check: one LABEL LIMIT ARGS... (run in DIR/work/LABEL, output in DIR/logs)
one() {
    local label=$1 limit=$2
    shift 2
    mkdir -p "$DIR/work/$label"
    if (cd "$DIR/work/$label" && timeout "$limit" "$DIR/bin/$label" "$@") >"$DIR/logs/$label.log" 2>&1; then
        echo "PASS $label"
    else
        echo "FAIL $label (status $?)"
    fi
}

run() {
    local parts=" ${*:-checks proxy an5d bench} "
    if ! gpu_present; then
        echo "gpu-check: nvidia-smi lists no GPU" >&2
        exit 1
    fi
    nvidia-smi -L
    export LD_LIBRARY_PATH=$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    rm -rf "$DIR"/{logs,work}
    mkdir -p "$DIR/logs"

    [[ $parts != *" checks "* ]] || run_checks
    [[ $parts != *" proxy "* ]] || run_proxy
    if [[ $parts == *" an5d "* ]]; then
        echo "== the AN5D set"
        bash bench/an5d/gpu.sh run "$DIR"
        result bench.an5d $?
    fi
    [[ $parts != *" bench "* ]] || run_bench
}

run_checks() {
    echo "== the tests' checks and the unit tests ($(wc -l <"$DIR/list"))"
    local r
    r=$(sed "s/ *$//" "$DIR/list" | xargs -P 8 -L 1 "$0" one "$DIR")
    # failures of the toolchain (tests/gpu/known-failures) are KNOWN, and FIXED once they pass
    local label why known=0
    while read -r label why; do
        case $label in '#'* | '') continue ;; esac
        if printf '%s\n' "$r" | grep -q "^FAIL $label "; then
            r=$(printf '%s\n' "$r" | awk -v l="$label" -v w="$why" \
                '$1 == "FAIL" && $2 == l {print "KNOWN " l ": " w; next} {print}')
            known=$((known + 1))
        elif printf '%s\n' "$r" | grep -qx "PASS $label"; then
            echo "FIXED $label (passes now: take it out of tests/gpu/known-failures)"
        fi
    done <tests/gpu/known-failures
    printf '%s\n' "$r" | grep '^FAIL\|^KNOWN' || true
    pass=$((pass + $(printf '%s\n' "$r" | grep -c '^PASS')))
    failn=$((failn + $(printf '%s\n' "$r" | grep -c '^FAIL')))
    echo "checks: $pass passed, $failn failed, $known known failures of the toolchain"
}

# the runs of tests/proxy/cuda/{v1,v2,v3,resident}.test on the GPU (no lit there): status 0
# (pipefail) and the fields of the last line of output (tests/proxy/last_json.py)
run_proxy() {
    echo "== the proxy on the GPU, validated cell by cell"
    local proxy=$DIR/proxy/miniamr-proxy k
    local mesh=(--n 12 --blocks 6 --vars 4 --steps 2 --stages 3)
    for k in v1 v2 v3; do
        "$proxy" --kernel $k --backend cuda "${mesh[@]}" --validate |
            python3 tests/proxy/last_json.py validated=true differences=0
        result "proxy.$k" $?
    done
    "$proxy" --kernel v2 --resident --backend cuda "${mesh[@]}" --validate |
        python3 tests/proxy/last_json.py validated=true differences=0 resident=true
    result proxy.resident $?
}

run_bench() {
    echo "== benchmarks ($(nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader))"
    local b best
    run_benches sum7 "256 20"
    # the default and the fastest at 512^3
    best=$(awk '/^sum7\./ {c = $1} / GStencil/ {print $5, c}' "$DIR/logs/sum7.txt" | sort -g | tail -1 | cut -d' ' -f2)
    for b in sum7.1 ${best:+"$best"}; do
        echo "$b at 512^3: $(grep "^$b " "$DIR/logs/sum7.txt" | cut -d' ' -f2-)"
        "$DIR/bench/sum7-${b#sum7.}" 512 10
        result "bench.$b.512" $?
    done
    run_benches batch "8 8192 20" "16 2048 20" "32 256 20"
    run_benches blur5 "8192 20"
    bash bench/miniamr.sh -p "$DIR/proxy/miniamr-proxy" -b cuda -k "v1 v2 v3 v2r" -r 1
    result bench.miniamr $?
}

case $MODE in
bundle) bundle "${3:-}"; finish ;;
run) shift 2; run "$@"; finish ;;
one) shift 2; one "$@" ;;
*) usage ;;
esac
