#!/usr/bin/env bash
# Language-coverage end-to-end tests: run_lang.sh IMCL LANG_DIR WORK_DIR
#
# LANG_DIR (tests/lang) holds one case per language feature: <case>.imcl (one or
# more kernels written for that feature) and <case>.c, its oracle driver (see
# tests/lang/lang_common.h). An optional <case>.params holds tuning configurations,
# one flat JSON object per line ('#' lines are comments); the case then runs once
# per configuration, as <case>@1, <case>@2, ...; a line `cuda: {...}` is a
# configuration for CUDA only (the C reference and CUDA run; OpenCL, which would
# refuse it, is not generated). Without it the case runs once with
# the default tuning. An optional <case>.kernels lists exactly the kernels the file
# must yield (without it, any set the driver links against); an optional
# <case>.srcdir names a folder (odd characters welcome) the source is compiled from,
# as the generated files quote the source path. For each run the script
#   1. generates every kernel of the file (no -k) with the c, opencl and cuda
#      backends into WORK_DIR/<run>/{c,opencl,cuda} (prefixes ref_, ocl_, cuda_);
#   2. regenerates each kernel K alone (-k K, every backend) and checks that exactly
#      K's files come out, byte-identical to the all-kernels run;
#   3. compiles every K_ref.c (with -fopenmp; without, a syntax check) and K_host.c with
#      -std=c11 -Wall -Wextra -Werror (a warning in generated code is a failure),
#      compiles every generated header as C++ (g++ -fsyntax-only), builds the
#      driver against c/ and opencl/ and runs it (PoCL here); runs it again with the
#      C reference's PK_rows for its PK (row tables, two blocks per call; default
#      configuration only) and with the OpenCL batch plans for ocl_K (two equal blocks
#      in one launch), through the shims of tests/run/rows_shim.py;
#      then clang reads every .cl as OpenCL C 1.2 with its builtin header and the C
#      and headers as C11, warnings (but unused parameters) being errors;
#   4. compiles every K.cu with nvcc, checks it defines
#      cuda_K and cuda_K_strerror, and links the CUDA flavour of the driver
#      (-DCHECK_CUDA); that program runs when nvidia-smi lists a GPU;
#   5. builds the CUDA flavour with scripts/nvcc-cpu (the CUDA emulated on the CPU)
#      and runs it, always, device memory leaks failing (IMCL_EMU_LEAKS=fail); with a
#      configuration that sets batch_loop, again through the CUDA batch plans.
# Runs go in parallel (JOBS, default 2). The last line is "N passed, M failed";
# the status is non-zero when anything failed. A missing nvcc or OpenCL platform is
# a failure, never a skip. Environment: CC (gcc), CXX (g++), CLANG (clang), NVCC (/usr/local/cuda/bin/nvcc),
# CUDA_LIBDIR (/usr/local/cuda/lib64), JOBS (2), SANITIZE (1 in the ASan+UBSan build:
# steps 1 and 2 only, imcl under the sanitizers; steps 3-5 test the files the normal
# build also generates, and are left to the normal build's run).
set -euo pipefail

CC=${CC:-gcc}
CXX=${CXX:-g++}
CLANG=${CLANG:-clang}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_LIBDIR=${CUDA_LIBDIR:-/usr/local/cuda/lib64}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SELF=$HERE/$(basename "${BASH_SOURCE[0]}")
NVCC_CPU=$HERE/../scripts/nvcc-cpu
. "$HERE/lib/gpu.sh"

