/* Oracle driver of tests/lang/grid_size.imcl: grids from grid_size expressions over
 * scalar parameters, written into outputs of other extents. Every output starts
 * with a pattern the kernel never produces; the points outside the grid must keep
 * it (the wrapper copies such an output in), and writes past the output are dropped
 * (guard bytes). Integers exact; floats exact (inputs multiples of 1/256). */
#include "lang_common.h"

#include "c/gs1.h"
#include "c/gs2.h"
#include "c/gs3.h"
#include "c/gs_lit.h"
#include "c/gs_over.h"
#ifdef CHECK_CUDA
#include "cuda/gs1.h"
#include "cuda/gs2.h"
#include "cuda/gs3.h"
#include "cuda/gs_lit.h"
#include "cuda/gs_over.h"
#else
#include "opencl/gs1.h"
#include "opencl/gs2.h"
#include "opencl/gs3.h"
#include "opencl/gs_lit.h"
#include "opencl/gs_over.h"
#endif

static void test_gs2(Lang *L)
{
    const int w = 37, h = 29, nx = 20, ny = 13;
    const long n = (long)w * h;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = -7 - (int)p;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[y * w + x] = (x < nx && y < ny) ? 1000000 * nx + 10000 * ny + 1000 + 100 * x + y : init[y * w + x];
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "gs2");
        void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, gs2, o, w, h, nx, ny);
        lang_call_end(L, rc, CHECK_STRERROR(b, gs2, rc), LANG_BUILD_LOG(b, gs2));
    }
}

/* An empty grid (an extent 0 or negative) is a no-op that succeeds: the C reference
 * and the CUDA wrapper say so ("an empty grid: nothing to do"); OpenCL must not
 * enqueue a zero-sized NDRange. */
static void test_gs2_empty(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = -7 - (int)p, e[p] = init[p];
    Shape sh = shape2(w, h);
    const int sizes[2][2] = {{0, 13}, {5, -2}};
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 2; b++) {
            lang_call_begin(L, b, k == 0 ? "gs2 (nx = 0)" : "gs2 (ny = -2)");
            void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
            int rc = CHECK_CALL(b, gs2, o, w, h, sizes[k][0], sizes[k][1]);
            lang_call_end(L, rc, CHECK_STRERROR(b, gs2, rc), LANG_BUILD_LOG(b, gs2));
        }
}

static void test_gs3(Lang *L)
{
    const int w = 13, h = 11, d = 9, m = 12, nn = 5; /* grid 11 x 9 x 4 */
    const int gw = 2 * nn + 1, gh = m - 3, gd = (nn + m) / 4;
    const long n = (long)w * h * d;
    float *in = lang_alloc(n, sizeof(float)), *init = lang_alloc(n, sizeof(float));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 31);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8) * 16.0f, init[p] = -1e6f - (float)p;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                if (x < gw && y < gh && z < gd) {
                    float v = x + 1 < w ? in[p + 1] : -1.0f;
                    e[p] = (double)(v * 2 + (float)(gw * 10000 + gh * 100 + gd));
                } else {
                    e[p] = init[p];
                }
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "gs3");
        void *ii = lang_in(L, "in", T_FLOAT, n, in);
        void *o = lang_out(L, "o", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(b, gs3, ii, w, h, d, o, w, h, d, m, nn);
        lang_call_end(L, rc, CHECK_STRERROR(b, gs3, rc), LANG_BUILD_LOG(b, gs3));
    }
}

static void test_gs1(Lang *L)
{
    const int w = 37, h = 3, len = 23;
    const long n = (long)w * h;
    double *init = lang_dalloc(n), *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = -3.25 - (double)p;
    for (long p = 0; p < n; p++) e[p] = (p < len) ? p * 0.5 + 1000 + 100 : init[p];
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "gs1");
        void *o = lang_out(L, "o", T_DOUBLE, n, init, e, &sh);
        int rc = CHECK_CALL(b, gs1, o, w, h, len);
        lang_call_end(L, rc, CHECK_STRERROR(b, gs1, rc), LANG_BUILD_LOG(b, gs1));
    }
}

static void test_gs_over(Lang *L)
{
    const int w = 13, h = 11, d = 3, nx = 13, ny = 11; /* grid 16 x 12 x 2 over 13 x 11 x 3 */
    const long n = (long)w * h * d;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = -1 - (int)p;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                e[p] = z < 2 ? x + 100 * y + 10000 * z : init[p];
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "gs_over");
        void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, gs_over, o, w, h, d, nx, ny);
        lang_call_end(L, rc, CHECK_STRERROR(b, gs_over, rc), LANG_BUILD_LOG(b, gs_over));
    }
}

static void test_gs_lit(Lang *L)
{
    const int w = 7, h = 9, k = 6;
    const long n = (long)w * h;
    short *init = lang_alloc(n, sizeof(short));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) init[p] = (short)(-100 - p);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) e[y * w + x] = (x < 5 && y < k) ? 5 * 100 + k - x - y : init[y * w + x];
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "gs_lit");
        void *o = lang_out(L, "o", T_SHORT, n, init, e, &sh);
        int rc = CHECK_CALL(b, gs_lit, o, w, h, k);
        lang_call_end(L, rc, CHECK_STRERROR(b, gs_lit, rc), LANG_BUILD_LOG(b, gs_lit));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "grid_size");
    test_gs2(&L);
    test_gs2_empty(&L);
    test_gs3(&L);
    test_gs1(&L);
    test_gs_over(&L);
    test_gs_lit(&L);
    return lang_finish(&L);
}
