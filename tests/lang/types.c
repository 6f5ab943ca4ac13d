/* Oracle driver of tests/lang/types.imcl: every element type, promotions, unsigned
 * wrap-around, division/modulo of negatives, shifts, bitwise operators, casts,
 * compound assignments on narrow types, literals. The oracle is the same C
 * arithmetic written out here with the C types the wrapper API names (char is
 * signed char); conversions of out-of-range values to signed types wrap (gcc, clang
 * and nvcc all define them so). Integers compare exactly; the float results are
 * exact (inputs are multiples of 1/256), the double ones are within 1e-12. */
#include "lang_common.h"

#include "c/types2d.h"
#include "c/types3d.h"
#include "c/literals.h"
#ifdef CHECK_CUDA
#include "cuda/types2d.h"
#include "cuda/types3d.h"
#include "cuda/literals.h"
#else
#include "opencl/types2d.h"
#include "opencl/types3d.h"
#include "opencl/literals.h"
#endif

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

static void test_types2d(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    signed char *c = lang_alloc(n, 1);
    uchar *uc = lang_alloc(n, 1);
    short *s = lang_alloc(n, sizeof(short));
    ushort *us = lang_alloc(n, sizeof(ushort));
    int *in = lang_alloc(n, sizeof(int));
    uint *u = lang_alloc(n, sizeof(uint));
    float *f = lang_alloc(n, sizeof(float));
    double *d = lang_alloc(n, sizeof(double));
    Lcg g;
    lcg_seed(&g, 11);
    for (long p = 0; p < n; p++) {
        c[p] = (signed char)(lcg_next(&g) >> 24);
        uc[p] = (uchar)(lcg_next(&g) >> 24);
        s[p] = (short)(lcg_next(&g) >> 16);
        us[p] = (ushort)(lcg_next(&g) >> 16);
        in[p] = (int)(lcg_next(&g) >> 1) - (1 << 30);
        u[p] = lcg_next(&g);
        f[p] = (float)((int)(lcg_next(&g) % 51200) - 25600) / 256.0f;
        d[p] = (lcg_unit(&g) - 0.5) * 2000.0;
    }
    /* the extremes too */
    c[0] = -128, uc[0] = 255, s[0] = -32768, us[0] = 65535, in[0] = -(1 << 30), u[0] = 0xffffffffu;
    c[1] = 127, uc[1] = 0, s[1] = 32767, us[1] = 0, in[1] = (1 << 30) - 1, u[1] = 0;
    c[2] = -1, s[2] = -1, in[2] = -1, f[2] = -0.99609375f, d[2] = -1e-300;

    double *e[8];
    for (int k = 0; k < 8; k++) e[k] = lang_dalloc(n);
    for (long p = 0; p < n; p++) {
        signed char a = c[p];
        uchar b = uc[p];
        short hh = s[p];
        ushort gg = us[p];
        int nn = in[p];
        uint m = u[p];
        float x = f[p];
        double y = d[p];
        e[0][p] = (signed char)(a * 3 + b);
        e[1][p] = (uchar)(b * 7 + a + (~b & 3));
        e[2][p] = (short)(hh / 7 + hh % 7 * 1000 + (hh >> 3));
        e[3][p] = (ushort)(gg * 3u + (gg >> 4) - 7 + (ushort)~gg);
        e[4][p] = nn / -7 + nn % -7 + -nn % 7 + (nn >> 5) + (((nn & 0xffff) << 12) ^ (nn | 3)) % 1000 + !a + ~a +
                  (a < b) + (gg > hh);
        e[5][p] = (uint)(((m ^ (m << 3)) * 2654435761u) + (m >> 7) + (m + (uint)nn) / 3 + (uint)nn / 2u +
                         ((uint)nn >> 28));
        e[6][p] = (float)(x * 2.5f - (float)(int)x + (float)a / 4.0f + b * 0.5f + (float)((int)(x * 3) % 5));
        e[7][p] = y * 0.001 + (double)(nn / 3) + nn / 3.0 + (double)(float)y + (double)m +
                  (double)((x < y ? 1u : 2u) - 3u);
    }
    /* outputs start as a pattern the kernel overwrites everywhere */
    void *init[8];
    const ElemType ot[8] = {T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_FLOAT, T_DOUBLE};
    for (int k = 0; k < 8; k++) {
        init[k] = lang_alloc(n, lang_esize(ot[k]));
        memset(init[k], 0x5A, (size_t)n * lang_esize(ot[k]));
    }
    /* but float/double start as NaN: a point left unwritten never matches */
    for (long p = 0; p < n; p++) ((float *)init[6])[p] = NAN, ((double *)init[7])[p] = NAN;
    Shape sh = shape2(w, h);
    static const char *on[8] = {"oc", "ouc", "os", "ous", "oi", "ou", "of", "od"};
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "types2d");
        void *ic = lang_in(L, "c", T_CHAR, n, c), *iuc = lang_in(L, "uc", T_UCHAR, n, uc);
        void *is = lang_in(L, "s", T_SHORT, n, s), *ius = lang_in(L, "us", T_USHORT, n, us);
        void *ii = lang_in(L, "i", T_INT, n, in), *iu = lang_in(L, "u", T_UINT, n, u);
        void *iff = lang_in(L, "f", T_FLOAT, n, f), *id = lang_in(L, "d", T_DOUBLE, n, d);
        void *o[8];
        for (int k = 0; k < 8; k++) o[k] = lang_out(L, on[k], ot[k], n, init[k], e[k], &sh);
        int rc = CHECK_CALL(b, types2d, ic, w, h, iuc, w, h, is, w, h, ius, w, h, ii, w, h, iu, w, h, iff, w, h,
                            id, w, h, o[0], w, h, o[1], w, h, o[2], w, h, o[3], w, h, o[4], w, h, o[5], w, h, o[6],
                            w, h, o[7], w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, types2d, rc), LANG_BUILD_LOG(b, types2d));
    }
}

