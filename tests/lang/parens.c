/* Oracle driver of tests/lang/parens.imcl: parenthesisation, token gluing and
 * -Wparentheses in the unparsed code. The oracle is the same expressions written in
 * C. Integers exact; the double output within 1e-12 (its terms are exact). */
#include "lang_common.h"

#include "c/parens.h"
#ifdef CHECK_CUDA
#include "cuda/parens.h"
#else
#include "opencl/parens.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "parens");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *a = lang_alloc(n, sizeof(int)), *bb = lang_alloc(n, sizeof(int)), *oinit = lang_alloc(n, sizeof(int));
    double *dinit = lang_dalloc(n), *e = lang_dalloc(n), *ed = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 61);
    for (long p = 0; p < n; p++) {
        a[p] = (int)(lcg_next(&g) % 2001) - 1000;
        bb[p] = (int)(lcg_next(&g) % 2001) - 1000;
        if (p % 13 == 0) bb[p] = 3;
        if (p % 17 == 0) a[p] = 0, bb[p] = p % 2;
        oinit[p] = INT_MIN, dinit[p] = NAN;
    }
    for (long p = 0; p < n; p++) {
        int x = a[p], y = bb[p];
        int r = 0, t = 0, u;
        r += x - (y - 3);
        r += 3 * (x - (y + 2));
        r += x / (y | 1) / 2;
        r += x / ((y | 1) / 2 + 1);
        r += -(x - 1) * 5;
        r += (x + y) % 7 * 11;
        r += x % (7 * 11);
        r += x - -y;
        r += x + +y;
        r += - -x;
        r += -(-x);
        r += x - (-5);
        r += ~-x;
        r += !!x + !(x + 1);
        r += (x > 0) > (y > 0);
        r += ((x > y) == 0) * 13;
        r += 17 * (x > 0 || (y > 0 && x < y));
        r += (x | (y + 1)) & 0xff;
        r += x & (y == 3);
        r += (x ^ (y - 1)) & 0xf;
        r += (y & 7) << ((x & 3) + 1);
        r += (x & (y + 1)) % 100;
        r += ((!x) == y) * 19;
        if ((t = x & 3)) r += t * 23;
        r += 3 + 2 + 1;     /* while ((k = k - 1)) from 4 */
        r += 2 * (2 + 1);   /* for (k = 3; (k = k - 1);) */
        r += 3 + 3;         /* do ... while ((k = k + 1) < 2) from 0: runs twice */
        u = (t = x & 15) + 1;
        r += u * t;
        t++;
        r += t * 2;
        r += (x > 0 ? (t++, 5) : 6);
        r += x > 0 ? 1 : (y > 0 ? 2 : 3);
        r += (x > 0 ? 10 : 20) + 1;
        e[p] = r;
        ed[p] = (double)(x / 7) + (double)x / 7 + (double)((float)-y / 4) + (double)-(y / 3);
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "parens");
        void *ia = lang_in(&L, "a", T_INT, n, a);
        void *ib = lang_in(&L, "b", T_INT, n, bb);
        void *o = lang_out(&L, "o", T_INT, n, oinit, e, &sh);
        void *od = lang_out(&L, "od", T_DOUBLE, n, dinit, ed, &sh);
        int rc = CHECK_CALL(b, parens, ia, w, h, ib, w, h, o, w, h, od, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, parens, rc), LANG_BUILD_LOG(b, parens));
    }
    return lang_finish(&L);
}
