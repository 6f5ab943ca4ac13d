#!/usr/bin/env bash
# Transfer plans: run_transfers.sh IMCL DIR
# Each DIR/<case>.imcl holds a line `// EXPECT: <comment>`; the OpenCL and CUDA host
# wrappers generated from it must carry exactly that transfer comment, and the
# OpenCL wrapper must create the buffers accordingly: from the caller's array
# (imcl_mem_in: COPY_HOST_PTR, or USE_HOST_PTR on a device that computes in host
# memory) only for the arrays copied in.
set -uo pipefail
# The generated files are read in flat form (tests/lib/flat.sh).
# shellcheck source=lib/flat.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/flat.sh"
IMCL=$(realpath "$1")
cd "$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failed=0
for src in *.imcl; do
    name=${src%.imcl}
    want=$(sed -n 's|^// EXPECT: ||p' "$src")
    ok=1
    for b in opencl cuda; do
        "$IMCL" -b $b -o "$tmp/$name/$b" "$src" || { echo "FAIL $src: imcl -b $b failed"; ok=0; continue; }
        got=$(for f in "$tmp/$name/$b"/*_host.c "$tmp/$name/$b"/*.cu; do
            [ -f "$f" ] && flat "$f" | grep -o '/\* transfers:[^*]*\*/'
        done)
        [ "$got" = "$want" ] || { echo "FAIL $src ($b): got '$got'"; ok=0; }
    done
    # The OpenCL buffers follow the plan.
    inlist=$(sed -n 's|^// EXPECT: /\* transfers: in \[\([^]]*\)\].*|\1|p' "$src" | tr -d ' ' | tr ',' ' ')
    for arr in $(grep -o 'd_[a-z_]* = clCreateBuffer' "$tmp/$name/opencl/"*_host.c | sed 's/d_\(.*\) = .*/\1/'); do
        line=$(flat "$tmp/$name/opencl/"*_host.c | grep -o "d_$arr = clCreateBuffer([^;]*;")
        copied=0; [[ $line == *"| imcl_mem_in,"* ]] && copied=1
        listed=0; [[ " $inlist " == *" $arr "* ]] && listed=1
        [ $copied = $listed ] || { echo "FAIL $src: buffer of '$arr' copy-in is $copied, plan says $listed"; ok=0; }
    done
    if [ -n "$inlist" ] && ! flat "$tmp/$name/opencl/"*_host.c |
        grep -q "const cl_mem_flags imcl_mem_in = imcl_kept.unified ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR;"; then
        echo "FAIL $src: no imcl_mem_in that copies in where the device has memory of its own"; ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi
done
echo "transfers: $pass passed, $failed failed"
[ $failed = 0 ]
