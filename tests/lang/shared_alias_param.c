/* Oracle driver of tests/lang/shared_alias_param.imcl: `in` holds h + 2 rows of
 * width w; the wrapper is given off = w, the body doubles it, so the alias starts
 * two rows down. Reads past the right edge give the constant -1. Integers exact. */
#include "shared_common.h"

#include "c/sparam.h"
#ifdef CHECK_CUDA
#include "cuda/sparam.h"
#else
#include "opencl/sparam.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "shared_alias_param");
    const int w = 37, h = 29, ih = h + 2;
    const long n = (long)w * h, ni = (long)w * ih;
    int *in = lang_alloc(ni, sizeof(int));
    for (long i = 0; i < ni; i++) in[i] = (int)(i % 97);
    Arr As = arr2(B_CONST, -1, T_INT, in, w, ih, 0);
    As.off = 2L * w;
    int *io = unset_arr(T_INT, n);
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) e[(long)y * w + x] = rd2(&As, x, y) + 1000 * rd2(&As, x + 1, y);
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "sparam");
        void *ii = lang_in(&L, "in", T_INT, ni, in);
        void *o = lang_out(&L, "out", T_INT, n, io, e, &sh);
        int rc = CHECK_CALL(b, sparam, ii, w, ih, o, w, h, w, h, w);
        lang_call_end(&L, rc, CHECK_STRERROR(b, sparam, rc), LANG_BUILD_LOG(b, sparam));
    }
    return lang_finish(&L);
}