# ---- one run: run_lang.sh --one IMCL LANG_DIR WORK_DIR CASE CFG -------------------
run_one() {
    local IMCL=$1 LANG=$2 WORK=$3 CASE=$4 CFG=$5
    local CACHE=$WORK/.objects
    mkdir -p "$CACHE"
    local RUN=$CASE
    [ "$CFG" = 0 ] || RUN="$CASE@$CFG"
    local DIR=$WORK/$RUN
    rm -rf "$DIR"
    mkdir -p "$DIR"
    RESULT=$DIR/result # global: the EXIT trap reads it
    exec >"$DIR/log" 2>&1
    # whatever ends this run without a verdict is a failure
    trap '[ -s "${RESULT:-}" ] || echo "FAIL (aborted)" >"$RESULT"' EXIT
    fail() { echo "FAIL [$RUN]: $*"; echo "FAIL $*" >"$RESULT"; exit 1; }
    pass() { echo "PASS [$RUN]"; echo PASS >"$RESULT"; }
    step() { echo "== [$RUN] $*"; }
    cd "$DIR"

    local SRC=$LANG/$CASE.imcl DRIVER=$LANG/$CASE.c
    # the ghost layer of each Image and Block of kernel $1, comma-separated (the shims')
    halos_of() {
        "$IMCL" --dump-space -b c -k "$1" "$SRC" | python3 -c 'import json, sys
print(",".join(str(a["halo"]) for a in json.load(sys.stdin)["arguments"] if a["kind"] == "grid"))'
    }
    # the shims (tests/run/rows_shim.py --batch) that run each kernel K's PK of backend
    # folder $1 (prefix $2, in object K$3.o) through its batch plan, two equal blocks in
    # one launch, appended to BATCH_O with the object renamed under them
    batch_shims() {
        local K halos
        for K in "${KERNELS[@]}"; do
            halos=$(halos_of "$K") || fail "imcl --dump-space -k $K failed"
            python3 "$HERE/run/rows_shim.py" --batch "$1/$K.h" "$2$K" "$halos" "${K}_$1_bshim.c" ||
                fail "rows_shim.py --batch $2$K failed"
            objcopy --redefine-sym "$2$K=imcl_dense_$2$K" "$K$3.o" "$K${3}_dense.o" ||
                fail "objcopy cannot rename $2$K"
            "$CC" "${GEN[@]}" -I"$DIR" -c "${K}_$1_bshim.c" -o "${K}_$1_bshim.o" ||
                fail "the batch shim of $2$K does not compile"
            BATCH_O+=("$K${3}_dense.o" "${K}_$1_bshim.o")
        done
    }
    [ -f "$DRIVER" ] || fail "no oracle driver $DRIVER"
    # <case>.srcdir: compile the source from a folder of that (odd) name instead
    if [ -f "$LANG/$CASE.srcdir" ]; then
        local sd
        sd=$(head -n 1 "$LANG/$CASE.srcdir")
        mkdir -p "$DIR/src/$sd"
        cp "$SRC" "$DIR/src/$sd/"
        SRC="$DIR/src/$sd/$CASE.imcl"
        step "source at $SRC"
    fi
    local -a TUNE=()
    # BACKENDS: a configuration line `cuda: {...}` is for CUDA only (the C reference
    # runs beside it; OpenCL would refuse it, e.g. mem_<array> register)
    local -a BACKENDS=(c opencl cuda)
    if [ "$CFG" != 0 ]; then
        grep -v '^[[:space:]]*\(#\|$\)' "$LANG/$CASE.params" | sed -n "${CFG}p" >params.json
        [ -s params.json ] || fail "no configuration $CFG in $CASE.params"
        if grep -q '^cuda:' params.json; then
            BACKENDS=(c cuda)
            sed -i 's/^cuda:[[:space:]]*//' params.json
        fi
        step "configuration $(cat params.json) (${BACKENDS[*]})"
        TUNE=(-t params.json)
    fi
    local ocl=0
    [[ " ${BACKENDS[*]} " == *" opencl "* ]] && ocl=1

    # 1. every kernel of the file, every backend
    step "generate"
    local b p
    for b in "${BACKENDS[@]}"; do
        case $b in c) p=ref_ ;; opencl) p=ocl_ ;; cuda) p=cuda_ ;; esac
        mkdir -p "$b"
        "$IMCL" -b "$b" --prefix "$p" -o "$b" "${TUNE[@]}" "$SRC" || fail "imcl -b $b exited with status $?"
    done
    local -a KERNELS=()
    local f
    for f in c/*_ref.c; do
        [ -e "$f" ] || fail "imcl -b c produced no *_ref.c"
        f=${f#c/}
        KERNELS+=("${f%_ref.c}")
    done
    step "kernels: ${KERNELS[*]}"
    # <case>.kernels, when present, lists exactly the kernels the file must yield
    if [ -f "$LANG/$CASE.kernels" ]; then
        local want_k got_k
        want_k=$(grep -v '^[[:space:]]*\(#\|$\)' "$LANG/$CASE.kernels" | tr -s ' \n' '\n' | sort | tr '\n' ' ')
        got_k=$(printf '%s\n' "${KERNELS[@]}" | sort | tr '\n' ' ')
        [ "$want_k" = "$got_k" ] || fail "kernels generated: $got_k; expected: $want_k"
    fi

    # 2. -k K produces exactly K's files, identical to the all-kernels run; the
    #    configuration keeps only the mem_/unroll_ entries K has (its --dump-space),
    #    since naming another kernel's array is an error
    local K
    local -a KTUNE
    for K in "${KERNELS[@]}"; do
        KTUNE=()
        if [ "$CFG" != 0 ]; then
            "$IMCL" --dump-space -k "$K" "$SRC" >"space_$K.json" || fail "imcl --dump-space -k $K exited with status $?"
            python3 - params.json "space_$K.json" "params_$K.json" <<'PY' || fail "cannot restrict the configuration to $K"
import json, sys
cfg = json.load(open(sys.argv[1]))
space = json.load(open(sys.argv[2]))
keep = {n: v for n, v in cfg.items()
        if not n.startswith(("mem_", "unroll_")) or n in space["parameters"]}
json.dump(keep, open(sys.argv[3], "w"))
PY
            KTUNE=(-t "params_$K.json")
        fi
        for b in "${BACKENDS[@]}"; do
            case $b in c) p=ref_ ;; opencl) p=ocl_ ;; cuda) p=cuda_ ;; esac
            mkdir -p "only/$K/$b"
            "$IMCL" -b "$b" --prefix "$p" -k "$K" -o "only/$K/$b" "${KTUNE[@]}" "$SRC" ||
                fail "imcl -b $b -k $K exited with status $?"
            for f in "only/$K/$b"/*; do
                cmp -s "$f" "$b/${f##*/}" || fail "imcl -b $b -k $K: ${f##*/} differs from the all-kernels output (or is extra)"
            done
            local want
            case $b in
            c) want="$K.h ${K}_ref.c imcl_runtime_c.c imcl_runtime_c.h imcl_runtime_rows.h" ;;
            opencl) want="$K.cl $K.h ${K}_host.c imcl_runtime_opencl.c imcl_runtime_opencl.h imcl_runtime_rows.h" ;;
            cuda) want="$K.cu $K.h imcl_runtime_cuda.cu imcl_runtime_cuda.h imcl_runtime_rows.h" ;;
            esac
            [ "$(cd "only/$K/$b" && ls | sort | tr '\n' ' ')" = "$(echo "$want" | tr ' ' '\n' | sort | tr '\n' ' ')" ] ||
                fail "imcl -b $b -k $K wrote $(ls "only/$K/$b" | tr '\n' ' '), expected $want"
        done
    done

    # Under the sanitizer build (SANITIZE=1) the subject is imcl itself, which has now
    # generated every backend and each kernel alone under ASan and UBSan. What follows
    # compiles and runs those files, which are the normal build's, without sanitizers:
    # the normal build's lang test does all of it.
    if [ "${SANITIZE:-0}" = 1 ]; then
        echo "generated under the sanitizers; compiled and run by the normal build's lang test"
        pass
        return 0
    fi

    # 3. C reference and OpenCL wrapper, driver, run
    local -a GEN=(-std=c11 -O2 -Wall -Wextra -Werror)
    local -a DRV=(-std=c11 -O2 -Wall -Wextra -Werror -I"$DIR" -I"$HERE/run" -I"$LANG")
    local -a REF_O=() HOST_O=() CU_O=()
    # content_key FILES... -- ARGS...: the cache's key for FILES' contents read with ARGS
    # (the run's own folder, where the generated files are, left out of it: their
    # contents are in it)
    content_key() {
        local -a files=()
        while [ "$1" != -- ]; do files+=("$1"); shift; done
        shift
        cat "${files[@]}" <(printf '%s\n' "${@//$DIR/@DIR@}") | sha1sum | cut -c1-40
    }
    # cached_compile OBJ SRC DEPS... -- FLAGS...: SRC compiled by $CC with FLAGS into OBJ,
    # or OBJ taken from the run's cache when the same flags compiled a byte-identical SRC
    # with byte-identical DEPS (the headers it reads) before: a case's configurations
    # mostly leave the C reference and the generated headers as they are. COMPILER (in
    # the environment) names another compiler taking -c SRC -o OBJ (nvcc, nvcc-cpu).
    cached_compile() {
        local obj=$1 src=$2 key cc=${COMPILER:-$CC}
        key=$(content_key "${@:2}" "$cc")
        while [ "$1" != -- ]; do shift; done
        shift
        if [ -f "$CACHE/$key.o" ]; then
            cp "$CACHE/$key.o" "$obj"
        else
            $cc "$@" -c "$src" -o "$obj" || return 1
            cp "$obj" "$CACHE/$key.$$" && mv -f "$CACHE/$key.$$" "$CACHE/$key.o"
        fi
    }
    # cached_check FILES... -- COMMAND...: COMMAND (a compiler reading FILES, warnings
    # being errors) run once for byte-identical FILES: its success is remembered in the
    # run's cache, as most files of a case come out the same in every configuration
    cached_check() {
        local key
        key=$(content_key "$@")
        [ -f "$CACHE/$key.ok" ] && return 0
        while [ "$1" != -- ]; do shift; done
        shift
        "$@" || return 1
        : >"$CACHE/$key.ok"
    }
    # drv_compile OBJ FLAGS...: the case's driver, against the headers of every backend
    drv_compile() {
        local obj=$1 b
        local -a hs=()
        shift
        for b in "${BACKENDS[@]}"; do hs+=("$b"/*.h); done
        cached_compile "$obj" "$DRIVER" "$LANG"/*.h "$HERE"/run/*.h "${hs[@]}" -- "$@"
    }
    step "compile generated C (-Wall -Wextra -Werror)"
    for K in "${KERNELS[@]}"; do
        # without OpenMP a syntax check suffices: the optimiser's warnings come from
        # the -fopenmp build below, whose code is the same but for the pragmas
        cached_check "c/${K}_ref.c" "c/$K.h" c/imcl_runtime_c.h -- "$CC" "${GEN[@]}" -fsyntax-only "c/${K}_ref.c" || fail "c/${K}_ref.c does not compile cleanly (no OpenMP)"
        cached_compile "${K}_ref.o" "c/${K}_ref.c" "c/$K.h" c/imcl_runtime_c.h -- "${GEN[@]}" -fopenmp || fail "c/${K}_ref.c does not compile cleanly (-fopenmp)"
        REF_O+=("${K}_ref.o")
        [ $ocl = 1 ] || continue
        "$CC" "${GEN[@]}" -c "opencl/${K}_host.c" -o "${K}_host.o" || fail "opencl/${K}_host.c does not compile cleanly"
        HOST_O+=("${K}_host.o")
    done
    cached_compile imcl_runtime_c.o c/imcl_runtime_c.c c/imcl_runtime_c.h c/imcl_runtime_rows.h -- "${GEN[@]}" ||
        fail "c/imcl_runtime_c.c does not compile cleanly"
    REF_O+=(imcl_runtime_c.o)
    if [ $ocl = 1 ]; then
        cached_compile imcl_runtime_opencl.o opencl/imcl_runtime_opencl.c opencl/imcl_runtime_opencl.h \
            opencl/imcl_runtime_rows.h -- \
            "${GEN[@]}" ||
            fail "opencl/imcl_runtime_opencl.c does not compile cleanly"
        HOST_O+=(imcl_runtime_opencl.o)
    fi
    # the headers are plain C usable from C++
    step "compile the generated headers as C++"
    for b in "${BACKENDS[@]}"; do
        for f in "$b"/*.h; do
            cached_check "$f" -- "$CXX" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -x c++ "$f" ||
                fail "$f does not compile as C++"
        done
    done
    if [ $ocl = 1 ]; then
        step "build and run the driver (C reference and OpenCL vs oracle)"
        drv_compile driver.o "${DRV[@]}" -fopenmp ||
            fail "driver $CASE.c does not compile against the generated headers"
        "$CC" -fopenmp driver.o "${REF_O[@]}" "${HOST_O[@]}" -lOpenCL -lm -o check || fail "link of the OpenCL driver failed"
        timeout 120 ./check || fail "driver failed (status $?)"
    fi
    # the C reference's PK_rows (row tables, two blocks in one call) in place of its PK,
    # through a shim per kernel that has one (tests/run/rows_shim.py), against the same
    # oracles; once per case, as the C reference takes no tuning
    if [ $ocl = 1 ] && [ "$CFG" -le 1 ]; then
        step "run the driver with the C reference's PK_rows for PK (CHECK_REF_ONLY)"
        local -a ROWS_O=() halos
        local nrows=0
        for K in "${KERNELS[@]}"; do
            if grep -q "int ref_${K}_rows(" "c/$K.h"; then
                halos=$(halos_of "$K") || fail "imcl --dump-space -k $K failed"
                python3 "$HERE/run/rows_shim.py" "c/$K.h" "ref_$K" "$halos" "${K}_shim.c" || fail "rows_shim.py $K failed"
                objcopy --redefine-sym "ref_$K=imcl_dense_ref_$K" "${K}_ref.o" "${K}_dense.o" ||
                    fail "objcopy cannot rename ref_$K"
                "$CC" "${GEN[@]}" -I"$DIR" -c "${K}_shim.c" -o "${K}_shim.o" || fail "the shim of $K does not compile"
                ROWS_O+=("${K}_dense.o" "${K}_shim.o")
                nrows=$((nrows + 1))
            else
                ROWS_O+=("${K}_ref.o")
            fi
        done
        ROWS_O+=(imcl_runtime_c.o)
        step "kernels with PK_rows: $nrows of ${#KERNELS[@]}"
        drv_compile driver_rows.o "${DRV[@]}" -DCHECK_REF_ONLY -fopenmp ||
            fail "driver $CASE.c does not compile with CHECK_REF_ONLY"
        "$CC" -fopenmp driver_rows.o "${ROWS_O[@]}" "${HOST_O[@]}" -lOpenCL -lm -o check_rows ||
            fail "link of the PK_rows driver failed"
        timeout 120 ./check_rows || fail "driver with PK_rows failed (status $?)"
    fi
    # the OpenCL wrapper through its batch plan (two equal blocks in one launch, which
    # must come out identical; tests/run/rows_shim.py --batch) in place of its PK,
    # against the same oracles, in every configuration
    if [ $ocl = 1 ]; then
        step "run the driver with the OpenCL batch plans for PK"
        local -a BATCH_O=()
        batch_shims opencl ocl_ _host
        "$CC" -fopenmp driver.o "${REF_O[@]}" "${BATCH_O[@]}" imcl_runtime_opencl.o -lOpenCL -lm -o check_batch ||
            fail "link of the batch driver failed"
        # (the GPU kernels where there is a CPU variant: the run above had that one)
        local variant=
        grep -q '_cpu(' opencl/*.cl && variant=gpu
        IMCL_VARIANT=$variant timeout 120 ./check_batch || fail "driver with the batch plans failed (status $?)"
    fi
    # a configuration that leaves the geometry to imcl gives K.cl a CPU variant, which
    # PoCL gets; IMCL_VARIANT=gpu runs the default kernels on it as well
    if [ $ocl = 1 ] && grep -q '_cpu(' opencl/*.cl; then
        step "run the driver with the GPU variant of the OpenCL kernels (IMCL_VARIANT=gpu)"
        IMCL_VARIANT=gpu timeout 120 ./check || fail "driver with IMCL_VARIANT=gpu failed (status $?)"
    fi

    # 3b. clang as a second, stricter reader: the OpenCL C against the OpenCL 1.2
    # builtins (what a vendor compiler takes, not only PoCL), the C and headers as C11
    step "clang: the OpenCL C (-cl-std=CL1.2), the C and the headers (-Wall -Wextra -Werror)"
    if [ $ocl = 1 ]; then
        cached_check opencl/*.cl -- "$CLANG" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
            -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Werror opencl/*.cl ||
            fail "clang rejects the generated OpenCL C"
        cached_check opencl/*.c opencl/*.h -- "$CLANG" -std=c11 -Wall -Wextra -Werror -fsyntax-only \
            opencl/*.c opencl/*.h || fail "clang rejects the generated OpenCL host code"
    fi
    cached_check c/*.c c/*.h -- "$CLANG" -std=c11 -Wall -Wextra -Werror -fsyntax-only -fopenmp c/*.c c/*.h ||
        fail "clang rejects the generated C"

    # 4. CUDA: compile, link; run only with a GPU. Where no GPU runs the program (none
    #    here, no GPU bundle asked for), a case's configurations after the first have
    #    nvcc compile only their device code (-cubin: the front end and ptxas, about a
    #    third of the time); the host code, which the configurations vary little, is
    #    nvcc's in the first and the emulated build's (step 5) in every one.
    step "build CUDA flavour"
    [ -x "$NVCC" ] || fail "nvcc not found at $NVCC (set NVCC)"
    local sym whole=1
    if [ "$CFG" -gt 1 ] && [ -z "${IMCL_GPU_BUNDLE:-}" ] && ! gpu_present; then whole=0; fi
    for K in "${KERNELS[@]}"; do
        if [ $whole = 0 ]; then
            COMPILER=$NVCC cached_compile "${K}_cu.cubin" "cuda/$K.cu" "cuda/$K.h" -- -cubin ||
                fail "nvcc cannot compile the device code of cuda/$K.cu cleanly"
            continue
        fi
        # (-O0: the host code unoptimised, which halves nvcc's time; the device code is
        # optimised as always)
        COMPILER=$NVCC cached_compile "${K}_cu.o" "cuda/$K.cu" "cuda/$K.h" -- -O0 ||
            fail "nvcc cannot compile cuda/$K.cu cleanly"
        for sym in "cuda_$K" "cuda_${K}_strerror"; do
            nm -g --defined-only "${K}_cu.o" | awk '{print $NF}' | grep -x "$sym" >/dev/null ||
                fail "cuda/$K.cu defines no C symbol $sym"
        done
        CU_O+=("${K}_cu.o")
    done
    # the folder's host runtime, once for its kernels
    local -a RT=(cuda/imcl_runtime_cuda.cu cuda/imcl_runtime_cuda.h cuda/imcl_runtime_rows.h)
    if [ $whole = 1 ]; then
        COMPILER=$NVCC cached_compile runtime_cu.o "${RT[@]}" -- -O0 ||
            fail "nvcc cannot compile cuda/imcl_runtime_cuda.cu cleanly"
        CU_O+=(runtime_cu.o)
    fi
    drv_compile driver_cuda.o "${DRV[@]}" -DCHECK_CUDA -fopenmp ||
        fail "CUDA flavour of $CASE.c does not compile against the generated headers"
    if [ $whole = 1 ]; then
        "$CC" -fopenmp driver_cuda.o "${REF_O[@]}" "${CU_O[@]}" -L"$CUDA_LIBDIR" -Wl,-rpath,"$CUDA_LIBDIR" \
            -lcudart -lstdc++ -lm -o check_cuda || fail "link of the CUDA driver failed"
        step "run the CUDA driver on a GPU (tests/lib/gpu.sh)"
        gpu_run "$(basename "$LANG").$RUN" 120 ./check_cuda || fail "CUDA driver failed (status $?)"
    fi

    # 5. the CUDA flavour built with nvcc-cpu, always run
    step "build the CUDA flavour with nvcc-cpu and run it (emulated CUDA vs oracle)"
    local -a CPU_O=()
    for K in "${KERNELS[@]}"; do
        # (-O0: the small grids run in milliseconds at any level, and it builds in three
        # quarters of -O1's time, half of -O2's)
        COMPILER=$NVCC_CPU cached_compile "${K}_cu_cpu.o" "cuda/$K.cu" "cuda/$K.h" -- -O0 ||
            fail "nvcc-cpu cannot compile cuda/$K.cu"
        CPU_O+=("${K}_cu_cpu.o")
    done
    COMPILER=$NVCC_CPU cached_compile runtime_cu_cpu.o "${RT[@]}" -- -O0 ||
        fail "nvcc-cpu cannot compile cuda/imcl_runtime_cuda.cu"
    CPU_O+=(runtime_cu_cpu.o)
    "$NVCC_CPU" -Xcompiler -fopenmp driver_cuda.o "${REF_O[@]}" "${CPU_O[@]}" -o check_cuda_cpu ||
        fail "nvcc-cpu cannot link the CUDA driver"
    IMCL_EMU_LEAKS=fail timeout 120 ./check_cuda_cpu || fail "emulated CUDA driver failed (status $?)"
    # a configuration with batch_loop: the emulated CUDA through its batch plans too, as
    # OpenCL above (two equal blocks in one launch, each thread looping over them)
    if [ -f params.json ] && grep -q '"batch_loop"' params.json; then
        step "run the emulated CUDA driver with the batch plans for PK"
        local -a BATCH_O=()
        batch_shims cuda cuda_ _cu_cpu
        "$NVCC_CPU" -Xcompiler -fopenmp driver_cuda.o "${REF_O[@]}" "${BATCH_O[@]}" runtime_cu_cpu.o -o check_cuda_batch ||
            fail "nvcc-cpu cannot link the CUDA batch driver"
        IMCL_EMU_LEAKS=fail timeout 120 ./check_cuda_batch || fail "emulated CUDA batch driver failed (status $?)"
    fi
    pass
}

if [ "${1:-}" = "--one" ]; then
    shift
    run_one "$@"
    exit $?
fi

if [ $# -ne 3 ]; then
    echo "usage: $0 IMCL LANG_DIR WORK_DIR" >&2
    exit 2
fi
IMCL=$(realpath "$1")
LANG_DIR=$(realpath "$2")
WORK=$3
[ -x "$IMCL" ] || { echo "run_lang: $IMCL is not an executable" >&2; exit 2; }
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")

# Preconditions that are failures, not skips.
pre_fail=0
[ -x "$NVCC" ] || { echo "run_lang: nvcc not found at $NVCC (set NVCC)" >&2; pre_fail=1; }
# (a missing OpenCL platform shows as ERR_DEVICE from every OpenCL wrapper call)
if command -v clinfo >/dev/null 2>&1 && ! clinfo -l 2>/dev/null | grep -q 'Device'; then
    echo "run_lang: clinfo lists no OpenCL device; PoCL is expected" >&2
fi

# The runs: "CASE CFG", CFG 0 meaning the default tuning.
jobs=()
for src in "$LANG_DIR"/*.imcl; do
    [ -e "$src" ] || continue
    c=$(basename "$src" .imcl)
    if [ -f "$LANG_DIR/$c.params" ]; then
        n=$(grep -vc '^[[:space:]]*\(#\|$\)' "$LANG_DIR/$c.params" || true)
        for ((i = 1; i <= n; i++)); do jobs+=("$c $i"); done
    else
        jobs+=("$c 0")
    fi
done
if [ ${#jobs[@]} -eq 0 ]; then
    echo "run_lang: no cases in $LANG_DIR" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

printf '%s\n' "${jobs[@]}" | xargs -P "${JOBS:-2}" -L 1 bash "$SELF" --one "$IMCL" "$LANG_DIR" "$WORK" || true

pass=0
failn=0
for j in "${jobs[@]}"; do
    set -- $j
    run=$1
    [ "$2" = 0 ] || run="$1@$2"
    res=$(cat "$WORK/$run/result" 2>/dev/null || echo "FAIL (no result)")
    if [ "$res" = PASS ]; then
        pass=$((pass + 1))
        echo "PASS $run"
    else
        failn=$((failn + 1))
        echo "FAIL $run: ${res#FAIL }"
        echo "---- $WORK/$run/log (last 40 lines) ----"
        tail -n 40 "$WORK/$run/log" 2>/dev/null | sed 's/^/    /'
    fi
done
failn=$((failn + pre_fail))
echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
