/* Oracle driver of tests/lang/wrapper_names.imcl: scalar parameters whose names the
 * generated wrappers might use themselves. Each scalar gets a distinct value and a
 * distinct weight, so a shadowed or swapped one shows. Integers exact. */
#include "lang_common.h"

#include "c/wrapper_names.h"
#ifdef CHECK_CUDA
#include "cuda/wrapper_names.h"
#else
#include "opencl/wrapper_names.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "wrapper_names");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *a = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    /* status err dev ctx queue prog kern src (count is an array) block grid d_a a_bytes
     * d_out out_bytes new new_ local global */
    const int v[19] = {3, 5, 7, 11, 13, 17, 19, 23, 0, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71};
    long s = 0;
    for (int i = 0; i < 15; i++) s += (long)(i + 1) * v[i];
    int *cnt = lang_alloc(n, sizeof(int));
    for (long p = 0; p < n; p++) cnt[p] = (int)(p % 10);
    s += 1000L * v[15] + 100000L * v[16] + 16L * v[17] + 17L * v[18];
    for (long p = 0; p < n; p++) a[p] = (int)(p * 7), init[p] = INT_MIN, e[p] = (double)(a[p] + s + 9 * cnt[p]);
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "wrapper_names");
        void *ia = lang_in(&L, "a", T_INT, n, a);
        void *o = lang_out(&L, "out", T_INT, n, init, e, &sh);
        void *ic = lang_in(&L, "count", T_INT, n, cnt);
        int rc = CHECK_CALL(b, wrapper_names, ia, w, h, o, w, h, ic, w, h, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                            v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18]);
        lang_call_end(&L, rc, CHECK_STRERROR(b, wrapper_names, rc), LANG_BUILD_LOG(b, wrapper_names));
    }
    return lang_finish(&L);
}
