/* Oracle driver of tests/lang/edge_rows.imcl: reads past every edge in y and z (and
 * past erk's halo) under constant(2.5), clamped, periodic and mirror boundaries,
 * which apply over the storage range -h .. extent+h-1 (docs/language.md). Grids
 * 9 x 7 x 6 (inner rows and edge rows) and 1 x 1 x 1, 2 x 3 x 1, 3 x 1 x 2 (edge rows
 * only). Integers exact; float and double inputs are multiples of 1/256 (exact). */
#include "lang_common.h"

#include "c/erc.h"
#include "c/erk.h"
#include "c/erp.h"
#include "c/erm.h"
#ifdef CHECK_CUDA
#include "cuda/erc.h"
#include "cuda/erk.h"
#include "cuda/erp.h"
#include "cuda/erm.h"
#else
#include "opencl/erc.h"
#include "opencl/erk.h"
#include "opencl/erp.h"
#include "opencl/erm.h"
#endif

/* Element (x, y, z) of an array of extents n[3] and halo h (none in z when n[2] is
 * 0: an Image) under boundary bc ('c' constant v, 'k' clamped, 'p' periodic, 'm'
 * mirror), from its storage a of type t. */
static double rd(ElemType t, const void *a, const int n[3], int h, char bc, double v, int x, int y, int z)
{
    int c[3] = {x, y, z}, dims = n[2] ? 3 : 2;
    for (int d = 0; d < dims; d++) {
        int p = n[d] + 2 * h;
        if (c[d] >= -h && c[d] < n[d] + h)
            continue;
        if (bc == 'c')
            return v;
        c[d] = bc == 'k' ? clampi(c[d], -h, n[d] + h - 1) : bc == 'p' ? wrapi(c[d] + h, p) - h : mirrori(c[d] + h, p) - h;
    }
    long i = ((long)(dims == 3 ? c[2] + h : 0) * (n[1] + 2 * h) + c[1] + h) * (n[0] + 2 * h) + c[0] + h;
    return lang_get(t, a, i);
}

/* An input of n elements: multiples of 1/256 (integers for int). */
static void *fill(ElemType t, long n, uint64_t seed)
{
    void *a = lang_alloc(n, lang_esize(t));
    Lcg g;
    lcg_seed(&g, seed);
    for (long i = 0; i < n; i++)
        lang_set(t, a, i, t == T_INT ? (double)((int)(lcg_next(&g) % 1000) - 400) : lcg_quantized(&g, 8));
    return a;
}

static void test(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d, nk = (long)(w + 2) * (h + 2) * (d + 2);
    const int e3[3] = {w, h, d}, e2[3] = {w, h, 0};
    double *c = fill(T_DOUBLE, n, 401), *k = fill(T_DOUBLE, nk, 402);
    int *p = fill(T_INT, n, 403);
    float *m = fill(T_FLOAT, (long)w * h, 404);
    double *ec = lang_dalloc(n), *ek = lang_dalloc(n), *ep = lang_dalloc(n), *em = lang_dalloc((long)w * h);
    double *o0 = lang_dalloc(n);
    int *oi = lang_alloc(n, sizeof(int));
    float *of = lang_alloc((long)w * h, sizeof(float));
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long i = ((long)z * h + y) * w + x;
                ec[i] = rd(T_DOUBLE, c, e3, 0, 'c', 2.5, x, y, z - 2) + 2.0 * rd(T_DOUBLE, c, e3, 0, 'c', 2.5, x + 1, y - 1, z)
                      + 4.0 * rd(T_DOUBLE, c, e3, 0, 'c', 2.5, x - 1, y + 1, z + 1) + 8.0 * rd(T_DOUBLE, c, e3, 0, 'c', 2.5, x, y, z);
                ek[i] = rd(T_DOUBLE, k, e3, 1, 'k', 0, x, y - 2, z) + 3.0 * rd(T_DOUBLE, k, e3, 1, 'k', 0, x, y, z + 2)
                      + 5.0 * rd(T_DOUBLE, k, e3, 1, 'k', 0, x + 1, y + 1, z - 1);
                ep[i] = rd(T_INT, p, e3, 0, 'p', 0, x, y + 2, z - 1) + 10 * rd(T_INT, p, e3, 0, 'p', 0, x - 1, y - 1, z + 2);
                if (z == 0)
                    em[(long)y * w + x] = rd(T_FLOAT, m, e2, 0, 'm', 0, x, y - 3, 0)
                                        + 2.0 * rd(T_FLOAT, m, e2, 0, 'm', 0, x + 1, y + 2, 0);
            }
    Shape s3 = shape3(w, h, d), s2 = shape2(w, h);
    char what[64];
    for (int b = 0; b < 2; b++) {
        snprintf(what, sizeof what, "erc %d x %d x %d", w, h, d);
        lang_call_begin(L, b, what);
        void *ic = lang_in(L, "c", T_DOUBLE, n, c);
        void *o = lang_out(L, "o", T_DOUBLE, n, o0, ec, &s3);
        int rc = CHECK_CALL(b, erc, ic, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, erc, rc), LANG_BUILD_LOG(b, erc));

        snprintf(what, sizeof what, "erk %d x %d x %d", w, h, d);
        lang_call_begin(L, b, what);
        void *ik = lang_in(L, "k", T_DOUBLE, nk, k);
        o = lang_out(L, "o", T_DOUBLE, n, o0, ek, &s3);
        rc = CHECK_CALL(b, erk, ik, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, erk, rc), LANG_BUILD_LOG(b, erk));

        snprintf(what, sizeof what, "erp %d x %d x %d", w, h, d);
        lang_call_begin(L, b, what);
        void *ip = lang_in(L, "p", T_INT, n, p);
        o = lang_out(L, "o", T_INT, n, oi, ep, &s3);
        rc = CHECK_CALL(b, erp, ip, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, erp, rc), LANG_BUILD_LOG(b, erp));

        snprintf(what, sizeof what, "erm %d x %d", w, h);
        lang_call_begin(L, b, what);
        void *im = lang_in(L, "m", T_FLOAT, (long)w * h, m);
        o = lang_out(L, "o", T_FLOAT, (long)w * h, of, em, &s2);
        rc = CHECK_CALL(b, erm, im, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, erm, rc), LANG_BUILD_LOG(b, erm));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "edge_rows");
    test(&L, 9, 7, 6);
    test(&L, 1, 1, 1);
    test(&L, 2, 3, 1);
    test(&L, 3, 1, 2);
    return lang_finish(&L);
}
