/* Oracle driver of tests/lang/extents.imcl: W, H, D (D is 1 for an Image grid), the
 * extents of arrays that are not the grid's, interior extents of a halo array, and
 * grid extents in index arithmetic. All values exact in double / int. */
#include "lang_common.h"

#include "c/ext2.h"
#include "c/ext3.h"
#ifdef CHECK_CUDA
#include "cuda/ext2.h"
#include "cuda/ext3.h"
#else
#include "opencl/ext2.h"
#include "opencl/ext3.h"
#endif

static void test_ext2(Lang *L)
{
    const int w = 37, h = 29, bw = 5, bh = 3;
    const long n = (long)w * h;
    float *a = lang_alloc(n, sizeof(float));
    unsigned char *bb = lang_alloc(bw * bh, 1);
    double *init = lang_dalloc(n), *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) a[p] = (float)(p % 11), init[p] = NAN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[y * w + x] = w + h * 100.0 + 10000.0 + bw * 1e6 + bh * 1e8 + w * 1e10 + h * 1e12 +
                           a[(h - 1 - y) * w + (w - 1 - x)] * 1e14;
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "ext2");
        void *ia = lang_in(L, "a", T_FLOAT, n, a);
        void *ib = lang_in(L, "b", T_UCHAR, bw * bh, bb);
        void *o = lang_out(L, "out", T_DOUBLE, n, init, e, &sh);
        int rc = CHECK_CALL(b, ext2, ia, w, h, ib, bw, bh, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, ext2, rc), LANG_BUILD_LOG(b, ext2));
    }
}

static void test_ext3(Lang *L)
{
    const int w = 13, h = 11, d = 9, bw = 2, bh = 3, bd = 4, cw = 3, ch = 2, cd = 1;
    const long n = (long)w * h * d;
    const long nc = (long)(cw + 4) * (ch + 4) * (cd + 4);
    int *a = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    short *bb = lang_alloc(bw * bh * bd, sizeof(short));
    signed char *c = lang_alloc(nc, 1);
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) a[p] = (int)(p * 7919 % 100003), init[p] = INT_MIN;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                e[p] = (x == 0 && y == 0) ? bw + 10 * bh + 100 * bd + 1000 * cw + 10000 * ch + 100000 * cd + 1000000 * d
                                          : a[((long)(d - 1 - z) * h + (h - 1 - y)) * w + (w - 1 - x)];
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "ext3");
        void *ia = lang_in(L, "a", T_INT, n, a);
        void *ib = lang_in(L, "b", T_SHORT, bw * bh * bd, bb);
        void *ic = lang_in(L, "c", T_CHAR, nc, c);
        void *o = lang_out(L, "out", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, ext3, ia, w, h, d, ib, bw, bh, bd, ic, cw, ch, cd, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, ext3, rc), LANG_BUILD_LOG(b, ext3));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "extents");
    test_ext2(&L);
    test_ext3(&L);
    return lang_finish(&L);
}
