/* Oracle driver of tests/lang/helper_names.imcl: user helpers named like library
 * functions of C, OpenCL C and CUDA. The oracle applies the helpers' own (simple)
 * definitions. Floats: inputs are multiples of 1/256 in [-1, 1), every term is exact
 * in float; integers exact. */
#include "lang_common.h"

#include "c/helper_names.h"
#ifdef CHECK_CUDA
#include "cuda/helper_names.h"
#else
#include "opencl/helper_names.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "helper_names");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float)), *fi = lang_alloc(n, sizeof(float));
    int *ii = lang_alloc(n, sizeof(int));
    double *ef = lang_dalloc(n), *ei = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 141);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            float v = lcg_quantized(&g, 8) * 2 - 1;
            in[p] = v, fi[p] = NAN, ii[p] = INT_MIN;
            ef[p] = (double)(v * 2 + (v + 1) + (v - 1) + (v > 0 ? 1.0f : -1.0f) + (v + (2 - v) * 0.5f) +
                             (v < 0.5f ? 0.0f : 1.0f) + v * 3 + v * 3 + (v * 2 - 1) + (v - 0.5f) + x * 0.25f + v * 4 +
                             (v - 3) + (v > 1 ? 1.0f : v) + (v + 2)) +
                    (double)v * 2;
            ei[p] = (x / 2 + 1000) + ((x & 1) ? x : y) + (y + 7) + x * 5 + (y - 3);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "helper_names");
        void *pi = lang_in(&L, "in", T_FLOAT, n, in);
        void *of = lang_out(&L, "out", T_FLOAT, n, fi, ef, &sh);
        void *oi = lang_out(&L, "oi", T_INT, n, ii, ei, &sh);
        int rc = CHECK_CALL(b, helper_names, pi, w, h, of, w, h, oi, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, helper_names, rc), LANG_BUILD_LOG(b, helper_names));
    }
    return lang_finish(&L);
}
