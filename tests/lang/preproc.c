/* Oracle driver of tests/lang/preproc.imcl: the kernel after the C preprocessor
 * (macros, #include, conditionals, __IMAGECL__); the kernel inside #if 0 must not be
 * generated (preproc.kernels). Floats exact (multiples of 1/256, small weights). */
#include "lang_common.h"

#include "c/preproc.h"
#ifdef CHECK_CUDA
#include "cuda/preproc.h"
#else
#include "opencl/preproc.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "preproc");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float)), *init = lang_alloc(n, sizeof(float));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 121);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8), init[p] = NAN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0;
            for (int d = -2; d <= 2; d++) acc += in[y * w + clampi(x + d, 0, w - 1)] * (float)(d * d);
            e[(long)y * w + x] = acc * 0.25f * 0.5f + 7 + 100 + 1000 + 2 * 10000 + (x % 5 - 2);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "preproc");
        void *ii = lang_in(&L, "in", T_FLOAT, n, in);
        void *o = lang_out(&L, "out", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(b, preproc, ii, w, h, o, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, preproc, rc), LANG_BUILD_LOG(b, preproc));
    }
    return lang_finish(&L);
}
