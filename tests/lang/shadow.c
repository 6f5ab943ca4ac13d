/* Oracle driver of tests/lang/shadow.imcl: calls of helpers and math functions whose
 * names are also variables in scope. Floats exact; the double terms sqrt(4) and
 * exp(0.5) within 1e-12. */
#include "lang_common.h"

#include "c/shadow.h"
#ifdef CHECK_CUDA
#include "cuda/shadow.h"
#else
#include "opencl/shadow.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "shadow");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float));
    double *init = lang_dalloc(n), *e = lang_dalloc(n);
    const float twice = 1.25f;
    for (long p = 0; p < n; p++) {
        in[p] = (float)(p % 256) / 256.0f, init[p] = NAN;
        e[p] = (double)(in[p] + 2 * 3.0f) + sqrt(4.0) + exp(0.5) + (double)(twice * 2);
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "shadow");
        void *pi = lang_in(&L, "in", T_FLOAT, n, in);
        void *po = lang_out(&L, "out", T_DOUBLE, n, init, e, &sh);
        int rc = CHECK_CALL(b, shadow, pi, w, h, po, w, h, twice);
        lang_call_end(&L, rc, CHECK_STRERROR(b, shadow, rc), LANG_BUILD_LOG(b, shadow));
    }
    return lang_finish(&L);
}
