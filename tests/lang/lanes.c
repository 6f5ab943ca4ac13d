/* Oracle driver of tests/lang/lanes.imcl: loops over taps that the C reference runs in
 * lanes (lbox: 49 taps; lvar: a radius given at run time) and one it leaves as it is
 * (lmixed: a trip count that depends on the point), and a small 3D box whose rows near
 * an edge in y or z run in lanes (ledge: periodic and constant(3) inputs). The oracles are the
 * kernels' meaning per point, in C; rows of 5, 40 and 300 points (a chunk is 256), and
 * grids with no inner point. lbox and lmixed are integer (exact); lvar sums in float in
 * the kernel's order. */
#include "lang_common.h"

#include "c/lbox.h"
#include "c/ledge.h"
#include "c/lmixed.h"
#include "c/lvar.h"
#ifdef CHECK_CUDA
#include "cuda/lbox.h"
#include "cuda/ledge.h"
#include "cuda/lmixed.h"
#include "cuda/lvar.h"
#else
#include "opencl/lbox.h"
#include "opencl/ledge.h"
#include "opencl/lmixed.h"
#include "opencl/lvar.h"
#endif

static void test_lbox(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *out = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 301 + (uint64_t)w);
    for (long p = 0; p < n; p++)
        in[p] = (int)(lcg_next(&g) % 200) - 100, out[p] = INT_MIN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int acc = x % 5;
            for (int j = -3; j <= 3; j++) {
                int row = 0;
                for (int i = -3; i <= 3; i++) {
                    int xx = x + i, yy = y + j;
                    int v = xx < 0 || yy < 0 || xx >= w || yy >= h ? 2 : in[(long)yy * w + xx];
                    row += (i + 4 * j + 17) * v;
                }
                acc += row * (j + 5);
            }
            e[(long)y * w + x] = acc - y;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "lbox");
        void *i0 = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "out", T_INT, n, out, e, &sh);
        int rc = CHECK_CALL(b, lbox, i0, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, lbox, rc), LANG_BUILD_LOG(b, lbox));
    }
}

static void test_lvar(Lang *L, int w, int h, int d, int r)
{
    const long n = (long)w * h * d;
    float *in = lang_alloc(n, sizeof(float)), *out = lang_alloc(n, sizeof(float));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 401 + (uint64_t)(w + r));
    for (long p = 0; p < n; p++)
        in[p] = (float)(lcg_next(&g) % 1024) / 256.0f, out[p] = -1e30f;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float acc = 0.0f;
                for (int k = -r; k <= r; k++) {
                    float plane = 0.0f;
                    for (int j = -r; j <= r; j++)
                        for (int i = -r; i <= r; i++)
                            plane += in[((long)clampi(z + k, 0, d - 1) * h + clampi(y + j, 0, h - 1)) * w +
                                        clampi(x + i, 0, w - 1)];
                    acc += plane * (float)(k + r + 1);
                }
                e[((long)z * h + y) * w + x] = acc;
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "lvar");
        void *i0 = lang_in(L, "in", T_FLOAT, n, in);
        void *o = lang_out(L, "out", T_FLOAT, n, out, e, &sh);
        int rc = CHECK_CALL(b, lvar, i0, w, h, d, o, w, h, d, r);
        lang_call_end(L, rc, CHECK_STRERROR(b, lvar, rc), LANG_BUILD_LOG(b, lvar));
    }
}

static void test_lmixed(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *out = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 501 + (uint64_t)w);
    for (long p = 0; p < n; p++)
        in[p] = (int)(lcg_next(&g) % 100), out[p] = INT_MIN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int s = 0;
            for (int j = -2; j <= 2; j++)
                for (int i = 0; i < x % 4 + 30; i++)
                    s += in[(long)mirrori(y + j, h) * w + mirrori(x + i - 30, w)] * (i % 3 + 1);
            e[(long)y * w + x] = s;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "lmixed");
        void *i0 = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "out", T_INT, n, out, e, &sh);
        int rc = CHECK_CALL(b, lmixed, i0, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, lmixed, rc), LANG_BUILD_LOG(b, lmixed));
    }
}

static void test_ledge(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    int *a = lang_alloc(n, sizeof(int)), *bb = lang_alloc(n, sizeof(int));
    int *out = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 601 + (uint64_t)(w * h));
    for (long p = 0; p < n; p++)
        a[p] = (int)(lcg_next(&g) % 50) - 25, bb[p] = (int)(lcg_next(&g) % 40), out[p] = INT_MIN;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int acc = z;
                for (int k = -1; k <= 1; k++)
                    for (int j = -1; j <= 1; j++)
                        for (int i = -1; i <= 1; i++) {
                            int xb = x + 2 * i, yb = y + j, zb = z + 2 * k;
                            int vb = xb < 0 || yb < 0 || zb < 0 || xb >= w || yb >= h || zb >= d
                                             ? 3
                                             : bb[((long)zb * h + yb) * w + xb];
                            acc += (i + 3 * j + 9 * k + 14) *
                                           a[((long)wrapi(z + k, d) * h + wrapi(y + j, h)) * w +
                                             wrapi(x + i, w)] -
                                   vb;
                        }
                e[((long)z * h + y) * w + x] = acc;
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "ledge");
        void *ia = lang_in(L, "a", T_INT, n, a);
        void *ib = lang_in(L, "b", T_INT, n, bb);
        void *o = lang_out(L, "out", T_INT, n, out, e, &sh);
        int rc = CHECK_CALL(b, ledge, ia, w, h, d, ib, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, ledge, rc), LANG_BUILD_LOG(b, ledge));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "lanes");
    test_lbox(&L, 300, 9);
    test_lbox(&L, 40, 8);
    test_lbox(&L, 5, 5);
    test_lvar(&L, 270, 5, 6, 1);
    test_lvar(&L, 30, 9, 8, 2);
    test_lvar(&L, 9, 9, 9, 3);
    test_lmixed(&L, 300, 6);
    test_lmixed(&L, 37, 5);
    test_ledge(&L, 300, 4, 5);
    test_ledge(&L, 17, 6, 3);
    test_ledge(&L, 4, 3, 7);
    test_ledge(&L, 1, 1, 1);
    return lang_finish(&L);
}
