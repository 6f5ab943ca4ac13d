/* Oracle driver of tests/lang/arrays.imcl: fixed-size array parameters of 1 to 4
 * dimensions (passed as flat C arrays in row-major order) and local arrays.
 * All terms are exact in double (within 1e-12). */
#include "lang_common.h"

#include "c/arrays.h"
#ifdef CHECK_CUDA
#include "cuda/arrays.h"
#else
#include "opencl/arrays.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "arrays");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int t[24];
    double q[16];
    signed char c[5] = {-128, -1, 0, 1, 127};
    short s[6] = {-32768, 32767, -3, 4, 5, -6};
    unsigned short us[2] = {65535, 1};
    float f[1] = {0.125f};
    for (int i = 0; i < 24; i++) t[i] = i * i - 100;
    for (int i = 0; i < 16; i++) q[i] = i * 1.5 - 7;
    double *init = lang_dalloc(n), *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int i = x % 2, j = y % 3, k = (x + y) % 4;
            double v = t[(i * 3 + j) * 4 + k] + 0.5 * q[((i * 2 + j % 2) * 2 + k % 2) * 2 + (i + j) % 2] +
                       c[x % 5] * 1000 + s[j * 2 + i] * 10 + us[i] * 1e6 + f[0];
            int loc[2][2][3];
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++)
                    for (int d = 0; d < 3; d++) loc[a][b][d] = a * 100 + b * 10 + d + x;
            loc[1][0][2] += loc[0][1][1] * 2;
            loc[i][1 - i][k % 3] -= 7;
            double dl[4];
            dl[0] = 0.25;
            for (int a = 1; a < 4; a++) dl[a] = dl[a - 1] * 2 + loc[a % 2][a / 2][a - 1];
            signed char c1 = (signed char)(100 + 100);
            signed char c2 = (signed char)(c1 * 2);
            long p = (long)y * w + x;
            init[p] = NAN;
            e[p] = v + loc[1][0][2] + loc[i][1 - i][k % 3] * 1e-3 + dl[3] * 1e3 + c1 * 1e-6 + c2 * 1e8;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "arrays");
        void *po = lang_out(&L, "o", T_DOUBLE, n, init, e, &sh);
        void *pt = lang_in(&L, "t", T_INT, 24, t);
        void *pq = lang_in(&L, "q", T_DOUBLE, 16, q);
        void *pc = lang_in(&L, "c", T_CHAR, 5, c);
        void *ps = lang_in(&L, "s", T_SHORT, 6, s);
        void *pus = lang_in(&L, "us", T_USHORT, 2, us);
        void *pf = lang_in(&L, "f", T_FLOAT, 1, f);
        int rc = CHECK_CALL(b, arrays, po, w, h, pt, pq, pc, ps, pus, pf);
        lang_call_end(&L, rc, CHECK_STRERROR(b, arrays, rc), LANG_BUILD_LOG(b, arrays));
    }
    return lang_finish(&L);
}
