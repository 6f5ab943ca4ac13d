/* Oracle driver of tests/lang/api.imcl: the wrapper's argument checks
 * (docs/wrappers.md): NULL arrays, extents below 1 and grid arrays of different
 * extents return ERR_ARGUMENT (-1) and write nothing; a valid call returns 0;
 * strerror gives a non-empty static text for every code, unknown ones included; calls
 * after the first reuse what the wrapper kept, and K_release frees it for a fresh start.
 * Floats exact (sums of multiples of 1/256). */
#include "lang_common.h"

#include "c/two.h"
#ifdef CHECK_CUDA
#include "cuda/two.h"
#else
#include "opencl/two.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "api");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    float *a = lang_alloc(n, sizeof(float)), *bb = lang_alloc(n, sizeof(float)), *o = lang_alloc(n, sizeof(float));
    double *keep = lang_dalloc(n), *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 161);
    for (long p = 0; p < n; p++) {
        a[p] = lcg_quantized(&g, 8), bb[p] = lcg_quantized(&g, 8), o[p] = -1.0f;
        keep[p] = -1.0, e[p] = (double)(a[p] + bb[p]);
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        /* bad calls: each must return -1 and leave o alone */
        struct {
            const char *what;
            int aw, ah, bw, bh, ow, oh, null_a, null_b, null_o;
        } bad[] = {
            {"b narrower than a", w, h, w - 1, h, w, h, 0, 0, 0},
            {"b shorter than a", w, h, w, h - 1, w, h, 0, 0, 0},
            {"a width 0", 0, h, w, h, w, h, 0, 0, 0},
            {"o height -1", w, h, w, h, w, -1, 0, 0, 0},
            {"a NULL", w, h, w, h, w, h, 1, 0, 0},
            {"b NULL", w, h, w, h, w, h, 0, 1, 0},
            {"o NULL", w, h, w, h, w, h, 0, 0, 1},
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            lang_call_begin(&L, b, bad[k].what);
            void *pa = lang_in(&L, "a", T_FLOAT, n, a);
            void *pb = lang_in(&L, "b", T_FLOAT, n, bb);
            void *po = lang_out(&L, "o", T_FLOAT, n, o, keep, &sh);
            int rc = CHECK_CALL(b, two, bad[k].null_a ? NULL : pa, bad[k].aw, bad[k].ah, bad[k].null_b ? NULL : pb,
                                bad[k].bw, bad[k].bh, bad[k].null_o ? NULL : po, bad[k].ow, bad[k].oh);
            if (rc != -1) {
                fprintf(stderr, "lang api: %s: %s: returned %d, expected -1 (ERR_ARGUMENT)\n", check_backend_name[b],
                        bad[k].what, rc);
                L.failed[b] = 1;
            }
            lang_call_end(&L, 0, NULL, NULL); /* o must be untouched */
        }
        /* a good call */
        lang_call_begin(&L, b, "two");
        void *pa = lang_in(&L, "a", T_FLOAT, n, a);
        void *pb = lang_in(&L, "b", T_FLOAT, n, bb);
        void *po = lang_out(&L, "o", T_FLOAT, n, o, e, &sh);
        int rc = CHECK_CALL(b, two, pa, w, h, pb, w, h, po, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, two, rc), LANG_BUILD_LOG(b, two));
        /* the wrapper keeps its device objects between calls (K_release frees them):
         * calls on other extents and other data after a good one, after a refused one,
         * and after a release, each computing what it must */
        for (int round = 0; round < 3; round++) {
            const int w2 = 5 + 11 * round, h2 = 3 + 7 * round;
            const long n2 = (long)w2 * h2;
            float *a2 = lang_alloc(n2, sizeof(float)), *b2 = lang_alloc(n2, sizeof(float));
            float *o2 = lang_alloc(n2, sizeof(float));
            double *e2 = lang_dalloc(n2);
            for (long p = 0; p < n2; p++) {
                a2[p] = lcg_quantized(&g, 8), b2[p] = (float)round, o2[p] = -1.0f;
                e2[p] = (double)(a2[p] + b2[p]);
            }
            Shape sh2 = shape2(w2, h2);
            if (round == 1 && CHECK_CALL(b, two, a2, w2, h2, b2, w2 + 1, h2, o2, w2, h2) != -1) {
                fprintf(stderr, "lang api: %s: mismatched extents accepted\n", check_backend_name[b]);
                L.failed[b] = 1;
            }
            if (round == 2) {
                if (b == 0)
                    ref_two_release();
                else
                    CHECK_DEV_RELEASE(two)();
            }
            lang_call_begin(&L, b, round == 2 ? "two after K_release" : "two again");
            void *qa = lang_in(&L, "a", T_FLOAT, n2, a2);
            void *qb = lang_in(&L, "b", T_FLOAT, n2, b2);
            void *qo = lang_out(&L, "o", T_FLOAT, n2, o2, e2, &sh2);
            rc = CHECK_CALL(b, two, qa, w2, h2, qb, w2, h2, qo, w2, h2);
            lang_call_end(&L, rc, CHECK_STRERROR(b, two, rc), LANG_BUILD_LOG(b, two));
        }
        /* strerror */
        for (int code = -8; code <= 1; code++) {
            const char *s = CHECK_STRERROR(b, two, code);
            if (!s || !*s) {
                fprintf(stderr, "lang api: %s: strerror(%d) is %s\n", check_backend_name[b], code, s ? "empty" : "NULL");
                L.failed[b] = 1;
            }
        }
    }
    return lang_finish(&L);
}
