/* Oracle driver of tests/lang/unused_locals.imcl: kernels full of dead locals and
 * dead stores, whose live values (some live on one path only) must come out as the
 * same code without them computes. The oracle is that code, written in C. Clamped
 * and constant(1.5) boundaries; floats are multiples of 1/256 (exact sums), doubles
 * multiples of 1/256 as well. */
#include "lang_common.h"

#include "c/dc_loops.h"
#include "c/dc_paths.h"
#ifdef CHECK_CUDA
#include "cuda/dc_loops.h"
#include "cuda/dc_paths.h"
#else
#include "opencl/dc_loops.h"
#include "opencl/dc_paths.h"
#endif

static void test_paths(Lang *L, int w, int h, int n)
{
    const long np = (long)w * h;
    float *in = lang_alloc(np, sizeof(float)), *oinit = lang_alloc(np, sizeof(float));
    int *cinit = lang_alloc(np, sizeof(int));
    double *eo = lang_dalloc(np), *ec = lang_dalloc(np);
    Lcg g;
    lcg_seed(&g, 1801);
    for (long p = 0; p < np; p++) {
        in[p] = lcg_quantized(&g, 8);
        oinit[p] = NAN;
        cinit[p] = -7777;
    }
#define IN(x, y) in[(long)clampi((y), 0, h - 1) * w + clampi((x), 0, w - 1)]
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float v = x % 2 == 0 ? IN(x - 1, y) : IN(x + 1, y) * 2.0f;
            int c = 0;
            for (int i = 0; i < n; i++)
                if (IN(x, y - i) > 0.5f)
                    c++;
            float wv = n > 3 ? v + 1.0f : v;
            long p = (long)y * w + x;
            if (y % 3 == 0) {
                eo[p] = wv;
                ec[p] = c;
            } else {
                eo[p] = wv * 0.5f + (float)(2 * c);
                ec[p] = -c;
            }
        }
#undef IN
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "dc_paths");
        void *i = lang_in(L, "in", T_FLOAT, np, in);
        void *o = lang_out(L, "out", T_FLOAT, np, oinit, eo, &sh);
        void *c = lang_out(L, "cnt", T_INT, np, cinit, ec, &sh);
        int rc = CHECK_CALL(b, dc_paths, i, w, h, o, w, h, c, w, h, n);
        lang_call_end(L, rc, CHECK_STRERROR(b, dc_paths, rc), LANG_BUILD_LOG(b, dc_paths));
    }
}

static void test_loops(Lang *L, int w, int h, int d)
{
    const long np = (long)w * h * d;
    double *a = lang_dalloc(np), *binit = lang_dalloc(np), *e = lang_dalloc(np);
    Lcg g;
    lcg_seed(&g, 1802);
    for (long p = 0; p < np; p++) {
        a[p] = lcg_quantized(&g, 8);
        binit[p] = NAN;
    }
#define A(x, y, z) ((x) < 0 || (x) >= w || (y) < 0 || (y) >= h || (z) < 0 || (z) >= d \
                    ? 1.5 : a[((long)(z) * h + (y)) * w + (x)])
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double s = 0.0;
                for (int k = 1; k <= 4; k++)
                    if (A(x, y, z + k) <= 0.75)
                        s += A(x, y, z + k);
                e[((long)z * h + y) * w + x] = s + A(x + 2, y, z) + (x + y);
            }
#undef A
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "dc_loops");
        void *ia = lang_in(L, "a", T_DOUBLE, np, a);
        void *ob = lang_out(L, "b", T_DOUBLE, np, binit, e, &sh);
        int rc = CHECK_CALL(b, dc_loops, ia, w, h, d, ob, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, dc_loops, rc), LANG_BUILD_LOG(b, dc_loops));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "unused_locals");
    test_paths(&L, 37, 29, 2);
    test_paths(&L, 37, 29, 5);
    test_paths(&L, 5, 3, 4);
    test_loops(&L, 13, 11, 9);
    test_loops(&L, 2, 1, 3);
    return lang_finish(&L);
}
