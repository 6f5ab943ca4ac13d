#!/usr/bin/env bash
# Shape of the generated code for thread coarsening and shared memory:
#   run_shape.sh IMCL SHAPE_DIR [WORK_DIR]
#
# The kernels live in SHAPE_DIR (tests/shape); the checks are below, each one an
# exact string (grep -F) or an exact count, computed by hand from the tuning
# parameters (thesis 3.3-3.4, docs/tuning.md):
#   - a shared tile is declared with the size (B_x*C_x + fx) * (B_y*C_y + fy) *
#     (B_z*C_z + fz) (f: footprint width), __local in OpenCL, __shared__ in CUDA;
#     exactly one barrier / __syncthreads, after the loads and before the body;
#     tile reads carry no imcl_in( guard, and the array is read from global
#     memory by the tile loads only;
#   - coarsening: one loop per coarsened dimension, x innermost; the interleaved
#     and blocked mappings of thesis eq. 3.1-3.6; a `return` of the body becomes
#     a jump to the next point;
#   - reads of a halo-1 `none` array carry no guard;
#   - refusals (exit status 2, the exact message, no file written): shared memory
#     on an unknown footprint, through two views, on a written array, through an
#     alias whose offset is a local, over --shared-limit (and the limit itself is
#     allowed); the default limits of each backend;
#   - stream_z: the window, its loads and moves, the walk up z, the launch; refusals;
#     the space lists it exactly where -t accepts it;
#   - register caching: the lane, the row registers, the shuffles and where they run;
#     refusals; the space lists it exactly where -t accepts it;
#   - accumulate: which updated elements are kept in a local (SHAPE_DIR/accum.imcl);
#   - the CPU variant's rows: fitted to the grid, or 128 wide for a shared tile;
#   - the dumped space (imcl --dump-space -b opencl) lists shared exactly where it
#     is legal, and its shared-memory restriction agrees with the refusals;
#   - the loads of a tile stay inside the buffers: the OpenCL kernel is compiled
#     as C under AddressSanitizer and every work-item run in turn
#     (SHAPE_DIR/tile_bounds.c).
# Each check prints PASS/FAIL and its name; the last line is "N passed, M failed";
# the status is non-zero when anything failed. Environment: CC (gcc).
set -uo pipefail

CC=${CC:-gcc}
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 IMCL SHAPE_DIR [WORK_DIR]" >&2
    exit 2
fi
IMCL=$(realpath "$1")
DIR=$(realpath "$2")
WORK=${3:-$(mktemp -d)}
[ -x "$IMCL" ] || { echo "run_shape: $IMCL is not an executable" >&2; exit 2; }
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")

pass=0
failn=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { failn=$((failn + 1)); echo "FAIL $*"; }

# gen NAME BACKEND JSON [imcl options...]: generate SHAPE_DIR/NAME.imcl into a
# folder of its own, WORK/NAME-BACKEND-<n>, left in $o
gen_n=0
gen() {
    local name=$1 backend=$2 json=$3
    shift 3
    gen_n=$((gen_n + 1))
    local out=$WORK/$name-$backend-$gen_n
    mkdir -p "$out"
    no_interior "$json" >"$out.json"
    if ! "$IMCL" -b "$backend" -t "$out.json" "$@" -o "$out" "$DIR/$name.imcl" >"$out.log" 2>&1; then
        bad "imcl -b $backend -t '$json' $* $name.imcl exited with status $?: $(cat "$out.log")"
    fi
    o=$out
}

# The checks below look at the generated text in flat form (tests/lib/flat.sh):
# where the layout breaks a line does not matter.
# shellcheck source=lib/flat.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/flat.sh"

# has CHECK FILE STRING: FILE holds STRING (exactly, as a fixed string)
has() {
    if grep -qF -- "$(flat_text "$3")" <<<"$(flat "$2")"; then ok "$1"; else bad "$1: '$3' not in ${2#"$WORK"/}"; fi
}

# hasnt CHECK FILE STRING
hasnt() {
    if grep -qF -- "$(flat_text "$3")" <<<"$(flat "$2")"; then
        bad "$1: '$3' in ${2#"$WORK"/}: $(grep -nF -- "$3" "$2" | head -n 2)"
    else
        ok "$1"
    fi
}

# count CHECK FILE STRING N: STRING occurs exactly N times in FILE
count() {
    local got
    got=$(grep -oF -- "$(flat_text "$3")" <<<"$(flat "$2")" | wc -l)
    if [ "$got" -eq "$4" ]; then ok "$1"; else bad "$1: '$3' occurs $got times in ${2#"$WORK"/}, expected $4"; fi
}

# at FILE STRING: the offset of the first STRING in flat FILE (empty: none)
at() { grep -boF -- "$(flat_text "$2")" <<<"$(flat "$1")" | head -n 1 | cut -d: -f1 || true; }

# before CHECK FILE A B: the first A comes before the first B
before() {
    local a b
    a=$(at "$2" "$3")
    b=$(at "$2" "$4")
    if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]; then
        ok "$1"
    else
        bad "$1: '$3' (at ${a:-none}) is not before '$4' (at ${b:-none}) in ${2#"$WORK"/}"
    fi
}

# kernel FILE: the text of the kernel function(s) only (from the first __kernel or
# __global__ on), without the helper definitions above them
kernel() { sed -n '/^__kernel\|^__global__/,$p' "$1"; }

