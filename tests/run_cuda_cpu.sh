#!/usr/bin/env bash
# The CUDA emulator behind scripts/nvcc-cpu: run_cuda_cpu.sh IMCL WORK_DIR
#   cli.*     nvcc-cpu's command line: .cu and .c inputs in one command with -D, -I, -O3,
#             -arch, -gencode, -Xcompiler, --resource-usage, -lineinfo, -lcudart; -c then
#             a link; -c without -o; -x cu on a .c file; an unknown option refused;
#   unit.*    tests/cuda_cpu/{barrier,shuffle,constant,texture,limits}.cu built with
#             nvcc-cpu (-Wall -Wextra -Werror) and run in each thread order
#             (IMCL_EMU_ORDER forward, reverse, shuffle), leaks failing (IMCL_EMU_LEAKS);
#   expect.*  what must fail does: a kernel without its barrier (every order), a wrong
#             shuffle delta, a bad shuffle width, a lane outside its mask, a deadlock, a
#             buffer left allocated, 48 KiB + 1 of __shared__ and 64 KiB + 4 of __constant__
#             (compile errors, as with nvcc), and no device (IMCL_EMU_DEVICES=0);
#   nvcc.*    the same test files are CUDA: nvcc compiles them, and refuses the two
#             oversized ones;
#   inject.*  generated CUDA run against the oracle of tests/run/check_<K>.c: sum7 with
#             'input' in shared memory and in texture memory, sobel in texture memory,
#             pass; with the barrier removed, or the texture addressing mode changed
#             (border <-> clamp), they must fail.
# SANITIZE=1 builds the test programs with ASan and UBSan. A missing nvcc is a failure.
# Prints "N passed, M failed"; exits non-zero when anything failed.
# Environment: CC (gcc), CXX (g++, used by nvcc-cpu), NVCC (/usr/local/cuda/bin/nvcc).
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 IMCL WORK_DIR" >&2
    exit 2