static void test_types3d(Lang *L)
{
    const int w = 13, h = 11, dd = 9, k = 7;
    const long n = (long)w * h * dd;
    const ElemType t[8] = {T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_FLOAT, T_DOUBLE};
    void *init[8];
    double *e[8];
    for (int q = 0; q < 8; q++) {
        init[q] = lang_alloc(n, lang_esize(t[q]));
        e[q] = lang_dalloc(n);
    }
    signed char *bc = init[0];
    uchar *buc = init[1];
    short *bs = init[2];
    ushort *bus = init[3];
    int *bi = init[4];
    uint *bu = init[5];
    float *bf = init[6];
    double *bd = init[7];
    Lcg g;
    lcg_seed(&g, 12);
    for (long p = 0; p < n; p++) {
        bc[p] = (signed char)(lcg_next(&g) >> 24);
        buc[p] = (uchar)(lcg_next(&g) >> 24);
        bs[p] = (short)(lcg_next(&g) >> 16);
        bus[p] = (ushort)(lcg_next(&g) >> 16);
        bi[p] = (int)(lcg_next(&g) >> 2) - (1 << 29);
        bu[p] = lcg_next(&g);
        bf[p] = (float)((int)(lcg_next(&g) % 51200) - 25600) / 256.0f;
        bd[p] = (lcg_unit(&g) - 0.5) * 2000.0;
        if (p % 17 == 2) buc[p] = 255, bs[p] = -32768, bus[p] = 0, bc[p] = -128;
    }
    for (int z = 0; z < dd; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                signed char c = bc[p];
                uchar uc = buc[p];
                short s = bs[p];
                ushort us = bus[p];
                int i = bi[p];
                uint u = bu[p];
                float f = bf[p];
                double d = bd[p];
                int sel = (x + y + z) % 3;
                if (sel == 0) {
                    c = (signed char)(c + 100);
                    uc = (uchar)(uc - 200);
                    s = (short)(s * -3);
                    us = (ushort)(us << 3);
                    i /= -k;
                    u *= 2654435761u;
                    f /= 4;
                    d -= 0.25;
                } else if (sel == 1) {
                    c = (signed char)(c >> 1);
                    uc = (uchar)(uc ^ 0xA5);
                    s = (short)(s % k);
                    us = (ushort)(us | 0x8001);
                    i %= -k;
                    u >>= 5;
                    f *= -1.5f;
                    d /= 3;
                } else {
                    c = (signed char)(c & 0x5F);
                    uc++;
                    s--;
                    us = (ushort)(us - 1);
                    i ^= k << 20;
                    us = (ushort)(us << 1);
                    u -= 7u;
                    f += (float)k;
                    d *= k;
                }
                e[0][p] = c, e[1][p] = uc, e[2][p] = s, e[3][p] = us;
                e[4][p] = i, e[5][p] = u, e[6][p] = f, e[7][p] = d;
            }
    Shape sh = shape3(w, h, dd);
    static const char *nm[8] = {"bc", "buc", "bs", "bus", "bi", "bu", "bf", "bd"};
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "types3d");
        void *o[8];
        for (int q = 0; q < 8; q++) o[q] = lang_out(L, nm[q], t[q], n, init[q], e[q], &sh);
        int rc = CHECK_CALL(b, types3d, o[0], w, h, dd, o[1], w, h, dd, o[2], w, h, dd, o[3], w, h, dd, o[4], w, h,
                            dd, o[5], w, h, dd, o[6], w, h, dd, o[7], w, h, dd, k);
        lang_call_end(L, rc, CHECK_STRERROR(b, types3d, rc), LANG_BUILD_LOG(b, types3d));
    }
}

static void test_literals(Lang *L)
{
    enum { N = 40 };
    double e[N] = {
        15, 2147483647, 4294967295.0, 0, 1705032704.0, 66, 10 + 92 + 0 + 39 + 34 + 9 + 122, -3, -1, 1,
        2147483644.0, 4294967295.0, 44, -56, -25536, 65535, -18, 3, 6, 7,
        102.5, 4294967295.0, 2147483646.0, 3221225472.0, 2805, 16777216, 1, 260, 131070,
        (double)(1.5e-1f * 2), (double)0.1f + 0.2, 3.5, 199, 4294967295.0, -5, 27, 2147483648.0, 32768,
        (double)(1.0f / 3), 1.0 / 3,
    };
    double init[N];
    for (int i = 0; i < N; i++) init[i] = NAN;
    Shape sh = shape2(N, 1);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "literals");
        void *o = lang_out(L, "o", T_DOUBLE, N, init, e, &sh);
        int rc = CHECK_CALL(b, literals, o, N, 1);
        lang_call_end(L, rc, CHECK_STRERROR(b, literals, rc), LANG_BUILD_LOG(b, literals));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "types");
    test_types2d(&L);
    test_types3d(&L);
    test_literals(&L);
    return lang_finish(&L);
}
