#!/usr/bin/env bash
# imcl in a user's build (docs/cmake.md): run_install.sh BUILD SOURCE WORK
# Installs BUILD into a prefix under WORK, moves the prefix (the tree must be
# relocatable), then, with nothing but the moved prefix:
#   - the installed tree holds every file docs/cmake.md lists; libimcl's soname;
#   - imcl --version names VERSION and the commit of SOURCE's checkout; the Python
#     package (.venv) and pkg-config report VERSION too;
#   - the man page renders without warnings and lists the options of imcl --help;
#   - --depfile's rule, and its refusals;
#   - examples/consumer (find_package(imcl) + imcl_add_kernels) configures, builds and
#     runs on PoCL against its own oracle, with make and with Ninja; a rebuild without
#     a change runs nothing; editing coef.h (a file heat.imcl includes) or heat.json
#     regenerates;
#   - examples/consumer/pkg.c, built with `pkg-config --cflags --libs imcl`, generates
#     the kernel in memory: the same bytes the installed imcl writes;
#   - cpack -G DEB packages the tree with its run-time dependencies.
set -uo pipefail
BUILD=$(realpath "$1")
ROOT=$(realpath "$2")
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
version=$(head -n1 "$ROOT/VERSION")
failed=0
fail() { echo "FAIL $*"; failed=1; }
ok() { echo "ok   $*"; }

cmake --install "$BUILD" --prefix "$WORK/first" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "cmake --install"; exit 1; }
mv "$WORK/first" "$WORK/prefix"
P=$WORK/prefix
lib=$(cd "$P" && ls -d lib*/libimcl.so | head -n1)
libdir=$P/$(dirname "$lib")
for f in bin/imcl bin/imcl-nvcc-cpu "$lib" "$lib.${version%.*}" "$lib.$version" include/imcl/imcl.h \
    "${lib%/*}/cmake/imcl/imclConfig.cmake" "${lib%/*}/cmake/imcl/imclConfigVersion.cmake" \
    "${lib%/*}/cmake/imcl/imclTargets.cmake" "${lib%/*}/cmake/imcl/imclKernels.cmake" \
    "${lib%/*}/pkgconfig/imcl.pc" share/man/man1/imcl.1 share/imcl/nvcc-cpu/include/cuda_runtime.h \
    share/doc/imcl/LICENSE share/doc/imcl/CHANGELOG.md share/doc/imcl/README.md share/doc/imcl/docs/cmake.md \
    share/doc/imcl/samples/sum7/sum7.imcl; do
    [ -e "$P/$f" ] || fail "installed tree: no $f"
done
soname=$(readelf -d "$P/$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libimcl.so.${version%.*}" ] && ok "soname $soname" || fail "soname '$soname'"

# versions
got=$("$P/bin/imcl" --version)
commit=unknown
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    commit=$(git -C "$ROOT" rev-parse --short=12 HEAD)
fi
case $got in
"imcl $version (commit $commit)" | "imcl $version (commit $commit-dirty)") ok "$got" ;;
*) fail "imcl --version: '$got' (expected imcl $version and commit $commit)" ;;
esac
export PKG_CONFIG_PATH=$libdir/pkgconfig
got=$(pkg-config --modversion imcl)
[ "$got" = "$version" ] && ok "pkg-config --modversion imcl: $got" || fail "pkg-config --modversion: '$got'"
got=$("$ROOT/.venv/bin/python" -c 'import imcl; print(imcl.__version__)' 2>&1)
[ "$got" = "$version" ] && ok "imcl.__version__ $got" || fail "the Python package's version: '$got'"

# the man page: renders without warnings, shows as a page, lists the options of --help
warnings=$(groff -man -ww -z "$P/share/man/man1/imcl.1" 2>&1)
[ -z "$warnings" ] && ok "groff -man -ww: no warnings" || fail "groff -man -ww: $warnings"
MANWIDTH=100 man -l "$P/share/man/man1/imcl.1" 2>/dev/null | grep "imcl - the ImageCL compiler" >/dev/null &&
    ok "man -l shows the page" || fail "man -l does not show the page"
opts() { grep -oE -- '(^|[^a-z-])--?[a-z][a-z-]*' | sed 's/^[^-]*//' | sort -u; }
from_help=$("$P/bin/imcl" --help | sed '/^exit status/,$d' | grep -E '^ +-' | opts)
from_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH EXIT/p' "$P/share/man/man1/imcl.1" | grep -E '^\.(B|BR|BI) ' |
    sed 's/\\-/-/g; s/\\f[BIRP]//g' | opts)
