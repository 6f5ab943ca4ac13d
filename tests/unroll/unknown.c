/* Oracle driver of tests/unroll/unknown.imcl: the same loops written in plain C,
 * with the kernel's boundary (reads outside give 7). Every configuration of
 * unknown.params must give these results exactly (integers), from the C reference
 * (never unrolled) and from the OpenCL or CUDA kernel (unrolled as the
 * configuration says). */
#include "../lang/lang_common.h"

#include "c/unknown.h"
#ifdef CHECK_CUDA
#include "cuda/unknown.h"
#else
#include "opencl/unknown.h"
#endif

static int unknown_point(const int *in, int w, int h, int x, int y, int n)
{
#define IN(X, Y) ((X) >= 0 && (X) < w && (Y) >= 0 && (Y) < h ? in[(long)(Y) * w + (X)] : 7)
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc += i * IN(x, y) + 1;
    for (int i = n; i >= -n; i -= 3)
        acc = (acc * 7 + i) % 1000003;
    for (int u = x % 9; u > 0; u--)
        acc += u * 3;
    for (int c = -3; c <= 3; c += 2)
        acc += c * IN(x + c, y);
    for (int i = 0; i < IN(x, y) % 6; i++) {
        int v = i * i;
        for (int k = 0; k < 10 && k <= i + 2; k++)
            if (k != i)
                v += k;
        acc += v;
    }
    for (int a = 0; a < 4; a++)
        for (int b = y % 5; b > 0; b -= 2)
            acc += a * 10 + b;
    return acc;
#undef IN
}

static void test_unknown(Lang *L, int w, int h, int nn, int seed)
{
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, (uint64_t)seed);
    for (long p = 0; p < n; p++) in[p] = (int)(lcg_next(&g) % 101) - 50, init[p] = INT_MIN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) e[(long)y * w + x] = unknown_point(in, w, h, x, y, nn);
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "unknown");
        void *ii = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "out", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, unknown, ii, w, h, o, w, h, nn);
        lang_call_end(L, rc, CHECK_STRERROR(b, unknown, rc), LANG_BUILD_LOG(b, unknown));
    }
    free(in), free(init), free(e);
}

int main(void)
{
    Lang L;
    lang_begin(&L, "unroll unknown");
    /* n from below zero to past every factor: the remainder loops run 0 to 7 times */
    static const int ns[] = {-2, 0, 1, 2, 3, 5, 8, 13};
    for (int i = 0; i < (int)(sizeof ns / sizeof ns[0]); i++)
        test_unknown(&L, 37, 29, ns[i], 90 + i);
    test_unknown(&L, 4, 3, 6, 99);
    return lang_finish(&L);
}
