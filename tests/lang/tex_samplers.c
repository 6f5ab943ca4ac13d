/* Oracle driver of tests/lang/tex_samplers.imcl: images read through different
 * samplers under branches. The oracle applies each boundary condition itself:
 * constant 0 (a), clamped (b), periodic (c), constant 7 (d). Floats are multiples
 * of 1/256 and doubles of 1/1024 (every sum exact). */
#include "lang_common.h"

#include "c/ts_block.h"
#include "c/ts_branch.h"
#include "c/ts_paths.h"
#ifdef CHECK_CUDA
#include "cuda/ts_block.h"
#include "cuda/ts_branch.h"
#include "cuda/ts_paths.h"
#else
#include "opencl/ts_block.h"
#include "opencl/ts_branch.h"
#include "opencl/ts_paths.h"
#endif

static int in2(int x, int y, int w, int h) { return x >= 0 && x < w && y >= 0 && y < h; }
static long at2(int x, int y, int w) { return (long)y * w + x; }

static void test_branch(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 181);
    float *a = lang_alloc(n, sizeof(float)), *b = lang_alloc(n, sizeof(float));
    float *init = lang_alloc(n, sizeof(float));
    for (long i = 0; i < n; i++) {
        a[i] = lcg_quantized(&g, 8);
        b[i] = -lcg_quantized(&g, 8);
        init[i] = NAN;
    }
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[at2(x, y, w)] = x > 1 ? a[at2(x, y, w)] : b[at2(x, y, w)];
    Shape sh = shape2(w, h);
    for (int k = 0; k < 2; k++) {
        lang_call_begin(L, k, "ts_branch");
        void *ia = lang_in(L, "a", T_FLOAT, n, a), *ib = lang_in(L, "b", T_FLOAT, n, b);
        void *o = lang_out(L, "o", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(k, ts_branch, ia, w, h, ib, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(k, ts_branch, rc), LANG_BUILD_LOG(k, ts_branch));
    }
}

static void test_paths(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 182);
    int *a = lang_alloc(n, sizeof(int)), *b = lang_alloc(n, sizeof(int));
    int *c = lang_alloc(n, sizeof(int)), *d = lang_alloc(n, sizeof(int));
    int *init = lang_alloc(n, sizeof(int));
    for (long i = 0; i < n; i++) {
        a[i] = (int)(lcg_next(&g) % 90) + 1;
        b[i] = (int)(lcg_next(&g) % 90) + 1;
        c[i] = (int)(lcg_next(&g) % 90) + 1;
        d[i] = (int)(lcg_next(&g) % 90) + 1;
        init[i] = INT_MIN;
    }
#define A(x, y) (in2(x, y, w, h) ? a[at2(x, y, w)] : 0)
#define B(x, y) b[at2(clampi(x, 0, w - 1), clampi(y, 0, h - 1), w)]
#define C(x, y) c[at2(wrapi(x, w), wrapi(y, h), w)]
#define D(x, y) (in2(x, y, w, h) ? d[at2(x, y, w)] : 7)
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = x % 3 == 0 ? A(x - 2, y + 1) : x % 3 == 1 ? 10 * B(x + 2, y - 1)
                  : 100 * C(x - 1, y + 2) + D(x + 1, y + 1);
            for (int i = 0; i < 3; i++)
                if (y > i)
                    v += A(x, y - i) - 3 * B(x + i, y);
            e[at2(x, y, w)] = v;
        }
#undef A
#undef B
#undef C
#undef D
    Shape sh = shape2(w, h);
    for (int k = 0; k < 2; k++) {
        lang_call_begin(L, k, w < 3 ? "ts_paths (tiny)" : "ts_paths");
        void *ia = lang_in(L, "a", T_INT, n, a), *ib = lang_in(L, "b", T_INT, n, b);
        void *ic = lang_in(L, "c", T_INT, n, c), *id = lang_in(L, "d", T_INT, n, d);
        void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(k, ts_paths, ia, w, h, ib, w, h, ic, w, h, id, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(k, ts_paths, rc), LANG_BUILD_LOG(k, ts_paths));
    }
}

static void test_block(Lang *L, int w, int h, int dd)
{
    const long n = (long)w * h * dd;
    Lcg g;
    lcg_seed(&g, 183);
    double *a = lang_dalloc(n), *b = lang_dalloc(n), *init = lang_dalloc(n);
    for (long i = 0; i < n; i++) {
        a[i] = (double)(lcg_next(&g) % 4096) / 1024.0;
        b[i] = -(double)(lcg_next(&g) % 4096) / 1024.0;
        init[i] = NAN;
    }
#define AT(x, y, z) (((long)(z) * h + (y)) * w + (x))
#define A(x, y, z) (x >= 0 && x < w && y >= 0 && y < h && z >= 0 && z < dd ? a[AT(x, y, z)] : 0.0)
#define B(x, y, z) b[AT(clampi(x, 0, w - 1), clampi(y, 0, h - 1), clampi(z, 0, dd - 1))]
    double *e = lang_dalloc(n);
    for (int z = 0; z < dd; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double v = z > 0 ? A(x + 1, y, z - 1) : B(x, y - 1, z + 1);
                if (x == y)
                    v = v + 0.5 * B(x - 1, y + 1, z);
                e[AT(x, y, z)] = v;
            }
#undef AT
#undef A
#undef B
    Shape sh = shape3(w, h, dd);
    for (int k = 0; k < 2; k++) {
        lang_call_begin(L, k, "ts_block");
        void *ia = lang_in(L, "a", T_DOUBLE, n, a), *ib = lang_in(L, "b", T_DOUBLE, n, b);
        void *o = lang_out(L, "o", T_DOUBLE, n, init, e, &sh);
        int rc = CHECK_CALL(k, ts_block, ia, w, h, dd, ib, w, h, dd, o, w, h, dd);
        lang_call_end(L, rc, CHECK_STRERROR(k, ts_block, rc), LANG_BUILD_LOG(k, ts_block));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "tex_samplers");
    test_branch(&L, 37, 29);
    test_paths(&L, 31, 17);
    test_paths(&L, 2, 3);
    test_block(&L, 13, 11, 7);
    return lang_finish(&L);
}