if [ "$from_help" = "$from_man" ]; then
    ok "imcl(1) and --help list the same $(echo "$from_help" | wc -l) options"
else
    fail "options of --help and imcl(1) differ: $(diff <(echo "$from_help") <(echo "$from_man") | grep '^[<>]' | tr '\n' ' ')"
fi

# --depfile: the generated files in name order, the source, what it includes, -t
C=$WORK/consumer
cp -r "$ROOT/examples/consumer" "$C"
want=$'my\\ out/heat.h \\\nmy\\ out/heat_ref.c: \\\n  heat.imcl \\\n  coef.h \\\n  heat.json'
(cd "$C" && "$P/bin/imcl" -b c -t heat.json -o "my out" --depfile heat.d heat.imcl) &&
    [ "$(cat "$C/heat.d")" = "$want" ] && ok "--depfile" || fail "--depfile wrote '$(cat "$C/heat.d")', expected '$want'"
rm -rf "$C/heat.d" "$C/my out"
for other in --batch=heat.json --dump-space; do
    got=$(cd "$C" && "$P/bin/imcl" --depfile heat.d "$other" heat.imcl 2>&1)
    status=$?
    [ $status = 2 ] && [ "$got" = "imcl: error: --depfile goes with generating one configuration: not with ${other%%=*}" ] &&
        [ ! -e "$C/heat.d" ] && ok "--depfile with ${other%%=*} refused" || fail "--depfile with $other: status $status, '$got'"
done

# a project of its own with find_package(imcl) and imcl_add_kernels, on PoCL, built
# by make and by Ninja (which reads imcl's depfile itself), each from a fresh copy
build() { # build LOG: builds the consumer, then runs it; the build's output goes to LOG
    cmake --build "$B" >"$WORK/$1" 2>&1 || { cat "$WORK/$1"; fail "building examples/consumer ($1)"; return 1; }
    "$B/heat" >"$WORK/$1.run" 2>&1 || { cat "$WORK/$1.run"; fail "examples/consumer ($1) does not match its loop"; return 1; }
}
regenerated() { grep -oE 'imcl -b [a-z]+ heat' "$WORK/$1" | sort | tr '\n' ' '; }
both="imcl -b c heat imcl -b opencl heat "
for gen in "Unix Makefiles" Ninja; do
    g=${gen%% *}
    C=$WORK/consumer-$g
    B=$WORK/consumer-$g-build
    cp -r "$ROOT/examples/consumer" "$C"
    cmake -G "$gen" -S "$C" -B "$B" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        >"$WORK/$g.configure.log" 2>&1 || { cat "$WORK/$g.configure.log"; fail "configuring examples/consumer ($gen)"; continue; }
    grep -q "^imcl_DIR:PATH=$libdir/cmake/imcl$" "$B/CMakeCache.txt" && ok "$g: find_package(imcl) found the prefix" ||
        fail "$g: find_package(imcl) found $(grep '^imcl_DIR' "$B/CMakeCache.txt")"
    if build $g.build.log; then
        [ "$(regenerated $g.build.log)" = "$both" ] || fail "$g: first build: $(regenerated $g.build.log)"
        grep -q "^opencl: 61 x 37 points match the loop (ALPHA 0.125)" "$WORK/$g.build.log.run" &&
            grep -q "^c: 61 x 37 points match the loop (ALPHA 0.125)" "$WORK/$g.build.log.run" &&
            ok "$g: examples/consumer: $(tr '\n' ';' <"$WORK/$g.build.log.run")" ||
            fail "$g: examples/consumer printed $(cat "$WORK/$g.build.log.run")"
    fi
    if build $g.rebuild.log; then
        [ -z "$(regenerated $g.rebuild.log)" ] && ! grep -q "Building C" "$WORK/$g.rebuild.log" &&
            ok "$g: a rebuild without a change runs nothing" ||
            fail "$g: a rebuild without a change ran: $(cat "$WORK/$g.rebuild.log")"
    fi
    sed -i 's/0.125f/0.25f/' "$C/coef.h"
    if build $g.include.log; then
        [ "$(regenerated $g.include.log)" = "$both" ] && grep -q "^opencl: .* (ALPHA 0.25)" "$WORK/$g.include.log.run" &&
            ok "$g: editing coef.h (included by heat.imcl) regenerates: $(tr '\n' ';' <"$WORK/$g.include.log.run")" ||
            fail "$g: editing coef.h: regenerated '$(regenerated $g.include.log)', ran $(cat "$WORK/$g.include.log.run")"
    fi
    echo '{"block_size_x": 8, "block_size_y": 8}' >"$C/heat.json"
    if build $g.params.log; then
        [ "$(regenerated $g.params.log)" = "$both" ] && grep -q "Tuning: block 8x8x1" "$B/imcl/heat/opencl/heat_host.c" &&
            ok "$g: editing heat.json regenerates (block 8x8x1)" ||
            fail "$g: editing heat.json: regenerated '$(regenerated $g.params.log)'"
    fi