# refuse CHECK NAME BACKEND JSON EXPECTED [imcl options...]: exit status 2, stderr
# exactly EXPECTED, no file written
refuse() {
    local check=$1 name=$2 backend=$3 json=$4 want=$5
    shift 5
    gen_n=$((gen_n + 1))
    local out=$WORK/refuse-$name-$gen_n
    mkdir -p "$out"
    printf '%s\n' "$json" >"$out.json"
    local status=0
    "$IMCL" -b "$backend" -t "$out.json" "$@" -o "$out" "$DIR/$name.imcl" >"$out.stdout" 2>"$out.stderr" || status=$?
    if [ "$status" -ne 2 ]; then
        bad "$check: exit status $status, expected 2 (stderr: $(cat "$out.stderr"))"
    elif [ "$(cat "$out.stderr")" != "$want" ]; then
        bad "$check: stderr is '$(cat "$out.stderr")', expected '$want'"
    elif [ -n "$(ls -A "$out")" ]; then
        bad "$check: files written although refused: $(ls -A "$out" | tr '\n' ' ')"
    else
        ok "$check"
    fi
}

# accept CHECK NAME BACKEND JSON [imcl options...]: exit status 0
accept() {
    local check=$1 name=$2 backend=$3 json=$4
    shift 4
    gen_n=$((gen_n + 1))
    local out=$WORK/accept-$name-$gen_n
    mkdir -p "$out"
    printf '%s\n' "$json" >"$out.json"
    if "$IMCL" -b "$backend" -t "$out.json" "$@" -o "$out" "$DIR/$name.imcl" >"$out.log" 2>&1; then
        ok "$check"
    else
        bad "$check: exit status $?: $(cat "$out.log")"
    fi
}

# ---- shared memory + interleaved coarsening: the 7-point stencil ------------------
# block 8 x 4 x 2, coarsen_x 2, footprint -1..+1 in every dimension:
# tile (8*2 + 2) x (4 + 2) x (2 + 2) = 18 x 6 x 4 = 432 doubles
S7='{"block_size_x": 8, "block_size_y": 4, "block_size_z": 2, "coarsen_x": 2, "coarsen_z": 1, "mem_in": "shared"}'
gen sum7 opencl "$S7"
cl=$o/sum7.cl
has "opencl: tile declared with its size" "$cl" "    __local double imcl_in_tile[432];"
has "opencl: tile origin in x: group * B_x * C_x - 1" "$cl" "const int imcl_in_x0 = (int)get_group_id(0) * 16 - 1;"
has "opencl: tile origin in z: group * B_z - 1" "$cl" "const int imcl_in_z0 = imcl_group_z * 2 - 1;"
has "opencl: all 64 work-items load the tile" "$cl" "imcl_i < 432; imcl_i += 64) {"
count "opencl: exactly one barrier" "$cl" "barrier(" 1
count "opencl: the barrier is a local-memory fence" "$cl" "barrier(CLK_LOCAL_MEM_FENCE);" 1
before "opencl: tile loads before the barrier" "$cl" "imcl_in_tile[imcl_i] = " "barrier("
before "opencl: barrier before the coarsening loop" "$cl" "barrier(" "for (int imcl_cx = 0;"
count "opencl: one coarsening loop in x" "$cl" "for (int imcl_cx = 0; imcl_cx < 2; imcl_cx++) {" 1
hasnt "opencl: no coarsening loop in y" "$cl" "imcl_cy"
hasnt "opencl: no coarsening loop in z" "$cl" "imcl_cz"
has "opencl: interleaved mapping, points a block apart (eq. 3.1)" "$cl" \
    "const int idx = (int)get_group_id(0) * 16 + (imcl_cx * 8 + (int)get_local_id(0));"
has "opencl: y not coarsened" "$cl" "const int idy = (int)get_group_id(1) * 4 + (int)get_local_id(1);"
count "opencl: the seven reads come from the tile" "$cl" "imcl_in_tile[((" 7
has "opencl: the centre read" "$cl" \
    "imcl_in_tile[((idz - imcl_in_z0) * 6 + (idy - imcl_in_y0)) * 18 + (idx - imcl_in_x0)]"
