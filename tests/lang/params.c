/* Oracle driver of tests/lang/params.imcl: scalar parameters of every type passed in
 * the wrapper's order (arrays first in declaration order, fixed-size arrays among
 * them, then scalars in declaration order), with values that a wrong width, sign or
 * order would change; scalars changed in the body are per-point copies. Integers exact; doubles within 1e-12 (the float inputs
 * are multiples of 1/256, so products are exact). */
#include "lang_common.h"

#include "c/params.h"
#ifdef CHECK_CUDA
#include "cuda/params.h"
#else
#include "opencl/params.h"
#endif

static void test_params(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *a = lang_alloc(n, sizeof(float));
    Lcg g;
    lcg_seed(&g, 21);
    for (long p = 0; p < n; p++) a[p] = lcg_quantized(&g, 8) * 8.0f - 4.0f;
    const float m[6] = {0.5f, -1.25f, 2.0f, 3.0f, -0.75f, 1.5f};
    const int lut[4] = {1000, -2000, 30000, -400000};
    const signed char sc = -100;
    const double sd = 1.0 + 1e-10;
    const unsigned char su8 = 250;
    const short ss = -30000;
    const unsigned int su32 = 4000000000u;
    const unsigned short su16 = 60000;
    const float sf = 0.1f;
    const int si = -17;
    const unsigned int sflag = 0x80000001u;

    double *eo = lang_dalloc(n), *ei = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            double base = (sd - 1.0) * 1e10 + (double)sf + (double)(sc / 3) + (double)(su8 + 10) + (double)(ss / 7) +
                          (double)(su16 * 2) + (double)(su32 / 3u);
            /* float * float + int is float arithmetic */
            double mm = (double)(m[(y % 2) * 3 + x % 3] * a[clampi(y - 1, 0, h - 1) * w + clampi(x + 1, 0, w - 1)] +
                                 (float)lut[(x + y) & 3]);
            int si2 = si + x;
            signed char sc2 = (signed char)(sc + 1);
            unsigned int su2 = su32 * 3u;
            float sf2 = sf * 2;
            double sd2 = -sd;
            if (sflag & 1u) si2 = -si2;
            eo[p] = base + mm + (double)sf2 + sd2;
            ei[p] = si2 * 1000 + sc2 + (int)(su2 % 1000u);
        }
    double *oinit = lang_dalloc(n);
    int *iinit = lang_alloc(n, sizeof(int));
    for (long p = 0; p < n; p++) oinit[p] = NAN, iinit[p] = INT_MIN;
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "params");
        void *ia = lang_in(L, "a", T_FLOAT, n, a);
        void *im = lang_in(L, "m", T_FLOAT, 6, m);
        void *ilut = lang_in(L, "lut", T_INT, 4, lut);
        void *ooi = lang_out(L, "oi", T_INT, n, iinit, ei, &sh);
        void *oout = lang_out(L, "out", T_DOUBLE, n, oinit, eo, &sh);
        /* arrays in declaration order: a, m, oi, out, lut; then the scalars */
        int rc = CHECK_CALL(b, params, ia, w, h, im, ooi, w, h, oout, w, h, ilut, sc, sd, su8, ss, su32, su16, sf, si,
                            sflag);
        lang_call_end(L, rc, CHECK_STRERROR(b, params, rc), LANG_BUILD_LOG(b, params));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "params");
    test_params(&L);
    return lang_finish(&L);
}
