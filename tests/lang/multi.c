/* Oracle driver of tests/lang/multi.imcl: four kernels of one file, all generated
 * (the runner checks -k too). The headers of every kernel are included side by side,
 * so kernels whose names differ only in case need include guards of their own.
 * Floats exact (multiples of 1/256 times powers of two); integers exact. */
#include "lang_common.h"

#include "c/Blur.h"
#include "c/blur.h"
#include "c/blur2.h"
#include "c/vol.h"
#ifdef CHECK_CUDA
#include "cuda/Blur.h"
#include "cuda/blur.h"
#include "cuda/blur2.h"
#include "cuda/vol.h"
#else
#include "opencl/Blur.h"
#include "opencl/blur.h"
#include "opencl/blur2.h"
#include "opencl/vol.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "multi");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float)), *init = lang_alloc(n, sizeof(float));
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n), *e3 = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 111);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8), init[p] = NAN;
    const float s = 0.25f;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            float l = in[y * w + clampi(x - 1, 0, w - 1)], r = in[y * w + clampi(x + 1, 0, w - 1)];
            e1[p] = l + 2 * in[p] + r * 0.5f;
            e2[p] = s * (in[wrapi(y - 1, h) * w + x] + 2 * in[wrapi(y + 1, h) * w + x]);
            e3[p] = in[p] * 0.5f - 1;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "blur");
        void *ii = lang_in(&L, "in", T_FLOAT, n, in);
        void *o = lang_out(&L, "out", T_FLOAT, n, init, e1, &sh);
        int rc = CHECK_CALL(b, blur, ii, w, h, o, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, blur, rc), LANG_BUILD_LOG(b, blur));

        lang_call_begin(&L, b, "blur2");
        ii = lang_in(&L, "in", T_FLOAT, n, in);
        o = lang_out(&L, "out", T_FLOAT, n, init, e2, &sh);
        rc = CHECK_CALL(b, blur2, ii, w, h, o, w, h, s);
        lang_call_end(&L, rc, CHECK_STRERROR(b, blur2, rc), LANG_BUILD_LOG(b, blur2));

        lang_call_begin(&L, b, "Blur");
        ii = lang_in(&L, "in", T_FLOAT, n, in);
        o = lang_out(&L, "out", T_FLOAT, n, init, e3, &sh);
        rc = CHECK_CALL(b, Blur, ii, w, h, o, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, Blur, rc), LANG_BUILD_LOG(b, Blur));
    }
    const int bw = 13, bh = 11, bd = 9;
    const long nb = (long)bw * bh * bd;
    int *a = lang_alloc(nb, sizeof(int)), *binit = lang_alloc(nb, sizeof(int));
    double *eb = lang_dalloc(nb);
    for (long p = 0; p < nb; p++) a[p] = (int)(p % 1000) - 500, binit[p] = INT_MIN, eb[p] = a[p] * 3 + p / (bw * bh);
    Shape sb = shape3(bw, bh, bd);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "vol");
        void *ia = lang_in(&L, "a", T_INT, nb, a);
        void *ob = lang_out(&L, "b", T_INT, nb, binit, eb, &sb);
        int rc = CHECK_CALL(b, vol, ia, bw, bh, bd, ob, bw, bh, bd);
        lang_call_end(&L, rc, CHECK_STRERROR(b, vol, rc), LANG_BUILD_LOG(b, vol));
    }
    return lang_finish(&L);
}
