/* Oracle driver of tests/lang/shared_bc2.imcl, run once per configuration of
 * shared_bc2.params (all five arrays of sbc2 in shared memory). The C reference
 * ignores placements; the device backend loads tiles through the boundary
 * conditions. Both must match the oracle, which reads through the conditions
 * itself (shared_common.h). Grids 37 x 29 and smaller than any block (5 x 3, 1 x 1,
 * 2 x 1); the periodic array is 5 x 4 and the mirror array 3 x 2, so offsets reach
 * past the whole array. Integers exact; float inputs are multiples of 1/256 with
 * small integer weights, so float results are exact. */
#include "shared_common.h"

#include "c/sbc2.h"
#ifdef CHECK_CUDA
#include "cuda/sbc2.h"
#else
#include "opencl/sbc2.h"
#endif

static void test_sbc2(Lang *L, int w, int h)
{
    const int pw = 5, ph = 4, mw = 3, mh = 2;
    const long n = (long)w * h, np = (long)pw * ph, nm = (long)mw * mh;
    Lcg g;
    lcg_seed(&g, 401 + (uint64_t)w * 7 + (uint64_t)h);
    void *kc = rand_arr(&g, T_FLOAT, n), *kv = rand_arr(&g, T_INT, n), *kcl = rand_arr(&g, T_FLOAT, n);
    void *kp = rand_arr(&g, T_UCHAR, np), *km = rand_arr(&g, T_FLOAT, nm);
    Arr Ac = arr2(B_CONST, 0, T_FLOAT, kc, w, h, 0), Av = arr2(B_CONST, 7, T_INT, kv, w, h, 0);
    Arr Acl = arr2(B_CLAMP, 0, T_FLOAT, kcl, w, h, 0), Ap = arr2(B_PERIODIC, 0, T_UCHAR, kp, pw, ph, 0);
    Arr Am = arr2(B_MIRROR, 0, T_FLOAT, km, mw, mh, 0);
    void *ic = unset_arr(T_FLOAT, n), *iv = unset_arr(T_INT, n), *icl = unset_arr(T_FLOAT, n);
    void *ip = unset_arr(T_INT, n), *im = unset_arr(T_FLOAT, n);
    double *ec = lang_dalloc(n), *ev = lang_dalloc(n), *ecl = lang_dalloc(n), *ep = lang_dalloc(n),
           *em = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            ec[p] = rd2(&Ac, x + 2, y - 1) * 3;
            double acc = 0;
            for (int i = -2; i <= 2; i++) acc += (i + 3) * rd2(&Av, x + i, y);
            for (int j = -1; j <= 2; j++) acc += 10 * (j + 2) * rd2(&Av, x, y + j);
            ev[p] = acc;
            double s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) s += (dx + 2 + 3 * (dy + 1)) * rd2(&Acl, x + dx, y + dy);
            ecl[p] = s;
            ep[p] = rd2(&Ap, x + 3, y) + 1000 * rd2(&Ap, x - 1, y + 1);
            em[p] = rd2(&Am, x - 2, y + 1) + 4 * rd2(&Am, x + 1, y - 3);
        }
    Shape sh = shape2(w, h);
    char name[48];
    snprintf(name, sizeof name, "sbc2 (%d x %d)", w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *bc = lang_in(L, "kc", T_FLOAT, n, kc), *bv = lang_in(L, "kv", T_INT, n, kv);
        void *bcl = lang_in(L, "kcl", T_FLOAT, n, kcl), *bp = lang_in(L, "kp", T_UCHAR, np, kp);
        void *bm = lang_in(L, "km", T_FLOAT, nm, km);
        void *oc = lang_out(L, "oc", T_FLOAT, n, ic, ec, &sh), *ov = lang_out(L, "ov", T_INT, n, iv, ev, &sh);
        void *ocl = lang_out(L, "ocl", T_FLOAT, n, icl, ecl, &sh), *op = lang_out(L, "op", T_INT, n, ip, ep, &sh);
        void *om = lang_out(L, "om", T_FLOAT, n, im, em, &sh);
        int rc = CHECK_CALL(b, sbc2, bc, w, h, bv, w, h, bcl, w, h, bp, pw, ph, bm, mw, mh, oc, w, h, ov, w, h, ocl,
                            w, h, op, w, h, om, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, sbc2, rc), LANG_BUILD_LOG(b, sbc2));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "shared_bc2");
    test_sbc2(&L, 37, 29);
    test_sbc2(&L, 5, 3);
    test_sbc2(&L, 1, 1);
    test_sbc2(&L, 2, 1);
    return lang_finish(&L);
}