if grep -F "imcl_in_tile[((" "$cl" | grep -qF "imcl_in("; then
    bad "opencl: no guard on the tile reads: $(grep -F "imcl_in_tile[((" "$cl" | grep -F "imcl_in(" | head -n 1)"
else
    ok "opencl: no guard on the tile reads"
fi
count "opencl: global 'in' read only by the tile loads" "$cl" "in[(" 1

gen sum7 cuda "$S7"
cu=$o/sum7.cu
has "cuda: tile declared __shared__ with its size" "$cu" "    __shared__ double imcl_in_tile[432];"
count "cuda: exactly one __syncthreads" "$cu" "__syncthreads()" 1
before "cuda: tile loads before __syncthreads" "$cu" "imcl_in_tile[imcl_i] = " "__syncthreads()"
before "cuda: __syncthreads before the coarsening loop" "$cu" "__syncthreads()" "for (int imcl_cx = 0;"
count "cuda: one coarsening loop in x" "$cu" "for (int imcl_cx = 0; imcl_cx < 2; imcl_cx++) {" 1
has "cuda: interleaved mapping (eq. 3.1)" "$cu" \
    "const int idx = (int)blockIdx.x * 16 + (imcl_cx * 8 + (int)threadIdx.x);"
count "cuda: the seven reads come from the tile" "$cu" "imcl_in_tile[((" 7
if grep -F "imcl_in_tile[((" "$cu" | grep -qF "imcl_in("; then
    bad "cuda: no guard on the tile reads"
else
    ok "cuda: no guard on the tile reads"
fi
hasnt "cuda: no __local" "$cu" "__local"
count "cuda: global 'in' read only by the tile loads" "$cu" "in[(" 1

# ---- blocked mapping (interleaved 0) -----------------------------------------------
B7='{"block_size_x": 8, "block_size_y": 4, "block_size_z": 2, "coarsen_x": 2, "interleaved": 0}'
gen sum7 opencl "$B7"
cl=$o/sum7.cl
has "opencl blocked: adjacent points (eq. 3.4)" "$cl" "get_local_id(0) * 2 + imcl_cx"
has "opencl blocked: idx" "$cl" "const int idx = (int)get_group_id(0) * 16 + ((int)get_local_id(0) * 2 + imcl_cx);"
count "opencl blocked: one coarsening loop" "$cl" "for (int imcl_cx = 0; imcl_cx < 2; imcl_cx++) {" 1
hasnt "opencl blocked, global memory: no tile" "$cl" "imcl_in_tile"
hasnt "opencl blocked, global memory: no barrier" "$cl" "barrier("
gen sum7 cuda "$B7"
has "cuda blocked: adjacent points (eq. 3.4)" "$o/sum7.cu" \
    "const int idx = (int)blockIdx.x * 16 + ((int)threadIdx.x * 2 + imcl_cx);"
hasnt "cuda blocked, global memory: no __syncthreads" "$o/sum7.cu" "__syncthreads"

# ---- coarsening in every dimension: loop order, and shared tiles with it ------------
# block 4 x 2 x 2, coarsen 3 x 2 x 5, blocked: tile (4*3+2) x (2*2+2) x (2*5+2) = 14 x 6 x 12 = 1008
C3='{"block_size_x": 4, "block_size_y": 2, "block_size_z": 2, "coarsen_x": 3, "coarsen_y": 2, "coarsen_z": 5, "interleaved": 0, "mem_in": "shared"}'
gen sum7 opencl "$C3"
cl=$o/sum7.cl
has "opencl 3x2x5: tile size" "$cl" "    __local double imcl_in_tile[1008];"
before "opencl 3x2x5: z loop outermost" "$cl" "for (int imcl_cz = 0; imcl_cz < 5; imcl_cz++) {" \
    "for (int imcl_cy = 0; imcl_cy < 2; imcl_cy++) {"
before "opencl 3x2x5: x loop innermost" "$cl" "for (int imcl_cy = 0; imcl_cy < 2; imcl_cy++) {" \
    "for (int imcl_cx = 0; imcl_cx < 3; imcl_cx++) {"
has "opencl 3x2x5: blocked idz" "$cl" "const int idz = imcl_group_z * 10 + ((int)get_local_id(2) * 5 + imcl_cz);"
has "opencl 3x2x5: tile origin in z" "$cl" "const int imcl_in_z0 = imcl_group_z * 10 - 1;"
count "opencl 3x2x5: exactly one barrier" "$cl" "barrier(" 1

# ---- no coarsening: one point per thread, the edge guard returns --------------------
gen sum7 opencl '{"mem_in": "shared", "coarsen_z": 1}'
cl=$o/sum7.cl
hasnt "opencl no coarsening: no coarsening loop" "$cl" "imcl_cx"
has "opencl default block, shared: tile (32+2)x(4+2)x(1+2)" "$cl" "    __local double imcl_in_tile[612];"
before "opencl no coarsening: barrier before the edge guard" "$cl" "barrier(" "if (idx >= W || idy >= H || idz >= D) {"

# ---- early return under coarsening --------------------------------------------------
gen ret opencl '{"coarsen_x": 2, "coarsen_y": 3}'
cl=$o/ret.cl
has "opencl return under coarsening: a jump to the next point" "$cl" "goto imcl_next_point;"
count "opencl return under coarsening: one label" "$cl" "imcl_next_point:;" 1
kernel "$cl" >"$o/ret.kernel"
hasnt "opencl return under coarsening: no return left in the kernel" "$o/ret.kernel" "return"
before "opencl return under coarsening: label inside the x loop" "$cl" "for (int imcl_cx = 0; imcl_cx < 2; imcl_cx++) {" "imcl_next_point:;"
gen ret cuda '{"coarsen_x": 2, "coarsen_y": 3}'
kernel "$o/ret.cu" | sed '/^}/q' >"$o/ret.kernel"
has "cuda return under coarsening: a jump to the next point" "$o/ret.kernel" "goto imcl_next_point;"
hasnt "cuda return under coarsening: no return left in the kernel" "$o/ret.kernel" "return"
gen ret opencl '{"coarsen_y": 1}'
has "opencl return without coarsening stays a return" "$o/ret.cl" "return;"
hasnt "opencl return without coarsening: no label" "$o/ret.cl" "imcl_next_point"

# ---- halo 1, boundary none: no guard on the reads -----------------------------------
gen halo opencl '{}'
kernel "$o/halo.cl" >"$o/halo.kernel"
hasnt "opencl halo none, global memory: no guard in the kernel" "$o/halo.kernel" "imcl_in("
has "opencl halo none: the read at idx - 1 lands in the halo" "$o/halo.kernel" \
    "in[((idz + 1) * (in_height + 2) + (idy + 1)) * (in_width + 2) + idx]"
count "opencl halo none: seven global reads" "$o/halo.kernel" "in[(" 7
gen halo cuda '{}'
kernel "$o/halo.cu" | sed '/^}/q' >"$o/halo.kernel"
hasnt "cuda halo none, global memory: no guard in the kernel" "$o/halo.kernel" "imcl_in("
gen halo opencl '{"mem_in": "shared", "coarsen_z": 1}'
cl=$o/halo.cl
has "opencl halo none, shared: tile (32+2)x(4+2)x(1+2)" "$cl" "    __local double imcl_in_tile[612];"
has "opencl halo none, shared: loads limited to the storage (halo 1)" "$cl" \
    "imcl_in(imcl_x, in_width, 1) && imcl_in(imcl_y, in_height, 1) && imcl_in(imcl_z, in_depth, 1) ?"
has "opencl halo none, shared: loads limited to elements a point of the grid reads" "$cl" \
    "imcl_in_tile[imcl_i] = imcl_x < W + 1 && imcl_y < H + 1 && imcl_z < D + 1 && imcl_in("
count "opencl halo none, shared: seven tile reads" "$cl" "imcl_in_tile[((" 7
if grep -F "imcl_in_tile[((" "$cl" | grep -qF "imcl_in("; then
    bad "opencl halo none, shared: no guard on the tile reads"
else
    ok "opencl halo none, shared: no guard on the tile reads"
fi

# ---- refusals ------------------------------------------------------------------------
SH='{"mem_in": "shared"}'
E="imcl: error: parameter 'mem_in': value 'shared' is not allowed: 'in' cannot be in shared memory:"
refuse "refused: shared on an unknown footprint (in[idx * 2])" refuse opencl "$SH" \
    "$E its footprint is not known at compile time" -k unknown
refuse "refused: shared on an unknown footprint, cuda" refuse cuda "$SH" \
    "$E its footprint is not known at compile time" -k unknown
refuse "refused: shared through two views" refuse opencl "$SH" \
    "$E it is read through more than one view (the array and an alias, or two aliases)" -k views
refuse "refused: shared on a written array" refuse opencl "$SH" \
    "$E the kernel writes it (only global memory can be written)" -k written
refuse "refused: shared through an alias whose offset is a local" refuse opencl "$SH" \
    "$E it is read through an alias whose offset is not known before the tile is loaded" -k aliaslocal
refuse "refused: shared through an alias whose offset parameter the body changes" refuse opencl "$SH" \
    "$E it is read through an alias whose offset is not known before the tile is loaded" -k aliasassigned
refuse "refused: shared on the output" refuse opencl '{"mem_out": "shared"}' \
    "imcl: error: parameter 'mem_out': value 'shared' is not allowed: 'out' cannot be in shared memory: the kernel writes it (only global memory can be written)" -k legal
accept "accepted: shared with constant offsets" refuse opencl "$SH" -k legal
accept "accepted: shared through a top-level alias with a parameter offset" refuse opencl "$SH" -k aliasok
# the 432-double tile of the 7-point stencil above takes 3456 bytes
refuse "refused: tiles over --shared-limit 1024" sum7 opencl "$S7" \
    "imcl: error: parameter 'mem_in': the shared-memory tiles of kernel 'sum7' take 3456 bytes with this block shape and coarsening, more than the 1024 bytes a block may use (--shared-limit)" \
    --shared-limit 1024
refuse "refused: tiles one byte over --shared-limit" sum7 cuda "$S7" \
    "imcl: error: parameter 'mem_in': the shared-memory tiles of kernel 'sum7' take 3456 bytes with this block shape and coarsening, more than the 3455 bytes a block may use (--shared-limit)" \
    --shared-limit 3455
accept "accepted: tiles exactly at --shared-limit" sum7 opencl "$S7" --shared-limit 3456
# default limits: block 16 x 8 x 8, coarsen_x 3: tile 50 x 10 x 10 doubles = 40000 bytes,
# over OpenCL's 32768, under CUDA's 49152
BIG='{"block_size_x": 16, "block_size_y": 8, "block_size_z": 8, "coarsen_x": 3, "coarsen_z": 1, "mem_in": "shared"}'
refuse "refused: 40000 bytes of tiles over OpenCL's default 32768" sum7 opencl "$BIG" \
    "imcl: error: parameter 'mem_in': the shared-memory tiles of kernel 'sum7' take 40000 bytes with this block shape and coarsening, more than the 32768 bytes a block may use (--shared-limit)"
accept "accepted: 40000 bytes of tiles under CUDA's default 49152" sum7 cuda "$BIG"
# constant memory: 3 x 24000 bytes over 65536, 2 x 24000 under it
CB3='{"mem_m1": "constant", "mem_m2": "constant", "mem_m3": "constant"}'
refuse "refused: three 24000-byte constant arrays" cbudget cuda "$CB3" \
    "imcl: error: parameter 'mem_m1': the constant-memory arrays of kernel 'cbudget' take 72000 bytes, more than the 65536 bytes of constant memory"
accept "accepted: two 24000-byte constant arrays" cbudget opencl '{"mem_m1": "constant", "mem_m3": "constant"}'
if "$IMCL" --dump-space -b cuda "$DIR/cbudget.imcl" 2>&1 | grep -qF \
    "\"(mem_m1 == 'constant') * 24000 + (mem_m2 == 'constant') * 24000 + (mem_m3 == 'constant') * 24000 <= 65536\""; then
    ok "space: the constant-memory budget is a restriction"
else
    bad "space: the constant-memory budget is a restriction"
fi

# ---- the dumped space ----------------------------------------------------------------
if "$IMCL" --dump-space -b opencl "$DIR/refuse.imcl" >"$WORK/space.json" 2>"$WORK/space.err"; then
    if python3 - "$WORK/space.json" <<'EOF'; then ok "space: shared listed exactly where it is legal"; else bad "space: shared listed exactly where it is legal"; fi
import json, sys
spaces = {s["kernel"]: s for s in json.load(open(sys.argv[1]))}
want = {"unknown": False, "views": False, "written": False, "aliaslocal": False, "aliasassigned": False, "legal": True, "aliasok": True}
ok = sorted(spaces) == sorted(want)
if not ok:
    print("  kernels dumped: %s" % sorted(spaces))
for k, legal in want.items():
    if k not in spaces:
        continue
    p = spaces[k]["parameters"]
    got = "shared" in p.get("mem_in", [])
    if got != legal:
        print("  %s: mem_in %s, shared expected %s" % (k, p.get("mem_in"), "listed" if legal else "absent"))
        ok = False
    if "mem_out" in p and "shared" in p["mem_out"]:
        print("  %s: mem_out (written) lists shared: %s" % (k, p["mem_out"]))
        ok = False
sys.exit(0 if ok else 1)
EOF
else
    bad "space: imcl --dump-space -b opencl refuse.imcl exited with status $?: $(cat "$WORK/space.err")"
fi
# the restriction of the dump agrees with the refusals: with --shared-limit 3456 the
# 7-point configuration above is in the space, with 3455 it is not
for lim in 3455 3456; do
    if "$IMCL" --dump-space -b opencl --shared-limit "$lim" "$DIR/sum7.imcl" >"$WORK/space-$lim.json" 2>&1; then
        want=$([ "$lim" = 3456 ] && echo True || echo False)
        got=$(python3 - "$WORK/space-$lim.json" "$S7" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
cfg = dict(s["defaults"])
cfg.update(json.loads(sys.argv[2]))
print(all(eval(r, {}, dict(cfg)) for r in s["restrictions"]))
EOF
)
        if [ "$got" = "$want" ]; then
            ok "space: --shared-limit $lim: the 3456-byte configuration is in the space: $want"
        else
            bad "space: --shared-limit $lim: the 3456-byte configuration is in the space: $got, expected $want"
        fi
    else
        bad "space: imcl --dump-space --shared-limit $lim exited with status $?"
    fi
done

# ---- tile loads stay inside the buffers (AddressSanitizer) ------------------------------
# bounds NAME CASE BX BY BZ CX CY CZ JSON
bounds() {
    local name=$1 case=$2 bx=$3 by=$4 bz=$5 cx=$6 cy=$7 cz=$8 json=$9
    gen "$name" opencl "$json"
    if ! "$CC" -std=c11 -g -O0 -fsanitize=address -fno-omit-frame-pointer -Wno-attributes \
        -DKERNEL_CL="\"$o/$name.cl\"" -DCASE_"$case" -DBX="$bx" -DBY="$by" -DBZ="$bz" -DCX="$cx" -DCY="$cy" \
        -DCZ="$cz" "$DIR/tile_bounds.c" -o "$o/bounds" >"$o/bounds.log" 2>&1; then
        bad "bounds $name $json: the kernel does not compile as C: $(head -n 5 "$o/bounds.log")"
    elif ASAN_OPTIONS=detect_leaks=0 "$o/bounds" >"$o/bounds.out" 2>&1; then
        ok "bounds: $name $json: every tile load inside its buffer"
    else
        bad "bounds: $name $json: an access outside a buffer: $(grep -m 1 'ERROR: AddressSanitizer' "$o/bounds.out"); $(grep -m 1 ' in ' "$o/bounds.out" | sed 's/^ *//')"
    fi
}
bounds sum7 SUM7 8 4 2 2 1 1 "$S7"
bounds sum7 SUM7 4 2 2 3 2 5 "$C3"
bounds halo HALO 32 4 1 1 1 1 '{"mem_in": "shared", "coarsen_z": 1}'
bounds halo HALO 3 5 2 2 1 3 '{"mem_in": "shared", "block_size_x": 3, "block_size_y": 5, "block_size_z": 2, "coarsen_x": 2, "coarsen_z": 3}'
# the aliases: global memory first (the kernel's own reads stay inside), then tiles
bounds alias2 ALIAS2 32 4 1 1 1 1 '{}'
bounds alias2 ALIAS2 32 4 1 1 1 1 '{"mem_in": "shared", "coarsen_y": 1}'
bounds alias_end ALIAS_END 16 1 64 1 1 1 '{"block_size_x": 16, "block_size_y": 1, "block_size_z": 64}'
bounds alias_end ALIAS_END 16 1 64 1 1 1 '{"mem_in": "shared", "block_size_x": 16, "block_size_y": 1, "block_size_z": 64, "coarsen_z": 1}'
bounds alias_end ALIAS_END 32 4 1 1 1 1 '{"mem_in": "shared", "coarsen_z": 1}'

# ---- guard-free interiors (passes/interior.c) ------------------------------------------
# The default (interior 1): inner blocks test the block once and read unguarded;
# gen() passes "interior": 0, so these call imcl themselves. "interior": 1 is given, so
# that OpenCL has no CPU variant (below).
printf '{"interior": 1, "coarsen_z": 1}\n' >"$WORK/interior1.json"
"$IMCL" -b opencl -t "$WORK/interior1.json" -o "$WORK/interior-cl" "$DIR/sum7.imcl" >/dev/null 2>&1
"$IMCL" -b cuda -o "$WORK/interior-cu" "$DIR/sum7.imcl" >/dev/null 2>&1
cl=$WORK/interior-cl/sum7.cl cu=$WORK/interior-cu/sum7.cu
has "interior: OpenCL tests the work-group" "$cl" "if ((int)get_group_id(0) * 32 >= 1 && ((int)get_group_id(0) + 1) * 32 <= out_width && ((int)get_group_id(0) + 1) * 32 <= W - 1"
has "interior: CUDA tests the block" "$cu" "if ((int)blockIdx.x * 32 >= 1 && ((int)blockIdx.x + 1) * 32 <= out_width && ((int)blockIdx.x + 1) * 32 <= W - 1"
# imcl_in: its definition, the write's 3 dimensions and 6 reads, all on the boundary side
count "interior: guards on the boundary side only" "$cl" "imcl_in(" 10
count "interior: one edge test (the boundary side)" "$cl" "if (idx >= W || idy >= H || idz >= D)" 1
count "interior: the unguarded read of in[idx - 1] (inner side)" "$cl" "= in[(idz * in_height + idy) * in_width + (idx - 1)]" 1
printf '{"interior": 0}\n' >"$WORK/interior0.json"
"$IMCL" -b opencl -t "$WORK/interior0.json" -o "$WORK/interior-0" "$DIR/sum7.imcl" >/dev/null 2>&1
hasnt "interior 0: no split" "$WORK/interior-0/sum7.cl" "get_group_id(0) + 1"
space=$("$IMCL" --dump-space -b opencl "$DIR/sum7.imcl" 2>&1)
if grep -q '"interior":[[:space:]]*\[0, 1\]' <<<"$space"; then ok "space: interior [0, 1] listed"; else bad "space: no interior"; fi

# ---- the device-aware default (params_cpu_variant, docs/tuning.md "Defaults") ---------
# No geometry given: K.cl holds the default kernel and K_cpu (rows up to 128x1x1 as
# wide as the grid needs, no interior split), and the host builds the one
# imcl_cpu_device picks; any geometry parameter given, or another backend: one kernel.
"$IMCL" -b opencl -b cuda -o "$WORK/variant" "$DIR/sum7.imcl" >/dev/null 2>&1
cl=$WORK/variant/sum7.cl
count "variant: a fixed work-group size for the default kernel only" "$cl" "__kernel __attribute__((reqd_work_group_size(" 1
has "variant: the default kernel's shape" "$cl" "__kernel __attribute__((reqd_work_group_size(32, 4, 1))) void sum7("
has "variant: the CPU kernel's rows: the launch's width" "$cl" "__kernel void sum7_cpu("
has "variant: the CPU kernel's x from the launch's width" "$cl" \
    "const int idx = (int)get_group_id(0) * (int)get_local_size(0) + (int)get_local_id(0);"
has "variant: the default kernel's interior split" "$cl" "if ((int)get_group_id(0) * 32 >= 1"
hasnt "variant: the CPU kernel has no interior split" "$cl" "get_group_id(0) * 128 >= 1"
has "variant: the host picks by device type" "$WORK/variant/sum7_host.c" \
    'static const imcl_cl_program imcl_program = {imcl_source, "sum7", "sum7_cpu"};'
has "variant: the plan launches its variant" "$WORK/variant/sum7_host.c" \
    "imcl_launch(imcl_p->queue, imcl_p->kernel, imcl_p->cpu,"
# batches (docs/wrappers.md): the block from the work-group's z index, in both kernels
count "batch: both kernels find their block" "$cl" "const int imcl_b = (int)get_group_id(2) / imcl_zgroups;" 2
# (the default kernel coarsens z by 2, registers_default_coarsen; the CPU kernel does not)
count "batch: the CPU kernel's work-groups per block (one plane deep)" "$cl" "const int imcl_zgroups = (D + 0) / 1;" 1
count "batch: the default kernel's work-groups per block (two planes deep)" "$cl" "const int imcl_zgroups = (D + 1) / 2;" 1
has "batch: arrays moved to the block's storage" "$cl" "out += imcl_b * (size_t)(out_width * out_height * out_depth);"
has "batch: the launch stacks the blocks in z" "$WORK/variant/sum7_host.c" \
    "(size_t)imcl_count * (size_t)((D + 1 - 1) / 1) * 1, /* the blocks one after the other */"
has "batch: plans created for a capacity" "$WORK/variant/sum7_host.c" "capacity, 2, imcl_layout, imcl_extent);"
has "variant: the CPU launch fits its work-groups to W and H" "$WORK/variant/sum7_host.c" \
    "size_t imcl_bx = 8, imcl_by = 1; while (imcl_bx < (size_t)W && imcl_bx < 128) imcl_bx *= 2; while (imcl_bx < 128 && imcl_by < (size_t)H && imcl_bx * imcl_by < 256) imcl_by *= 2; const size_t imcl_local[3] = {imcl_bx, imcl_by, 1};"
has "variant: its kernel takes y from the launch" "$WORK/variant/sum7.cl" \
    "const int idy = (int)get_group_id(1) * (int)get_local_size(1) + (int)get_local_id(1);"
hasnt "variant: none in CUDA" "$WORK/variant/sum7.cu" "_cpu"
for g in '{"block_size_x": 8}' '{"coarsen_z": 1}' '{"interleaved": 1}' '{"interior": 0}'; do
    printf '%s\n' "$g" >"$WORK/geometry.json"
    "$IMCL" -b opencl -t "$WORK/geometry.json" -o "$WORK/geometry" "$DIR/sum7.imcl" >/dev/null 2>&1
    hasnt "variant: none with $g" "$WORK/geometry/sum7.cl" "sum7_cpu"
done
printf '{"mem_in": "shared"}\n' >"$WORK/shared.json"
"$IMCL" -b opencl -t "$WORK/shared.json" -o "$WORK/variant-shared" "$DIR/sum7.imcl" >/dev/null 2>&1
count "variant: a placement keeps the variant, with its own tile" "$WORK/variant-shared/sum7.cl" \
    "__local double imcl_in_tile[" 2

# ---- stream_z: z-marching with windows of planes (docs/tuning.md) ---------------------
# sum7 with stream_z 8 on 32 x 4 blocks, no split: one window of 3 x 3 x 3 doubles; 'in'
# is read from global memory by its 7 loads only (2 at the thread's first point, 5 at
# every point: one per column the body reads); 2 moves after each point; the launch
# covers ceil(D / 8) blocks in z. With coarsen_x 2 each column is walked in turn (z
# innermost).
gen sum7 opencl '{"stream_z": 8, "block_size_x": 32, "block_size_y": 4, "interior": 0}'
sz=$o/sum7.cl
count "stream_z: one window" "$sz" "double imcl_in_w[3][3][3];" 1
count "stream_z: 7 loads of 'in'" "$sz" "in[" 7
count "stream_z: the point's own value: loaded at the first point, then moved" "$sz" "imcl_in_w[1][1][1] =" 2
count "stream_z: the top plane of the point's column, loaded at every point" "$sz" "imcl_in_w[2][1][1] =" 1
has "stream_z: the first point of the thread" "$sz" "if (idz == imcl_group_z * 8) {"
has "stream_z: one thread per block in z walks it" "$sz" "const int idz = imcl_group_z * 8 + imcl_cz;"
has "stream_z: reqd_work_group_size one deep" "$sz" "reqd_work_group_size(32, 4, 1)"
has "stream_z: the launch covers ceil(D / 8) blocks in z" "$o/sum7_host.c" "(size_t)((D + 8 - 1) / 8) * 1,"
gen sum7 cuda '{"stream_z": 4, "coarsen_x": 2, "interior": 0}'
before "stream_z: x coarsening outside the walk up z" "$o/sum7.cu" "for (int imcl_cx" "for (int imcl_cz"
has "stream_z: block_size_z defaults to 1" "$o/sum7.cu" "__launch_bounds__(128)"
gen stream cuda '{"stream_z": 4}' -k some
has "stream_z: a window for 'a'" "$o/some.cu" "float imcl_a_w[3][1][1];"
hasnt "stream_z: none for 'b'" "$o/some.cu" "imcl_b_w"
refuse "stream_z: refused through an alias whose offset changes in a loop" stream opencl '{"stream_z": 4}' \
    "imcl: error: parameter 'stream_z': value 4 is not allowed: kernel 'aliasloop' reads no Block a thread can keep along z ('in': it is read through an alias whose offset is not known before the tile is loaded; 'out': the kernel writes it)" \
    -k aliasloop
refuse "stream_z: refused on an unknown footprint" stream cuda '{"stream_z": 2}' \
    "imcl: error: parameter 'stream_z': value 2 is not allowed: kernel 'unknownz' reads no Block a thread can keep along z ('in': its footprint is not known at compile time; 'out': the kernel writes it)" \
    -k unknownz
refuse "stream_z: refused on an Image grid" stream cuda '{"stream_z": 2}' \
    "imcl: error: parameter 'stream_z': value 2 is not allowed for 2D kernel 'image' (expected 0)" -k image
# the space lists stream_z exactly where -t accepts it, on the GPU backends
for b in opencl cuda c; do
    for k in aliasloop unknownz image some; do
        listed=no
        "$IMCL" --dump-space -b "$b" -k "$k" "$DIR/stream.imcl" 2>/dev/null | grep -q '"stream_z"' && listed=yes
        want=no
        [ "$k" = some ] && [ "$b" != c ] && want=yes
        [ "$listed" = "$want" ] && ok "space: stream_z listed for $k on $b: $want" ||
            bad "space: stream_z listed for $k on $b: $listed, expected $want"
    done
done

# ---- register caching: mem_<array> register (CUDA, docs/tuning.md) ------------------
# cross (5 values in 3 rows) on 32 x 4 blocks without the split: the lane; rows y-1 and
# y+1 are one register each (their only value is the lane's own), row y two; 2
# shuffles (x-1 is the lane's own element of the row, x and x+1 come from 1 and 2
# lanes over); every load and shuffle before the test that skips points past the edge.
gen register cuda '{"mem_in": "register", "block_size_x": 32, "block_size_y": 4, "interior": 0}' -k cross
rc=$o/cross.cu
has "register: the lane" "$rc" "const int imcl_lane = (int)threadIdx.x & 31;"
count "register: 4 loads of 'in'" "$rc" "in[" 4
count "register: 2 shuffles" "$(kernel "$rc" >"$WORK/cross-kernel.cu"; echo "$WORK/cross-kernel.cu")" "imcl_shfl(" 2
has "register: x+1 from 2 lanes over" "$rc" "imcl_shfl(imcl_lane >= 2 ? imcl_in_1_0 : imcl_in_1_1, (imcl_lane + 2) & 31)"
has "register: the shuffle helper" "$rc" "return __shfl_sync(0xffffffffu, v, lane);"
before "register: the shuffles before the edge test" "$WORK/cross-kernel.cu" "imcl_shfl(" "if (idx >= W"
refuse "register: refused on OpenCL" register opencl '{"mem_in": "register"}' \
    "imcl: error: parameter 'mem_in': value 'register' is not allowed: 'in' cannot be in register memory: register caching needs the warp shuffles of CUDA" \
    -k cross
refuse "register: refused on a footprint as wide as a warp" register cuda '{"mem_in": "register", "block_size_x": 32}' \
    "imcl: error: parameter 'mem_in': value 'register' is not allowed: 'in' cannot be in register memory: its footprint is 32 points or wider in x, more than a warp holds" \
    -k wide
accept "register: a footprint of 31 points" register cuda '{"mem_in": "register", "block_size_x": 32}' -k narrow
refuse "register: refused on a block that is no whole warp wide" register cuda '{"mem_in": "register", "block_size_x": 8, "block_size_y": 8}' \
    "imcl: error: parameter 'mem_in': value 'register' needs block_size_x a multiple of 32 (a warp is 32 threads of one row), not 8" \
    -k cross
# the space lists register exactly where -t accepts it on CUDA, legal arrays only; the
# OpenCL space never, the C reference's (a space of its own) no placement at all
for b in cuda opencl c; do
    for k in unknown views written aliaslocal legal aliasok aliasassigned; do
        listed=no
        "$IMCL" --dump-space -b "$b" -k "$k" "$DIR/refuse.imcl" 2>/dev/null |
            python3 -c 'import json,sys; sys.exit("register" not in json.load(sys.stdin)["parameters"].get("mem_in", []))' &&
            listed=yes
        want=no
        [ "$b" = cuda ] && { [ "$k" = legal ] || [ "$k" = aliasok ]; } && want=yes
        [ "$listed" = "$want" ] && ok "space: register listed for $k on $b: $want" ||
            bad "space: register listed for $k on $b: $listed, expected $want"
    done
done

# ---- accumulate: an element updated again and again is kept in a local -------------
for b in opencl cuda c; do
    gen accum "$b" '{}' -k taps
    f=$(ls "$o"/taps.cl "$o"/taps.cu "$o"/taps_ref.c 2>/dev/null | head -n 1)
    has "accumulate $b: the loop adds into a local" "$f" "imcl_out_acc +="
    has "accumulate $b: the local starts from the first store's value" "$f" "float imcl_out_acc = 0;"
    hasnt "accumulate $b: no update of out in the loop" "$f" "idx] +="
    gen accum "$b" '{}' -k twice
    f=$(ls "$o"/twice.cl "$o"/twice.cu "$o"/twice_ref.c 2>/dev/null | head -n 1)
    has "accumulate $b: updates before a store start from the element" "$f" "float imcl_out_acc ="
    has "accumulate $b: ... and are stored once" "$f" "= imcl_out_acc;"
    for k in once moving early; do
        gen accum "$b" '{}' -k "$k"
        f=$(ls "$o/$k.cl" "$o/$k.cu" "$o/${k}_ref.c" 2>/dev/null | head -n 1)
        hasnt "accumulate $b: $k keeps out in memory" "$f" "imcl_out_acc"
    done
done

# ---- the CPU variant with an array in shared memory: rows of 128, as its tile's ----------
printf '{"mem_in": "shared"}\n' >"$WORK/cpu-shared.json"
"$IMCL" -b opencl -t "$WORK/cpu-shared.json" -o "$WORK/cpu-shared" "$DIR/sum7.imcl" >"$WORK/cpu-shared.log" 2>&1 ||
    bad "imcl -b opencl -t cpu-shared.json sum7.imcl: $(cat "$WORK/cpu-shared.log")"
has "CPU rows with a shared tile: 128 wide" "$WORK/cpu-shared/sum7.cl" \
    "__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void sum7_cpu("
hasnt "CPU rows with a shared tile: not fitted" "$WORK/cpu-shared/sum7_host.c" "imcl_bx"

# ---- --emit-ast=after:PASS ----------------------------------------------------------
printf '{"mem_in": "shared", "interior": 1}\n' >"$WORK/emit.json"
after() { "$IMCL" -b opencl -t "$WORK/emit.json" -o "$WORK/emit" --emit-ast=after:"$1" "$DIR/sum7.imcl" 2>&1; }
ast=$(after shared_memory)
# the point loop, the body's only statement, with its four parts in the order a thread runs them
parts=$(grep -oE '^(  Block|    Points|      (Prologue|PointPrologue|Body|PointEpilogue))\b' <<<"$ast" |
    tr -s ' \n' ' ')
if grep -q '^/\* sum7, opencl backend, after pass shared_memory \*/$' <<<"$ast" &&
    [ "$parts" = " Block Points Prologue PointPrologue Body PointEpilogue " ] && grep -q 'Barrier' <<<"$ast" && [ "$(grep -c 'GridAccess in ' <<<"$ast")" = 1 ]; then
    ok "--emit-ast=after:shared_memory: the point loop, its prologue with the tile load (its one grid read of 'in') and a barrier"
else
    bad "--emit-ast=after:shared_memory: $(head -5 <<<"$ast")"
fi
ast=$(after global_memory)
if [ "$(grep -c GridAccess <<<"$ast")" = 0 ] && grep -q BufAccess <<<"$ast"; then
    ok "--emit-ast=after:global_memory: no grid access is left"
else
    bad "--emit-ast=after:global_memory: $(grep GridAccess <<<"$ast" | head -3)"
fi
ast=$(after thread_mapping)
if grep -q '^/\* sum7, opencl backend, after pass thread_mapping \*/$' <<<"$ast" && ! grep -q Points <<<"$ast"; then
    ok "--emit-ast=after:thread_mapping: the point loop is lowered"
else
    bad "--emit-ast=after:thread_mapping: $(grep -m3 Points <<<"$ast")"
fi
want="imcl: error: --emit-ast=after:lower: expected after:PASS, PASS one of accumulate, texture_memory, shared_memory, register_cache, stream_z, interior, global_memory, unroll, thread_mapping"
got=$("$IMCL" --emit-ast=after:lower "$DIR/sum7.imcl" 2>&1)
[ "$got" = "$want" ] && ok "--emit-ast=after:lower is refused, listing the passes" || bad "--emit-ast=after:lower: '$got'"

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
