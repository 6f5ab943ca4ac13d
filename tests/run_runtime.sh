#!/usr/bin/env bash
# The host runtime files on their own: run_runtime.sh SOURCE_DIR WORK_DIR
# Every file of backend_*/runtime/ and wrappers/runtime/ (docs/architecture.md, "Host
# runtime") is compiled alone, after tests/runtime/prelude.h (what the generated file
# holds before it: headers, the return codes of a kernel named PK, OpenCL's imcl_source
# and imcl_log) and before a function that names each static helper it defines (as
# the rest of a generated file calls them; else each would be unused), with every
# warning an error:
#   - backend_opencl/runtime/imcl_runtime_opencl.c and backend_c/runtime/imcl_runtime_c.c,
#     the runtimes written once into an output folder, compiled as they are with their
#     headers (gcc -std=c11 -Wall -Wextra -Werror, and -pedantic), every function they
#     define for other files weak and named with the tag (IMCLTAG in the tree), every
#     other one static;
#   - backend_cuda/runtime/imcl_runtime_cuda.cu, the CUDA runtime written once into an
#     output folder: nvcc -c, warnings of nvcc and of its host compiler (-Wall -Wextra)
#     errors, every function it defines for other files weak and tagged;
#   - backend_cuda/runtime/*.cuh (device code copied into K.cu): nvcc -c as CUDA,
#     warnings of nvcc and of its host compiler (-Wall -Wextra) errors.
# Each file must also start with its // note, which the embedding leaves out.
# A missing nvcc is a failure, never a skip. Prints "N passed, M failed"; exits non-zero
# when anything failed. Environment: CC (gcc), NVCC (/usr/local/cuda/bin/nvcc).
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 SOURCE_DIR WORK_DIR" >&2
    exit 2
fi
SRC=$(realpath "$1")
WORK=$2
CC=${CC:-gcc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PRELUDE=$SRC/tests/runtime/prelude.h
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
pass=0
failed=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }

# compile NAME COMMAND...: one compilation, its messages shown when it fails
compile() {
    local name=$1
    shift
    if "$@" >compile.log 2>&1; then
        ok "$name"
    else
        cat compile.log
        bad "$name"
    fi
}

shopt -s nullglob
OPENCL=("$SRC"/backend_opencl/runtime/*.c)
C=("$SRC"/backend_c/runtime/*.c)
FOLDER=("${OPENCL[@]}" "${C[@]}")
HEADERS=("$SRC"/backend_*/runtime/*.h "$SRC"/wrappers/runtime/*.h)
CUDA=("$SRC"/backend_cuda/runtime/*.cuh)
CUDA_FOLDER=("$SRC"/backend_cuda/runtime/*.cu)
ALL=("$SRC"/backend_*/runtime/* "$SRC"/wrappers/runtime/*)
[ ${#OPENCL[@]} -gt 0 ] && [ ${#C[@]} -gt 0 ] && [ ${#CUDA[@]} -gt 0 ] \
    && [ ${#CUDA_FOLDER[@]} -gt 0 ] && ok "runtime files found (${#ALL[@]})" \
    || bad "a runtime folder has no files"
[ $(( ${#OPENCL[@]} + ${#C[@]} + ${#CUDA[@]} + ${#CUDA_FOLDER[@]} + ${#HEADERS[@]} )) \
        -eq ${#ALL[@]} ] \
    && ok "every runtime file is .c (C, OpenCL host), .cu, .cuh (CUDA) or a header" \
    || bad "a runtime file of another kind"

for f in "${ALL[@]}"; do
    rel=${f#"$SRC"/}
    if head -n 1 "$f" | grep -q '^// ' && sed -n '/^\/\//!{p;q}' "$f" | grep -q .; then
        ok "$rel starts with its // note"
    else
        bad "$rel: no // note at the top, or nothing after it"
    fi
done

# unit FILE OUT: the prelude, FILE, and a function naming each static helper of FILE
# (a __global__ one for __device__ helpers)
unit() {
    {
        printf '#include "%s"\n#include "%s"\n\n' "$PRELUDE" "$1"
        local host dev
        host=$(sed -nE 's/^static [^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$1")
        dev=$(sed -nE 's/^__device__ static [^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$1")
        if [ -n "$host" ]; then
            printf 'void imcl_runtime_uses(void)\n{\n'
            printf '    (void)%s;\n' $host
            printf '}\n'
        fi
        if [ -n "$dev" ]; then
            printf '__global__ void imcl_runtime_uses_device(void)\n{\n'
            printf '    (void)%s;\n' $dev
            printf '}\n'
        fi
    } >"$2"
}

# linkage NAME: what out.o defines for other files is weak (W) and tagged (C names end
# with the tag, C++ names hold it), and nothing else it defines is global
linkage() {
    others=$(nm -g --defined-only out.o | awk '$2 != "W"')
    untagged=$(nm -g --defined-only out.o | awk '$2 == "W" && $3 !~ /_IMCLTAG($|[A-Za-z])/')
    weak=$(nm -g --defined-only out.o | awk '$2 == "W"' | wc -l)
    if [ -z "$others$untagged" ] && [ "$weak" -gt 10 ]; then
        ok "$1: $weak weak functions, every one tagged, nothing else global"
    else
        bad "$1: global symbols not weak or not tagged: $others $untagged"
    fi
}

CFLAGS=(-std=c11 -Wall -Wextra -Werror)
for f in "${FOLDER[@]}"; do
    compile "gcc ${f#"$SRC"/} (a folder's runtime)" "$CC" "${CFLAGS[@]}" -pedantic \
        -I"$SRC/wrappers/runtime" -c "$f" -o out.o
    linkage "${f#"$SRC"/}"
done
if [ -x "$NVCC" ]; then
    for f in "${CUDA_FOLDER[@]}"; do
        compile "nvcc ${f#"$SRC"/} (a folder's runtime)" "$NVCC" -Werror all-warnings \
            -Xcompiler -Wall,-Wextra,-Werror -I"$SRC/wrappers/runtime" -c "$f" -o out.o
        linkage "${f#"$SRC"/}"
    done
    for f in "${CUDA[@]}"; do
        unit "$f" unit.cu
        compile "nvcc ${f#"$SRC"/}" "$NVCC" -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -c unit.cu -o out.o
    done
else
    bad "nvcc not found at $NVCC (set NVCC)"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
