/* Oracle driver of tests/lang/helpers.imcl: helper functions, local scalars of every
 * type (their wrap-around), local arrays, fixed-size array parameters (float m[3][3]
 * is 9 floats, m[i][j] at i*3 + j; int lut[16]; double wgt[2][3]; uchar bytes[4]).
 * Integers exact; the float output is exact but for the double terms rounded to
 * float (within 1e-5); the double output within 1e-12. */
#include "lang_common.h"

#include "c/helpers.h"
#ifdef CHECK_CUDA
#include "cuda/helpers.h"
#else
#include "opencl/helpers.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "helpers");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *in = lang_alloc(n, sizeof(float)), *fi = lang_alloc(n, sizeof(float));
    int *ii = lang_alloc(n, sizeof(int));
    double *di = lang_dalloc(n), *ef = lang_dalloc(n), *ei = lang_dalloc(n), *ed = lang_dalloc(n);
    const float m[9] = {0.5f, -1, 2, 0.25f, 3, -0.75f, 1, 1.5f, -2};
    int lut[16];
    for (int i = 0; i < 16; i++) lut[i] = (i * 37) % 23 - 11;
    const double wgt[6] = {0.125, -0.5, 1.0 / 3.0, 2, -1.75, 0.1};
    const unsigned char bytes[4] = {3, 250, 0, 128};
    Lcg g;
    lcg_seed(&g, 81);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8) * 4, fi[p] = NAN, ii[p] = INT_MIN, di[p] = NAN;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            float tmp[9];
            int k = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++) tmp[k++] = in[clampi(y + j, 0, h - 1) * w + clampi(x + i, 0, w - 1)];
            float acc = 0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) acc += m[i * 3 + j] * tmp[i * 3 + j];
            double dacc = 0;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 3; j++) dacc += wgt[i * 3 + j] * lut[(i * 3 + j + x) & 15];
            int cnt[3] = {0, 1, 2};
            cnt[x % 3]++;
            cnt[0] += 5;
            --cnt[(y + 1) % 3];
            cnt[2] *= cnt[1] + 1;
            float sc = (float)((dacc + dacc) * 3);
            float hf = tmp[4] * 3 - tmp[4] * 1;
            ef[p] = acc + sc + hf;
            int cnt9 = 0, s = 0, xm = x % 9;
            for (int i = 0; i < xm; i++) {
                if (i == 5) break;
                s += i;
            }
            cnt9 = xm > 5 ? s : -s;
            ei[p] = 2 * 1000000 + (x > y ? x : y) * 10000 + bytes[x & 3] * 10 + 44 + (2 * y + 1) * 100000 + cnt9 +
                    cnt[0] + 7 * cnt[1] + 49 * cnt[2];
            double chain = (((x + 1) * 3 - 1) + 0.5) * 2;
            ed[p] = 6.0 + (-126) * 1e3 + 4 * 1e5 + 32767 * 1e7 + 65535 * 1e12 + 4294967295.0 * 1e-3 + chain;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "helpers");
        void *iin = lang_in(&L, "in", T_FLOAT, n, in);
        void *im = lang_in(&L, "m", T_FLOAT, 9, m);
        void *il = lang_in(&L, "lut", T_INT, 16, lut);
        void *iw = lang_in(&L, "wgt", T_DOUBLE, 6, wgt);
        void *ib = lang_in(&L, "bytes", T_UCHAR, 4, bytes);
        void *of = lang_out(&L, "out", T_FLOAT, n, fi, ef, &sh);
        void *oi = lang_out(&L, "oi", T_INT, n, ii, ei, &sh);
        void *od = lang_out(&L, "od", T_DOUBLE, n, di, ed, &sh);
        int rc = CHECK_CALL(b, helpers, iin, w, h, of, w, h, oi, w, h, od, w, h, im, il, iw, ib);
        lang_call_end(&L, rc, CHECK_STRERROR(b, helpers, rc), LANG_BUILD_LOG(b, helpers));
    }
    return lang_finish(&L);
}
