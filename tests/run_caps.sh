#!/usr/bin/env bash
# No silent caps: run_caps.sh IMCL WORK_DIR
# Files larger than any fixed table imcl once had, generated here:
#   - 300 kernels in one file: 300 outputs per backend, 300 spaces in the dump, and
#     the generated C reference of the last kernel compiles and links;
#   - 2,000 functions (1,999 helpers and a kernel calling the last one, which calls
#     down a chain): every reached helper is in the generated C and OpenCL, the C
#     compiles, and it computes what the chain says;
#   - a kernel with 120 Image parameters (128 is the documented limit) and 80
#     counted loops: the dump lists
#     mem_<a> for every array and unroll_L<line> for every loop, and the C reference
#     (which passes only the parameters the body uses) compiles;
#   - a 1.2 MB source is refused with its size, a 220 KB one compiles.
# Prints "N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail
IMCL=$(realpath "$1")
WORK=$2
CC=${CC:-gcc}
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
pass=0
failed=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
# built MAIN DIR K: MAIN.c with DIR/K_ref.c and the folder's runtime builds with -Werror
# and MAIN exits 0 (what went wrong in MAIN.err)
built() {
    $CC -std=c11 -Wall -Wextra -Werror -I"$2" "$1.c" "$2/$3_ref.c" "$2/imcl_runtime_c.c" -o "$1" \
        2>"$1.err" && ./"$1" >>"$1.err" 2>&1
}

# ---- 300 kernels --------------------------------------------------------------------
for i in $(seq 1 300); do
    printf '#pragma imcl grid(a)\nvoid k%d(Image<int> a, Image<int> o)\n{\n    o[idx][idy] = a[idx][idy] + %d;\n}\n' "$i" "$i"
