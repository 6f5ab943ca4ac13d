/* Oracle driver of tests/lang/coarsen_scalars.imcl: every point starts from the
 * scalar arguments as passed (n = 5, f = 1.5), whatever the other points of its
 * thread did to their copies. Points with idx % 4 == 3 return and keep their
 * initial value. Integers exact. */
#include "lang_common.h"

#include "c/cscal.h"
#ifdef CHECK_CUDA
#include "cuda/cscal.h"
#else
#include "opencl/cscal.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "coarsen_scalars");
    const int w = 37, h = 29, n0 = 5;
    const float f0 = 1.5f;
    const long n = (long)w * h;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            init[p] = -1 - (int)p;
            e[p] = x % 4 == 3 ? init[p] : (n0 + x + 10 * y) * 3 + (int)(f0 * 2);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "cscal");
        void *o = lang_out(&L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, cscal, o, w, h, n0, f0);
        lang_call_end(&L, rc, CHECK_STRERROR(b, cscal, rc), LANG_BUILD_LOG(b, cscal));
    }
    return lang_finish(&L);
}