done

# imcl_add_kernels' refusals, at configure time, with their messages
refuse() { # refuse CALL MESSAGE
    local R=$WORK/refuse
    rm -rf "$R" "$R-build"
    mkdir -p "$R"
    cp "$ROOT/examples/consumer/heat.imcl" "$ROOT/examples/consumer/coef.h" "$R/"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(refuse LANGUAGES C)\nfind_package(imcl REQUIRED)\n%s\n%s\n' \
        'add_executable(heat heat.c)' "$1" >"$R/CMakeLists.txt"
    touch "$R/heat.c"
    if cmake -S "$R" -B "$R-build" -DCMAKE_PREFIX_PATH="$P" >"$WORK/refuse.log" 2>&1; then
        fail "$1: configured"
    elif tr '\n' ' ' <"$WORK/refuse.log" | tr -s ' ' | grep -F "$2" >/dev/null; then # CMake wraps messages
        ok "$1: $2"
    else
        fail "$1: $(cat "$WORK/refuse.log")"
    fi
}
refuse 'imcl_add_kernels(heat SOURCES heat.imcl BACKENDS fortran)' \
    "imcl_add_kernels(heat): unknown backend 'fortran' (expected c, opencl or cuda)"
refuse 'imcl_add_kernels(heat SOURCES heat.imcl BACKENDS cuda)' \
    "imcl_add_kernels(heat): the cuda backend needs enable_language(CUDA), or OUTPUT_VARIABLE to build the generated .cu files yourself"
refuse 'imcl_add_kernels(heat SOURCES heat.imcl coef.h KERNELS heat BACKENDS c)' \
    "imcl_add_kernels(heat): KERNELS names kernels of one source; call imcl_add_kernels once for each source"
refuse 'imcl_add_kernels(app SOURCES heat.imcl BACKENDS c)' \
    "imcl_add_kernels(app): there is no target 'app' (add it first)"

# the cuda backend with CMake's CUDA language: K.cu compiled into the target by nvcc
# (built only: running it needs a GPU, which the GPU checks have)
U=$WORK/cuda
mkdir -p "$U"
cp "$ROOT/examples/consumer/heat.imcl" "$ROOT/examples/consumer/coef.h" "$U/"
cat >"$U/CMakeLists.txt" <<'EOF_CMAKE'
cmake_minimum_required(VERSION 3.20)
project(heat_cuda LANGUAGES C CUDA)
find_package(imcl 0.2 REQUIRED)
add_library(heat_cuda STATIC)
imcl_add_kernels(heat_cuda SOURCES heat.imcl BACKENDS cuda PREFIX gpu_)
EOF_CMAKE
if cmake -S "$U" -B "$U-build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$WORK/cuda.log" 2>&1 && cmake --build "$U-build" >>"$WORK/cuda.log" 2>&1 &&
    nm "$U-build/libheat_cuda.a" | grep " T gpu_heat_plan_create$" >/dev/null &&
    nm "$U-build/libheat_cuda.a" | grep " W .*imcl_cu_plan_create_" >/dev/null; then
    ok "cuda: heat.cu and the folder's imcl_runtime_cuda.cu compiled by CMake's CUDA language" \
        "(gpu_heat_plan_create, imcl_cu_plan_create_* in libheat_cuda.a)"
else
    fail "cuda: $(tail -20 "$WORK/cuda.log")"
fi

# imcl_add_kernels' options (KERNELS, SIZE, OPTIONS, PARAMS, RECIPE, OUTPUT_DIR): the
# files it generates are those of imcl run by hand with the same flags
O=$WORK/options
mkdir -p "$O"
cp "$ROOT/examples/consumer/heat.imcl" "$ROOT/examples/consumer/coef.h" "$ROOT/examples/consumer/heat.json" \
    "$P/share/doc/imcl/samples/blur5/blur5.imcl" "$P/share/doc/imcl/samples/blur5/blur5.lua" \
    "$ROOT/examples/consumer/pkg.c" "$O/"