done >kernels.imcl
if "$IMCL" -b c -b opencl -o kernels kernels.imcl 2>kernels.err; then
    n_c=$(ls kernels/*_ref.c 2>/dev/null | wc -l)
    n_cl=$(ls kernels/*.cl 2>/dev/null | wc -l)
    [ "$n_c" = 300 ] && [ "$n_cl" = 300 ] && ok "300 kernels: 300 C and 300 OpenCL outputs" ||
        bad "300 kernels: $n_c C and $n_cl OpenCL outputs"
else
    bad "300 kernels: imcl failed: $(head -3 kernels.err)"
fi
n_dump=$("$IMCL" --dump-space -b opencl kernels.imcl | grep -c '"kernel":')
[ "$n_dump" = 300 ] && ok "300 kernels: 300 spaces dumped" || bad "300 kernels: $n_dump spaces dumped"
cat >main300.c <<'EOF'
#include <stdio.h>
#include "k300.h"
int main(void)
{
    int a[6] = {1, 2, 3, 4, 5, 6}, o[6] = {0};
    int rc = k300(a, 3, 2, o, 3, 2);
    for (int i = 0; i < 6; i++)
        if (o[i] != a[i] + 300) { printf("o[%d] = %d\n", i, o[i]); return 1; }
    return rc;
}
EOF
if built main300 kernels k300; then
    ok "300 kernels: the last one compiles and computes a + 300"
else
    bad "300 kernels: the last one: $(head -3 main300.err)"
fi

# ---- 2,000 functions -----------------------------------------------------------------
{
    echo 'int f1(int x) { return x + 1; }'
    for i in $(seq 2 1999); do echo "int f$i(int x) { return f$((i - 1))(x) + 1; }"; done
    printf '#pragma imcl grid(o)\nvoid chain(Image<int> o)\n{\n    o[idx][idy] = f1999(idx);\n}\n'
} >funcs.imcl
if "$IMCL" -b c -b opencl -o funcs funcs.imcl 2>funcs.err; then
    n_c=$(grep -c '^static int imcl_fn_f[0-9]*(int x)$' funcs/chain_ref.c)
    n_cl=$(grep -c '^static int imcl_fn_f[0-9]*(int x)$' funcs/chain.cl)
    [ "$n_c" = 1999 ] && [ "$n_cl" = 1999 ] && ok "2000 functions: 1999 helpers in the C and OpenCL" ||
        bad "2000 functions: $n_c helpers in the C, $n_cl in the OpenCL (1999 expected)"
else
    bad "2000 functions: imcl failed: $(head -3 funcs.err)"
fi
cat >mainchain.c <<'EOF'
#include <stdio.h>
#include "chain.h"
int main(void)
{
    int o[4] = {0};
    int rc = chain(o, 2, 2);
    for (int i = 0; i < 4; i++)
        if (o[i] != i % 2 + 1999) { printf("o[%d] = %d\n", i, o[i]); return 1; }
    return rc;
}
EOF
if built mainchain funcs chain; then
    ok "2000 functions: the chain compiles and computes idx + 1999"
else
    bad "2000 functions: $(head -3 mainchain.err)"
fi

# ---- 120 arrays and 80 loops in one kernel ---------------------------------------------
{
    printf '#pragma imcl grid(o)\nvoid wide(Image<int> o'
    for i in $(seq 1 120); do printf ', Image<int> a%d' "$i"; done
    printf ')\n{\n    int s = 0;\n'
    for i in $(seq 1 80); do printf '    for (int i = 0; i < 4; i++)\n        s += a%d[idx + i][idy];\n' "$i"; done
    printf '    o[idx][idy] = s + a120[idx][idy];\n}\n'
} >wide.imcl
"$IMCL" --dump-space -b opencl wide.imcl >wide.json 2>wide.err
n_mem=$(python3 -c 'import json; d=json.load(open("wide.json")); print(sum(p.startswith("mem_a") for p in d["parameters"]))' 2>/dev/null)
n_unroll=$(python3 -c 'import json; d=json.load(open("wide.json")); print(sum(p.startswith("unroll_L") for p in d["parameters"]))' 2>/dev/null)
[ "$n_mem" = 120 ] && [ "$n_unroll" = 80 ] && ok "wide kernel: 120 mem_ and 80 unroll_L parameters" ||
    bad "wide kernel: ${n_mem:-?} mem_ and ${n_unroll:-?} unroll_L parameters (120 and 80 expected): $(head -3 wide.err)"
if "$IMCL" -b c -o wide wide.imcl 2>wide_c.err && $CC -std=c11 -Wall -Wextra -Werror -c wide/wide_ref.c -o wide.o 2>>wide_c.err; then
    ok "wide kernel: the C reference compiles without warnings"
else
    bad "wide kernel: $(head -3 wide_c.err)"
fi

# ---- source size (frontend/frontend.h, FRONTEND_MAX_SOURCE) --------------------------
# A kernel of 40,000 statements (about 1.2 MB) is refused at once with its size; one of
# 7,000 (about 220 KB, under the 256 KiB limit) compiles.
big() {
    { echo '#pragma imcl grid(a)'; echo 'void big(Image<float> a, Image<float> b) {'; echo '    float s = 0.0f;'
      for ((i = 0; i < $1; i++)); do echo "    s += a[idx + $((i % 7 - 3))][idy] * 2.0f;"; done
      echo '    b[idx][idy] = s;'; echo '}'; } >"$2"
}
big 40000 huge.imcl
"$IMCL" -b opencl -o huge huge.imcl 2>huge.err
st=$?
want="imcl: error: huge.imcl: the source is $(stat -c %s huge.imcl) bytes; imcl reads sources of at most 262144 bytes (256 KiB)"
[ $st = 1 ] && [ "$(cat huge.err)" = "$want" ] && [ ! -e huge ] && ok "a 1.2 MB source is refused with its size" ||
    bad "a 1.2 MB source: status $st, $(head -c 300 huge.err)"
big 7000 large.imcl
"$IMCL" -b opencl -o large large.imcl 2>large.err && [ -s large/big.cl ] && ok "a $(stat -c %s large.imcl)-byte source compiles" ||
    bad "a $(stat -c %s large.imcl)-byte source: $(head -c 300 large.err)"

echo "caps: $pass passed, $failed failed"
[ "$failed" = 0 ]
