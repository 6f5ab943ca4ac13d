/* Oracle driver of tests/lang/shared_alias.imcl, run once per configuration of
 * shared_alias.params (`in` in shared memory, read through an offset alias).
 * An alias reads its base's buffer `off` elements further on, with the base's
 * extents and boundary condition in the alias's coordinates (shared_common.h).
 *   salias2: an Image of h + 2 rows, the alias two rows down, constant(-9);
 *   salias3: three blocks nx x ny x nz with a ghost layer, stacked in z (the
 *            wrapper is given depth 3 * (nz + 2) - 2, so that the storage holds
 *            them all); the alias is block v = 1, its ghost cells are read.
 * Grids 37 x 29 / 13 x 11 x 9 and smaller than any block. Integers exact, doubles
 * within 1e-12 (inputs multiples of 1/256). */
#include "shared_common.h"

#include "c/salias2.h"
#include "c/salias3.h"
#ifdef CHECK_CUDA
#include "cuda/salias2.h"
#include "cuda/salias3.h"
#else
#include "opencl/salias2.h"
#include "opencl/salias3.h"
#endif

static void test_salias2(Lang *L, int w, int h)
{
    const int ih = h + 2;
    const long n = (long)w * h, ni = (long)w * ih, off = 2L * w;
    Lcg g;
    lcg_seed(&g, 601 + (uint64_t)w);
    int *img = lang_alloc(ni, sizeof(int));
    for (long i = 0; i < ni; i++) img[i] = (int)(lcg_next(&g) % 100);
    Arr As = arr2(B_CONST, -9, T_INT, img, w, ih, 0);
    As.off = off;
    int *io = unset_arr(T_INT, n);
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[(long)y * w + x] = rd2(&As, x - 1, y) + 100 * rd2(&As, x, y) + 10000 * rd2(&As, x + 1, y - 1);
    Shape sh = shape2(w, h);
    char name[48];
    snprintf(name, sizeof name, "salias2 (%d x %d)", w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ii = lang_in(L, "in", T_INT, ni, img);
        void *o = lang_out(L, "o", T_INT, n, io, e, &sh);
        int rc = CHECK_CALL(b, salias2, ii, w, ih, o, w, h, w, h, (int)off);
        lang_call_end(L, rc, CHECK_STRERROR(b, salias2, rc), LANG_BUILD_LOG(b, salias2));
    }
}

static void test_salias3(Lang *L, int nx, int ny, int nz)
{
    const int nv = 3, v = 1, depth = nv * (nz + 2) - 2;
    const long blk = (long)(nx + 2) * (ny + 2) * (nz + 2), nin = nv * blk, n = (long)nx * ny * nz;
    Lcg g;
    lcg_seed(&g, 602 + (uint64_t)nx);
    double *in = rand_arr(&g, T_DOUBLE, nin);
    /* the ghost cells of each block unlike its interior */
    for (long i = 0; i < nin; i++) {
        long k = i % blk;
        if (ghost3(k, nx, ny, nz, 1)) in[i] += 16 * (1 + i / blk);
    }
    Arr As = arr3(B_NONE, 0, T_DOUBLE, in, nx, ny, depth, 1);
    As.off = v * blk;
    double *io = unset_arr(T_DOUBLE, n), *e = lang_dalloc(n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                e[((long)z * ny + y) * nx + x] = 2 * rd3(&As, x, y, z) + rd3(&As, x - 1, y, z) +
                                                 4 * rd3(&As, x + 1, y, z) + 8 * rd3(&As, x, y - 1, z) +
                                                 16 * rd3(&As, x, y + 1, z) + 32 * rd3(&As, x, y, z - 1) +
                                                 64 * rd3(&As, x, y, z + 1);
    Shape sh = shape3(nx, ny, nz);
    char name[48];
    snprintf(name, sizeof name, "salias3 (%d x %d x %d)", nx, ny, nz);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ii = lang_in(L, "in", T_DOUBLE, nin, in);
        void *o = lang_out(L, "out", T_DOUBLE, n, io, e, &sh);
        int rc = CHECK_CALL(b, salias3, ii, nx, ny, depth, o, nx, ny, nz, nx, ny, nz, v);
        lang_call_end(L, rc, CHECK_STRERROR(b, salias3, rc), LANG_BUILD_LOG(b, salias3));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "shared_alias");
    test_salias2(&L, 37, 29);
    test_salias2(&L, 5, 3);
    test_salias2(&L, 1, 1);
    test_salias3(&L, 13, 11, 9);
    test_salias3(&L, 3, 2, 1);
    return lang_finish(&L);
}
