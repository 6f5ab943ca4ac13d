/* Oracle driver of tests/lang/stream_z.imcl, run once per configuration of
 * stream_z.params (z-marching with windows of planes). The oracle is each kernel's
 * meaning per grid point, in C:
 *   zs_alias: a 7-point stencil (the point below only on even planes) on grid
 *             `which` of three (n+2)^3 grids stacked along z, read through an
 *             offset; a clamped data-dependent read of lut decides whether the
 *             point returns early (its output keeps its old value);
 *   zs_types: uchar constant(7) and float clamped reads above and beside the point,
 *             a short read at the point, a periodic Image, a scalar changed per point.
 * Grids 7^3 and 3^3 (zs_alias), 7 x 6 x 11 and 2 x 1 x 3 (zs_types). Every value
 * is an integer, so doubles compare exactly. */
#include "lang_common.h"

#include "c/zs_alias.h"
#include "c/zs_types.h"
#ifdef CHECK_CUDA
#include "cuda/zs_alias.h"
#include "cuda/zs_types.h"
#else
#include "opencl/zs_alias.h"
#include "opencl/zs_types.h"
#endif

static void test_zs_alias(Lang *L, int n)
{
    const int e = n + 2, grids = 3, which = 1;
    const long ns = (long)e * e * e * grids, nl = (long)n * n * n;
    double *stack = lang_dalloc(ns), *oi = lang_dalloc(nl), *ex = lang_dalloc(nl);
    int *lut = lang_alloc(nl, sizeof(int));
    Lcg g;
    lcg_seed(&g, 501 + (uint64_t)n);
    for (long p = 0; p < ns; p++) stack[p] = (double)(lcg_next(&g) % 200) - 50;
    for (long p = 0; p < nl; p++) lut[p] = (int)(lcg_next(&g) % 14) - 4, oi[p] = -0.5 - (double)p;
#define G(x, y, z) stack[(((long)which * e + (z)) * e + (y)) * e + (x)]
#define LUT(x, y, z) lut[((long)clampi(z, 0, n - 1) * n + (y)) * n + (x)]
    long returned = 0;
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                long p = ((long)z * n + y) * n + x;
                double s = G(x + 1, y + 1, z + 1) + 2 * G(x, y + 1, z + 1) + 4 * G(x + 2, y + 1, z + 1) +
                           8 * G(x + 1, y, z + 1) + 16 * G(x + 1, y + 2, z + 1) + 32 * G(x + 1, y + 1, z + 2);
                if (z % 2 == 0) s += 64 * G(x + 1, y + 1, z);
                int k = LUT(x, y, LUT(x, y, z) % 5);
                ex[p] = oi[p];
                if (k >= 0 && k < 3) {
                    returned++;
                    continue;
                }
                ex[p] = s + 1000 * k;
            }
#undef G
#undef LUT
    if (n >= 7 && (returned < 20 || returned > nl - 20)) {
        fprintf(stderr, "stream_z: degenerate inputs (%ld of %ld points return)\n", returned, nl);
        exit(1);
    }
    Shape sh = shape3(n, n, n);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, n > 3 ? "zs_alias" : "zs_alias (3^3)");
        void *is = lang_in(L, "stack", T_DOUBLE, ns, stack);
        void *il = lang_in(L, "lut", T_INT, nl, lut);
        void *o = lang_out(L, "out", T_DOUBLE, nl, oi, ex, &sh);
        int rc = CHECK_CALL(b, zs_alias, is, e, e, e * grids, il, n, n, n, o, n, n, n, n, which);
        lang_call_end(L, rc, CHECK_STRERROR(b, zs_alias, rc), LANG_BUILD_LOG(b, zs_alias));
    }
}

static void test_zs_types(Lang *L, int w, int h, int d)
{
    const int mw = 5, mh = 4, bias = -11;
    const long n = (long)w * h * d;
    unsigned char *a = lang_alloc(n, 1);
    float *bf = lang_alloc(n, sizeof(float));
    short *c = lang_alloc(n, sizeof(short));
    int *m = lang_alloc((long)mw * mh, sizeof(int));
    double *oi = lang_dalloc(n), *ex = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 601 + (uint64_t)w);
    for (long p = 0; p < n; p++) {
        a[p] = (unsigned char)(lcg_next(&g) % 256);
        bf[p] = (float)(lcg_next(&g) % 300) - 100;
        c[p] = (short)((int)(lcg_next(&g) % 2000) - 1000);
        oi[p] = NAN;
    }
    for (long p = 0; p < (long)mw * mh; p++) m[p] = (int)(lcg_next(&g) % 100) - 30;
#define IN3(x, y, z) ((x) >= 0 && (x) < w && (y) >= 0 && (y) < h && (z) >= 0 && (z) < d)
#define A(x, y, z) (IN3(x, y, z) ? (double)a[((long)(z) * h + (y)) * w + (x)] : 7.0)
#define B(x, y, z) (double)bf[((long)clampi(z, 0, d - 1) * h + clampi(y, 0, h - 1)) * w + clampi(x, 0, w - 1)]
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                ex[p] = A(x, y, z - 1) + 2 * A(x - 1, y + 1, z + 2) + 4 * B(x, y, z + 1) + 8 * B(x, y, z + 3) +
                        16 * m[(long)wrapi(y - 1, mh) * mw + wrapi(x + 1, mw)] + (bias + c[p]);
            }
#undef IN3
#undef A
#undef B
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w > 2 ? "zs_types" : "zs_types (2 x 1 x 3)");
        void *ia = lang_in(L, "a", T_UCHAR, n, a);
        void *ib = lang_in(L, "b", T_FLOAT, n, bf);
        void *ic = lang_in(L, "c", T_SHORT, n, c);
        void *im = lang_in(L, "m", T_INT, (long)mw * mh, m);
        void *o = lang_out(L, "o", T_DOUBLE, n, oi, ex, &sh);
        int rc = CHECK_CALL(b, zs_types, ia, w, h, d, ib, w, h, d, ic, w, h, d, im, mw, mh, o, w, h, d, bias);
        lang_call_end(L, rc, CHECK_STRERROR(b, zs_types, rc), LANG_BUILD_LOG(b, zs_types));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "stream_z");
    test_zs_alias(&L, 7);
    test_zs_alias(&L, 3);
    test_zs_types(&L, 7, 6, 11);
    test_zs_types(&L, 2, 1, 3);
    return lang_finish(&L);
}
