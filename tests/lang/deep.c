/* Oracle driver of tests/lang/deep.imcl: a 600-term sum, a 195-deep right-nested
 * difference, a 100-deep ?: chain. Integers exact (no overflow: a <= 120). */
#include "lang_common.h"

#include "c/deep.h"
#ifdef CHECK_CUDA
#include "cuda/deep.h"
#else
#include "opencl/deep.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "deep");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *a = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n), *e3 = lang_dalloc(n);
    for (long p = 0; p < n; p++) {
        int v = (int)(p * 37 % 121);
        a[p] = v, init[p] = INT_MIN;
        long s = 0;
        for (int i = 0; i < 600; i++) s += (long)v * (i % 7 + 1);
        e1[p] = (double)s;
        long r = v;
        for (int i = 0; i < 195; i++) r = (long)v * (i % 5 + 1) - r;
        e2[p] = (double)r;
        int t = 0;
        for (int i = 0; i < 100; i++) t = v > i ? i : t;
        e3[p] = t;
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "deep");
        void *ia = lang_in(&L, "a", T_INT, n, a);
        void *o1 = lang_out(&L, "o1", T_INT, n, init, e1, &sh);
        void *o2 = lang_out(&L, "o2", T_INT, n, init, e2, &sh);
        void *o3 = lang_out(&L, "o3", T_INT, n, init, e3, &sh);
        int rc = CHECK_CALL(b, deep, ia, w, h, o1, w, h, o2, w, h, o3, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, deep, rc), LANG_BUILD_LOG(b, deep));
    }
    return lang_finish(&L);
}
