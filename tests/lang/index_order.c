/* Oracle driver of tests/lang/index_order.imcl: the kernels' meaning written in C
 * with C's own subscripts, as the pragma promises.
 *   ioc3: out[k][j][i] = (in[k-1][j][i] + in[k][j-1][i] + in[k][j][i-1] + in[k][j][i]
 *         + in[k][j][i+1] + in[k][j+1][i] + in[k+1][j][i] + 2 in[k][j][i+1]) / 7, halo 1;
 *   ioc2: b[y][x] = w[0][2] a[y][clamp(x+2)] + w[1][0] a[clamp(y-1)][x] + 1000 W + H.
 * Grids 9 x 7 x 5 and 13 x 6; integers exact, doubles within 1e-12. */
#include "lang_common.h"

#include "c/ioc2.h"
#include "c/ioc3.h"
#ifdef CHECK_CUDA
#include "cuda/ioc2.h"
#include "cuda/ioc3.h"
#else
#include "opencl/ioc2.h"
#include "opencl/ioc3.h"
#endif

static void test_ioc3(Lang *L, int w, int h, int d)
{
    const int W = w + 2, H = h + 2, D = d + 2;
    const long n = (long)W * H * D;
    double *in = lang_dalloc(n), *oi = lang_dalloc(n), *ex = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 701);
    for (long p = 0; p < n; p++)
        in[p] = lcg_quantized(&g, 8), oi[p] = -1.5 - (double)p, ex[p] = oi[p];
#define IN(k, j, i) in[((long)(k) * H + (j)) * W + (i)]
    for (int k = 1; k <= d; k++)
        for (int j = 1; j <= h; j++)
            for (int i = 1; i <= w; i++)
                ex[((long)k * H + j) * W + i] = (IN(k - 1, j, i) + IN(k, j - 1, i) + IN(k, j, i - 1) + IN(k, j, i) +
                                                 IN(k, j, i + 1) + IN(k, j + 1, i) + IN(k + 1, j, i) +
                                                 2 * IN(k, j, i + 1)) / 7.0;
#undef IN
    Shape sh = shape3(W, H, D);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "ioc3");
        void *i0 = lang_in(L, "in", T_DOUBLE, n, in);
        void *o = lang_out(L, "out", T_DOUBLE, n, oi, ex, &sh);
        int rc = CHECK_CALL(b, ioc3, i0, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, ioc3, rc), LANG_BUILD_LOG(b, ioc3));
    }
}

static void test_ioc2(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    int *a = lang_alloc(n, sizeof(int)), *bi = lang_alloc(n, sizeof(int));
    double *ex = lang_dalloc(n);
    int wt[2][3] = {{1, 2, 3}, {4, 5, 6}};
    Lcg g;
    lcg_seed(&g, 702);
    for (long p = 0; p < n; p++)
        a[p] = (int)(lcg_next(&g) % 100) - 40, bi[p] = INT_MIN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            ex[(long)y * w + x] = wt[0][2] * a[(long)y * w + clampi(x + 2, 0, w - 1)] +
                                  wt[1][0] * a[(long)clampi(y - 1, 0, h - 1) * w + x] + w * 1000 + h;
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "ioc2");
        void *ia = lang_in(L, "a", T_INT, n, a);
        void *ob = lang_out(L, "b", T_INT, n, bi, ex, &sh);
        void *iw = lang_in(L, "w", T_INT, 6, wt);
        int rc = CHECK_CALL(b, ioc2, ia, w, h, ob, w, h, iw);
        lang_call_end(L, rc, CHECK_STRERROR(b, ioc2, rc), LANG_BUILD_LOG(b, ioc2));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "index_order");
    test_ioc3(&L, 9, 7, 5);
    test_ioc2(&L, 13, 6);
    return lang_finish(&L);
}
