/* Oracle driver of tests/lang/index_types.imcl: indices of every integer type,
 * with small values, through constant(-1), clamped, periodic and mirror boundaries.
 * Integers exact (inputs 0..9). */
#include "lang_common.h"

#include "c/index_types.h"
#ifdef CHECK_CUDA
#include "cuda/index_types.h"
#else
#include "opencl/index_types.h"
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "index_types");
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *c = lang_alloc(n, sizeof(int)), *cl = lang_alloc(n, sizeof(int)), *p = lang_alloc(n, sizeof(int));
    int *m = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 171);
    for (long i = 0; i < n; i++) {
        c[i] = (int)(lcg_next(&g) % 10), cl[i] = (int)(lcg_next(&g) % 10);
        p[i] = (int)(lcg_next(&g) % 10), m[i] = (int)(lcg_next(&g) % 10), init[i] = INT_MIN;
    }
#define C(x, y) ((x) >= 0 && (x) < w && (y) >= 0 && (y) < h ? c[(y) * w + (x)] : -1)
#define CL(x, y) cl[clampi(y, 0, h - 1) * w + clampi(x, 0, w - 1)]
#define P(x, y) p[wrapi(y, h) * w + wrapi(x, w)]
#define M(x, y) m[mirrori(y, h) * w + mirrori(x, w)]
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int sc = x % 7 - 3, uc = y % 5, ss = -2, us = x % 3;
            e[(long)y * w + x] = C(x + sc, y - uc) + 10 * CL(x + 2, y + ss) + 100 * P(x - us * 2, sc + y) +
                                 1000 * M(x - 3, uc - 5 + y) + 10000 * C(x + 1, y) + 100000 * CL(x, y - 3);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(&L, b, "index_types");
        void *pc = lang_in(&L, "c", T_INT, n, c);
        void *pcl = lang_in(&L, "cl", T_INT, n, cl);
        void *pp = lang_in(&L, "p", T_INT, n, p);
        void *pm = lang_in(&L, "m", T_INT, n, m);
        void *po = lang_out(&L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, index_types, pc, w, h, pcl, w, h, pp, w, h, pm, w, h, po, w, h);
        lang_call_end(&L, rc, CHECK_STRERROR(b, index_types, rc), LANG_BUILD_LOG(b, index_types));
    }
    return lang_finish(&L);
}
