/* Oracle driver of tests/lang/odd_path.imcl (compiled from an oddly named folder,
 * see odd_path.srcdir): o = 2a + 1. Integers exact. */
#include "lang_common.h"

#include "c/odd_path.h"
#ifdef CHECK_CUDA
#include "cuda/odd_path.h"
#else
#include "opencl/odd_path.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "odd_path");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *a = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long p = 0; p < n; p++) a[p] = (int)p - 500, init[p] = INT_MIN, e[p] = 2.0 * a[p] + 1;
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "odd_path");
        void *pa = lang_in(&L, "a", T_INT, n, a);
        void *po = lang_out(&L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, odd_path, pa, w, h, po, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, odd_path, rc), LANG_BUILD_LOG(b, odd_path));
    }
    return lang_finish(&L);
}
