/* Oracle driver of tests/lang/alias_stack.imcl, run once per configuration of
 * alias_stack.params. The stacked buffer holds three grids; the alias is grid 1, and
 * its reads past its first and last rows (planes) are the elements of grids 0 and 2
 * at the same linear offset, which this oracle reads straight from the buffer:
 *   astack2: element (x, y) of the alias is st[off + y * w + x], off = w * h;
 *   astack3: element (x, y, z) is st[v * nx * ny * nz + (z * ny + y) * nx + x], v = 1.
 * Integers exact, doubles within 1e-12 (inputs multiples of 1/256). */
#include "shared_common.h"

/* alias_stack_z.c: astack3 alone, under configurations a 2D kernel refuses */
#ifndef ASTACK_3D_ONLY
#include "c/astack2.h"
#ifdef CHECK_CUDA
#include "cuda/astack2.h"
#else
#include "opencl/astack2.h"
#endif
#endif
#include "c/astack3.h"
#ifdef CHECK_CUDA
#include "cuda/astack3.h"
#else
#include "opencl/astack3.h"
#endif

#ifndef ASTACK_3D_ONLY
static void test_astack2(Lang *L, int w, int h)
{
    const long n = (long)w * h, nst = 3 * n, off = n;
    Lcg g;
    lcg_seed(&g, 701 + (uint64_t)w);
    int *st = rand_arr(&g, T_INT, nst);
    int *io = unset_arr(T_INT, n);
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[(long)y * w + x] = st[off + (long)(y - 2) * w + x] + 10.0 * st[off + (long)y * w + x] +
                                 100.0 * st[off + (long)(y + 2) * w + x];
    Shape sh = shape2(w, h);
    char name[48];
    snprintf(name, sizeof name, "astack2 (%d x %d)", w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *s = lang_in(L, "st", T_INT, nst, st);
        void *o = lang_out(L, "o", T_INT, n, io, e, &sh);
        int rc = CHECK_CALL(b, astack2, s, w, 3 * h, o, w, h, w, h, (int)off);
        lang_call_end(L, rc, CHECK_STRERROR(b, astack2, rc), LANG_BUILD_LOG(b, astack2));
    }
}
#endif

static void test_astack3(Lang *L, int nx, int ny, int nz)
{
    const int v = 1;
    const long n = (long)nx * ny * nz, nst = 3 * n, off = v * n, plane = (long)nx * ny;
    Lcg g;
    lcg_seed(&g, 702 + (uint64_t)nx);
    double *st = rand_arr(&g, T_DOUBLE, nst);
    double *io = unset_arr(T_DOUBLE, n), *e = lang_dalloc(n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long p = off + (long)y * nx + x;
                e[((long)z * ny + y) * nx + x] = st[p + (z - 1) * plane] + 2 * st[p + z * plane] +
                                                 4 * st[p + (z + 2) * plane];
            }
    Shape sh = shape3(nx, ny, nz);
    char name[48];
    snprintf(name, sizeof name, "astack3 (%d x %d x %d)", nx, ny, nz);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *s = lang_in(L, "st", T_DOUBLE, nst, st);
        void *o = lang_out(L, "o", T_DOUBLE, n, io, e, &sh);
        int rc = CHECK_CALL(b, astack3, s, nx, ny, 3 * nz, o, nx, ny, nz, nx, ny, nz, v);
        lang_call_end(L, rc, CHECK_STRERROR(b, astack3, rc), LANG_BUILD_LOG(b, astack3));
    }
}

int main(void)
{
    Lang L;
#ifdef ASTACK_3D_ONLY
    lang_begin(&L, "alias_stack_z");
#else
    lang_begin(&L, "alias_stack");
    test_astack2(&L, 37, 29);
    test_astack2(&L, 5, 3);
#endif
    test_astack3(&L, 13, 11, 9);
    test_astack3(&L, 3, 2, 3);
    return lang_finish(&L);
}
