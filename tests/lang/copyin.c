/* Oracle driver of tests/lang/copyin.imcl: outputs not overwritten in full keep the
 * values of the points the kernel does not write (the wrapper copies them in).
 * Integers exact. */
#include "lang_common.h"

#include "c/partial.h"
#include "c/via_alias.h"
#ifdef CHECK_CUDA
#include "cuda/partial.h"
#include "cuda/via_alias.h"
#else
#include "opencl/partial.h"
#include "opencl/via_alias.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "copyin");
    const int aw = 10, ah = 7, w = 37, h = 29;
    const long na = (long)aw * ah, n = (long)w * h;
    int *a = lang_alloc(na, sizeof(int)), *big = lang_alloc(n, sizeof(int));
    int *loop = lang_alloc(na, sizeof(int)), *cond = lang_alloc(na, sizeof(int));
    double *eb = lang_dalloc(n), *el = lang_dalloc(na), *ec = lang_dalloc(na);
    for (long p = 0; p < na; p++) a[p] = (int)(p * 3), loop[p] = -5 - (int)p, cond[p] = -7 - (int)p;
    for (long p = 0; p < n; p++) big[p] = -9 - (int)p, eb[p] = big[p];
    for (int y = 0; y < ah; y++)
        for (int x = 0; x < aw; x++) eb[(long)y * w + x] = a[y * aw + x];
    Shape sa = shape2(aw, ah), sb = shape2(w, h);
    for (int k = 0; k < 2; k++) {
        const int nn = k == 0 ? 0 : 3; /* the loop runs zero times, then three times */
        for (long p = 0; p < na; p++) el[p] = nn == 0 ? loop[p] : a[p] + nn - 1, ec[p] = cond[p];
        for (int b = 0; b < 2; b++) {
            lang_call_begin(&L, b, nn == 0 ? "partial (n = 0)" : "partial (n = 3)");
            void *ia = lang_in(&L, "a", T_INT, na, a);
            void *ob = lang_out(&L, "big", T_INT, n, big, eb, &sb);
            void *ol = lang_out(&L, "loop", T_INT, na, loop, el, &sa);
            void *oc = lang_out(&L, "cond", T_INT, na, cond, ec, &sa);
            int rc = CHECK_CALL(b, partial, ia, aw, ah, ob, w, h, ol, aw, ah, oc, aw, ah, nn);
            lang_call_end(&L, rc, CHECK_STRERROR(b, partial, rc), LANG_BUILD_LOG(b, partial));
        }
    }
    int *o = lang_alloc(n, sizeof(int));
    double *eo = lang_dalloc(n);
    for (long p = 0; p < n; p++) o[p] = -11 - (int)p, eo[p] = p < w ? o[p] : (double)(p % w + 100 * (p / w - 1));
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "via_alias");
        void *po = lang_out(&L, "o", T_INT, n, o, eo, &sb);
        int rc = CHECK_CALL(b, via_alias, po, w, h, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, via_alias, rc), LANG_BUILD_LOG(b, via_alias));
    }
    return lang_finish(&L);
}
