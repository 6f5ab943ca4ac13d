/* Oracle driver of tests/unroll/known.imcl: the same loops written in plain C, with
 * the kernel's clamped boundary. Every configuration of known.params must
 * give these results exactly (integers), from the C reference (never unrolled) and
 * from the OpenCL or CUDA kernel (unrolled as the configuration says). */
#include "../lang/lang_common.h"

#include "c/known.h"
#ifdef CHECK_CUDA
#include "cuda/known.h"
#else
#include "opencl/known.h"
#endif

static int known_point(const int *in, int w, int h, int x, int y)
{
#define IN(X, Y) in[(long)clampi((Y), 0, h - 1) * w + clampi((X), 0, w - 1)]
    int acc = 0;
    for (int i = 0; i < 16; i++)
        acc += (i + 1) * IN(x + i % 3 - 1, y);
    for (int i = 10; i >= -4; i -= 2)
        acc += i * IN(x, y + i / 4);
    int j;
    for (j = 1; j <= 7; j++)
        acc = (acc * 31 + j) % 100003;
    acc += 1000 * j;
    for (int i = 20; i > 5; i--)
        acc += i * (i - 3) * IN(x - 1, y + 1);
    for (int i = 0; i < 3; i++)
        for (int k = -2; k <= 2; k++)
            acc += (i * 5 + k) * IN(x + k, y + i);
    for (int i = 0; i < 100; i++)
        acc += i % 7 == 0 ? IN(x, y) : 1;
    for (int u = 1; u <= 9; u += 2)
        acc += u * u * IN(x + 1, y);
    return acc + (0 + 2 + 4) * 100000;
#undef IN
}

static void test_known(Lang *L, int w, int h, int seed)
{
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, (uint64_t)seed);
    for (long p = 0; p < n; p++) in[p] = (int)(lcg_next(&g) % 101) - 50, init[p] = INT_MIN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) e[(long)y * w + x] = known_point(in, w, h, x, y);
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "known");
        void *ii = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "out", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, known, ii, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, known, rc), LANG_BUILD_LOG(b, known));
    }
    free(in), free(init), free(e);
}

int main(void)
{
    Lang L;
    lang_begin(&L, "unroll known");
    test_known(&L, 37, 29, 81);
    test_known(&L, 4, 3, 82);
    return lang_finish(&L);
}