fi
IMCL=$(realpath "$1")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=$ROOT/tests/cuda_cpu
NVCC_CPU=$ROOT/scripts/nvcc-cpu
CC=${CC:-gcc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
rm -rf "$2"
mkdir -p "$2"
WORK=$(realpath "$2")
cd "$WORK"

pass=0
failn=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { failn=$((failn + 1)); echo "FAIL $1: $2"; }
SAN=()
[ "${SANITIZE:-0}" = 1 ] && SAN=(-Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined
                              -Xcompiler -fno-sanitize-recover=undefined)
WARN=(-Xcompiler -Wall,-Wextra,-Werror)
export IMCL_EMU_LEAKS=fail

# ---- cli ---------------------------------------------------------------------------------
C=$T/cli
if "$NVCC_CPU" -DSCALE=3 -I "$C/inc" -O3 -arch=sm_80 -gencode arch=compute_80,code=sm_80 \
        --resource-usage -lineinfo -Xcompiler -Wall "$C/scale.cu" "$C/main.c" -L/usr/local/cuda/lib64 \
        -lcudart -o scale1 >cli1.log 2>&1 && [ "$(./scale1)" = "scale ok" ]; then
    ok cli.one_command
else
    bad cli.one_command "$(tail -3 cli1.log)"
fi
if "$NVCC_CPU" -c -DSCALE=5 -I"$C/inc" -arch sm_70 "$C/scale.cu" -o scale.o >cli2.log 2>&1 &&
        "$CC" -DSCALE=5 -c "$C/main.c" -o main.o && "$NVCC_CPU" scale.o main.o -o scale2 -lcudart &&
        [ "$(./scale2)" = "scale ok" ]; then
    ok cli.compile_then_link
else
    bad cli.compile_then_link "$(tail -3 cli2.log)"
fi
mkdir -p noout
if (cd noout && "$NVCC_CPU" -c -DSCALE=2 -I "$C/inc" "$C/scale.cu") && [ -s noout/scale.o ]; then
    ok cli.default_object_name
else
    bad cli.default_object_name "nvcc-cpu -c scale.cu made no scale.o"
fi
if "$NVCC_CPU" -x cu "$C/cuda_in_c.c" -o cuda_in_c >cli3.log 2>&1 && [ "$(./cuda_in_c)" = "2 4 6 8" ]; then
    ok cli.x_cu
else
    bad cli.x_cu "$(tail -3 cli3.log)"
fi
if "$NVCC_CPU" --no-such-option "$C/scale.cu" -o never >cli4.log 2>&1; then
    bad cli.unknown_option "accepted"
elif grep -q "Unknown option '--no-such-option'" cli4.log && [ ! -e never ]; then
    ok cli.unknown_option
else
    bad cli.unknown_option "$(cat cli4.log)"
fi

# ---- unit tests ------------------------------------------------------------------------------
build() { # build NAME SOURCE FLAGS...: nvcc-cpu SOURCE -o NAME, log in NAME.log
    local name=$1 src=$2
    shift 2
    "$NVCC_CPU" "${SAN[@]}" "$@" "$src" -o "$name" >"$name.log" 2>&1
}
for u in barrier shuffle constant texture limits; do
    if ! build "$u" "$T/$u.cu" "${WARN[@]}"; then
        bad "unit.$u" "does not build: $(head -5 "$u.log")"
        continue
    fi
    for order in forward reverse shuffle; do
        if IMCL_EMU_ORDER=$order timeout 120 "./$u" >"$u.$order.log" 2>&1; then
            ok "unit.$u.$order"
        else
            bad "unit.$u.$order" "$(tail -5 "$u.$order.log")"
        fi
    done
done

# ---- what must fail --------------------------------------------------------------------------
expect_fail() { # expect_fail NAME TEXT CMD...: CMD exits non-zero, and its output holds TEXT
    local name=$1 text=$2
    shift 2
    if ("$@") >"$name.log" 2>&1; then # (a subshell: its "Aborted" goes to the log)
        bad "expect.$name" "succeeded"
    elif ! grep -qF -- "$text" "$name.log"; then
        bad "expect.$name" "failed without '$text': $(tail -3 "$name.log")"
    else
        ok "expect.$name"
    fi
}
if build barrier_missing "$T/barrier.cu" -DMISSING_BARRIER; then
    for order in forward reverse shuffle; do
        for reads in up both; do
            expect_fail "missing_barrier.$order.$reads" "values wrong" \
                env IMCL_EMU_ORDER=$order ./barrier_missing $reads
        done
    done
else
    bad expect.missing_barrier "does not build: $(head -5 barrier_missing.log)"
fi
if build shuffle_fault "$T/shuffle.cu" -DSHFL_FAULT; then
    expect_fail shuffle_wrong_delta "shuffles in" ./shuffle_fault
else
    bad expect.shuffle_wrong_delta "does not build"
fi
if [ -x shuffle ]; then
    expect_fail shuffle_bad_width "width 3 is not a power of 2" ./shuffle bad-width
    expect_fail shuffle_bad_mask "which lacks it" ./shuffle bad-mask
    expect_fail shuffle_deadlock "deadlock: 16 thread(s) wait at __syncthreads() and 16 in a warp shuffle" \
        ./shuffle deadlock
fi
if [ -x limits ]; then
    expect_fail leak "1 device allocation(s) of 4 bytes" ./limits leak
    if IMCL_EMU_DEVICES=0 ./limits nodevice >nodevice.log 2>&1; then
        ok expect.no_device
    else
        bad expect.no_device "$(tail -3 nodevice.log)"
    fi
fi
expect_fail too_much_shared "kernel too_much uses too much shared data" \
    "$NVCC_CPU" -DTOO_MUCH_SHARED -c "$T/limits.cu" -o too_much_shared.o
expect_fail too_much_constant "too much __constant__ data" \
    "$NVCC_CPU" -DTOO_MUCH_CONSTANT -c "$T/limits.cu" -o too_much_constant.o

# ---- the tests are CUDA: nvcc compiles them ------------------------------------------------------
if [ ! -x "$NVCC" ]; then
    bad nvcc "nvcc not found at $NVCC (set NVCC)"
else
    mkdir -p nvcc
    if (cd nvcc && "$NVCC" -c -I"$C/inc" -DSCALE=3 "$T"/{barrier,shuffle,constant,texture,limits}.cu \
            "$C/scale.cu") >nvcc.log 2>&1; then
        ok nvcc.compiles_the_tests
    else
        bad nvcc.compiles_the_tests "$(tail -5 nvcc.log)"
    fi
    expect_fail nvcc.too_much_shared "uses too much shared data" \
        "$NVCC" -DTOO_MUCH_SHARED -c "$T/limits.cu" -o nvcc/too_much_shared.o
    expect_fail nvcc.too_much_constant "too much global constant data" \
        "$NVCC" -DTOO_MUCH_CONSTANT -c "$T/limits.cu" -o nvcc/too_much_constant.o
fi

# ---- faults injected into generated CUDA -------------------------------------------------------
# inject NAME K PARAMS_JSON SED_EXPR: generates K's C reference and CUDA with PARAMS_JSON,
# builds the CUDA flavour of tests/run/check_K.c with nvcc-cpu and runs it (must pass),
# then applies SED_EXPR to K.cu (it must change it) and runs again (must fail).
inject() {
    local name=$1 K=$2 params=$3 expr=$4 D=$WORK/inject_$1
    mkdir -p "$D"
    (
        cd "$D" || exit 1
        echo "$params" >params.json
        "$IMCL" -b c --prefix ref_ -o c -t params.json "$ROOT/samples/$K/$K.imcl" &&
            "$IMCL" -b cuda --prefix cuda_ -o cuda -t params.json "$ROOT/samples/$K/$K.imcl" &&
            "$CC" -O2 -c "c/${K}_ref.c" -o ref.o && "$CC" -O2 -c c/imcl_runtime_c.c -o rt.o &&
            "$CC" -O2 -std=c11 -Wall -Wextra -Werror -DCHECK_CUDA -I. -I"$ROOT/tests/run" \
                -c "$ROOT/tests/run/check_$K.c" -o driver.o &&
            "$NVCC_CPU" "${SAN[@]}" -c "cuda/$K.cu" -o cu.o &&
            "$NVCC_CPU" "${SAN[@]}" -c cuda/imcl_runtime_cuda.cu -o cu_rt.o &&
            "$NVCC_CPU" "${SAN[@]}" driver.o ref.o rt.o cu.o cu_rt.o -o check || exit 3
        timeout 120 ./check || exit 4
        cp "cuda/$K.cu" clean.cu
        sed -i "$expr" "cuda/$K.cu"
        cmp -s clean.cu "cuda/$K.cu" && exit 5
        "$NVCC_CPU" "${SAN[@]}" -c "cuda/$K.cu" -o cu.o && "$NVCC_CPU" "${SAN[@]}" driver.o ref.o rt.o cu.o cu_rt.o -o check ||
            exit 3
        timeout 120 ./check && exit 6
        exit 0
    ) >"$D.log" 2>&1
    case $? in
    0) ok "inject.$name" ;;
    3) bad "inject.$name" "build failed: $(tail -3 "$D.log")" ;;
    4) bad "inject.$name" "the unchanged CUDA fails: $(tail -3 "$D.log")" ;;
    5) bad "inject.$name" "'$expr' changes nothing in $K.cu" ;;
    6) bad "inject.$name" "the fault went unnoticed" ;;
    *) bad "inject.$name" "$(tail -3 "$D.log")" ;;
    esac
}
inject sum7_shared_barrier sum7 \
    '{"block_size_x": 8, "block_size_y": 4, "block_size_z": 2, "mem_input": "shared"}' 's/__syncthreads();//'
inject sum7_texture_mode sum7 \
    '{"block_size_x": 8, "block_size_y": 4, "block_size_z": 2, "mem_input": "texture"}' \
    's/cudaAddressModeBorder/cudaAddressModeClamp/'
inject sobel_texture_mode sobel '{"block_size_x": 16, "block_size_y": 4, "mem_in": "texture"}' \
    's/cudaAddressModeClamp/cudaAddressModeBorder/'

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
