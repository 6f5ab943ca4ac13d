/* Oracle driver of tests/lang/reserved.imcl: parameters and locals named with
 * keywords and built-ins of OpenCL C, CUDA, C++ and C, and with libm functions the
 * backends call. The wrapper's scalar order is the declaration order:
 * kernel, half, new, this, class, template, ... (see reserved.imcl).
 * Floats: inputs are multiples of 1/4 below 5; sqrt is within the float tolerance
 * (1e-5) of the oracle's. */
#include "lang_common.h"

#include "c/reserved.h"
#ifdef CHECK_CUDA
#include "cuda/reserved.h"
#else
#include "opencl/reserved.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "reserved");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *gl = lang_alloc(n, sizeof(float)), *pr = lang_alloc(n, sizeof(float));
    float *init = lang_alloc(n, sizeof(float));
    int *cn = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 131);
    for (long p = 0; p < n; p++) {
        gl[p] = 1.0f + (float)(lcg_next(&g) % 8) / 4.0f;
        pr[p] = (float)(lcg_next(&g) % 8) / 4.0f;
        cn[p] = (int)(lcg_next(&g) % 100);
        init[p] = NAN;
    }
    const float half = 0.5f;
    const double klass = 0.25;
    const int s = 193; /* the sum of the int scalars passed below */
    const int t = 1953; /* 1 + 2 + ... + 62 */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float v = gl[y * w + clampi(x + 1, 0, w - 1)] + pr[y * w + x];
            double m = (double)(sqrtf(v) * 2 + fabsf(-v) * 3 + floorf(v) * 4 + 1.0f * 5 + v * 6) + 7 + 8 +
                       (double)(v < 1.5f ? v : 1.5f) + (double)(v > 0.5f ? v : 0.5f);
            e[(long)y * w + x] = (double)(float)(m + (double)(half * (float)s) + klass * t +
                                                 cn[mirrori(y + 1, h) * w + mirrori(x - 1, w)]);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "reserved");
        void *ig = lang_in(&L, "global", T_FLOAT, n, gl);
        void *ol = lang_out(&L, "local", T_FLOAT, n, init, e, &sh);
        void *ic = lang_in(&L, "constant", T_INT, n, cn);
        void *ip = lang_in(&L, "private", T_FLOAT, n, pr);
        int rc = CHECK_CALL(b, reserved, ig, w, h, ol, w, h, ic, w, h, ip, w, h, 1, half, 8, 2, klass, 9, 3, 10, 4, 11, 5, 12, 6, 13, 7, 1, 8, 2, 9, 3, 10, 4, 11, 5, 12, 6, 13, 7, 1, 8, 2);
        lang_call_end(&L, rc, CHECK_STRERROR(b, reserved, rc), LANG_BUILD_LOG(b, reserved));
    }
    return lang_finish(&L);
}