cat >"$O/CMakeLists.txt" <<'EOF_CMAKE'
cmake_minimum_required(VERSION 3.20)
project(options LANGUAGES C)
find_package(imcl 0.2 REQUIRED)
add_library(options STATIC)
imcl_add_kernels(options SOURCES heat.imcl KERNELS heat BACKENDS opencl SIZE 61x37
                 OPTIONS --shared-limit 16384 PARAMS heat.json OUTPUT_DIR gen/heat)
imcl_add_kernels(options SOURCES blur5.imcl BACKENDS c RECIPE blur5.lua OUTPUT_DIR gen/blur5)
add_executable(pkg pkg.c) # libimcl through its exported target, <imcl/imcl.h> included
target_link_libraries(pkg PRIVATE imcl::libimcl)
EOF_CMAKE
if cmake -S "$O" -B "$O-build" -DCMAKE_PREFIX_PATH="$P" >"$WORK/options.log" 2>&1 &&
    cmake --build "$O-build" >>"$WORK/options.log" 2>&1 &&
    "$P/bin/imcl" -b opencl -k heat --size 61x37 --shared-limit 16384 -t "$O/heat.json" -o "$WORK/options-heat" \
        "$O/heat.imcl" && "$P/bin/imcl" -b c -r "$O/blur5.lua" -o "$WORK/options-blur5" "$O/blur5.imcl" &&
    diff -r -x '*.d' "$O-build/gen/heat/opencl" "$WORK/options-heat" >>"$WORK/options.log" &&
    diff -r -x '*.d' "$O-build/gen/blur5/c" "$WORK/options-blur5" >>"$WORK/options.log" &&
    (cd "$O" && "$O-build/pkg" heat.imcl heat.json c "$O-build" | grep -x "libimcl $version" >/dev/null); then
    ok "imcl_add_kernels with KERNELS, SIZE, OPTIONS, PARAMS, RECIPE and OUTPUT_DIR: the files of imcl by hand;" \
        "imcl::libimcl links"
else
    fail "imcl_add_kernels' options: $(tail -20 "$WORK/options.log")"
fi

# libimcl through pkg-config: the kernel in memory, the bytes imcl writes
cc "$ROOT/examples/consumer/pkg.c" -o "$WORK/pkg" $(pkg-config --cflags --libs imcl) -Wl,-rpath,"$libdir" \
    -Wall -Wextra -Werror 2>"$WORK/pkg.log" || { cat "$WORK/pkg.log"; fail "building pkg.c with pkg-config"; }
mkdir -p "$WORK/mem"
C=$WORK/consumer
if (cd "$C" && "$WORK/pkg" heat.imcl heat.json opencl "$WORK/mem" >"$WORK/pkg.out" &&
    "$P/bin/imcl" -b opencl -t heat.json -o "$WORK/exe" heat.imcl) && diff -r "$WORK/mem" "$WORK/exe" >/dev/null &&
    grep -q "^libimcl $version$" "$WORK/pkg.out"; then
    ok "pkg.c (pkg-config imcl): libimcl $version generated $(ls "$WORK/mem" | wc -l) files, as imcl writes them"
else
    fail "pkg.c: $(cat "$WORK/pkg.out" 2>/dev/null) $(diff -rq "$WORK/mem" "$WORK/exe" 2>&1)"
fi

# the Debian package of the tree
if (cd "$BUILD" && cpack -G DEB -B "$WORK/deb") >"$WORK/cpack.log" 2>&1; then
    deb=$(ls "$WORK"/deb/imcl_*.deb)
    contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
    for f in ./usr/bin/imcl ./usr/bin/imcl-nvcc-cpu "./usr/$lib.$version" "./usr/$lib" ./usr/include/imcl/imcl.h \
        "./usr/${lib%/*}/cmake/imcl/imclConfig.cmake" "./usr/${lib%/*}/cmake/imcl/imclKernels.cmake" \
        "./usr/${lib%/*}/pkgconfig/imcl.pc" ./usr/share/man/man1/imcl.1 ./usr/share/doc/imcl/LICENSE; do
        grep -qxF "$f" <<<"$contents" || fail "$(basename "$deb"): no $f"
    done
    depends=$(dpkg-deb -f "$deb" Depends)
    for d in libcjson liblua5.4 cpp; do
        grep -q "$d" <<<"$depends" || fail "$(basename "$deb"): Depends '$depends' names no $d"
    done
    ok "$(basename "$deb"): $(wc -l <<<"$contents") entries, Depends: $depends"
else
    cat "$WORK/cpack.log"
    fail "cpack -G DEB"
fi
exit $failed
