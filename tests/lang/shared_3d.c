/* Oracle driver of tests/lang/shared_3d.imcl, run once per configuration of
 * shared_3d.params (arrays a, b, c, d of both kernels in shared memory). The
 * oracle reads through the boundary conditions itself (shared_common.h):
 *   s3a: constant(1.5) 7-point, clamped asymmetric loop footprint, periodic 27-point
 *        on a 5 x 4 x 3 array, a clamped Image read from the 3D grid; oc keeps its
 *        value where the point returned early (g % 4 == 0);
 *   s3b: mirror on a 3 x 2 x 2 array, none with halo 1 and 2 (ghost cells unlike the
 *        interior), a periodic Image; the output's ghost cells are preserved.
 * Grids 13 x 11 x 9 and smaller than any block (3 x 2 x 1, 1 x 1 x 1). Integers
 * exact; float inputs are multiples of 1/256 with small integer weights (exact
 * sums); doubles within 1e-12. */
#include "shared_common.h"

#include "c/s3a.h"
#include "c/s3b.h"
#ifdef CHECK_CUDA
#include "cuda/s3a.h"
#include "cuda/s3b.h"
#else
#include "opencl/s3a.h"
#include "opencl/s3b.h"
#endif

static void test_s3a(Lang *L, int w, int h, int d)
{
    const int cw = 5, ch = 4, cd = 3, dw = w + 1, dh = h > 1 ? h - 1 : 1;
    const long n = (long)w * h * d, nc = (long)cw * ch * cd, nd = (long)dw * dh;
    Lcg g;
    lcg_seed(&g, 501 + (uint64_t)w);
    int *gg = rand_arr(&g, T_INT, n);
    void *a = rand_arr(&g, T_DOUBLE, n), *bb = rand_arr(&g, T_INT, n), *c = rand_arr(&g, T_FLOAT, nc);
    void *dd = rand_arr(&g, T_FLOAT, nd);
    Arr Aa = arr3(B_CONST, 1.5, T_DOUBLE, a, w, h, d, 0), Ab = arr3(B_CLAMP, 0, T_INT, bb, w, h, d, 0);
    Arr Ac = arr3(B_PERIODIC, 0, T_FLOAT, c, cw, ch, cd, 0), Ad = arr2(B_CLAMP, 0, T_FLOAT, dd, dw, dh, 0);
    void *ia = unset_arr(T_DOUBLE, n), *ib = unset_arr(T_INT, n);
    float *ic = lang_alloc(n, sizeof(float));
    double *ea = lang_dalloc(n), *eb = lang_dalloc(n), *ec = lang_dalloc(n);
    long returned = 0;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                int v = gg[p];
                ea[p] = v + rd3(&Aa, x, y, z) + 2 * rd3(&Aa, x - 1, y, z) + 4 * rd3(&Aa, x + 1, y, z) +
                        8 * rd3(&Aa, x, y - 1, z) + 16 * rd3(&Aa, x, y + 1, z) + 32 * rd3(&Aa, x, y, z - 1) +
                        64 * rd3(&Aa, x, y, z + 1);
                double acc = 0;
                for (int dz = -2; dz <= 1; dz++) acc += (dz + 3) * rd3(&Ab, x + 1, y - 1, z + dz);
                eb[p] = acc + 10 * rd3(&Ab, x + 2, y - 1, z);
                ic[p] = -1.0f - (float)p;
                ec[p] = ic[p];
                if (v % 4 == 0) {
                    returned++;
                    continue;
                }
                double s = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            s += ((dx + 2) + 4 * (dy + 2) + 16 * (dz + 2)) * rd3(&Ac, x + dx, y + dy, z + dz);
                ec[p] = s + 2 * rd2(&Ad, x + 1, y - 1) + 4 * rd2(&Ad, x, y) + 8 * rd2(&Ad, x - 2, y + 1);
            }
    if (n > 100 && (returned < 20 || returned > n - 20)) {
        fprintf(stderr, "shared_3d: degenerate inputs for s3a (%ld of %ld return)\n", returned, n);
        exit(1);
    }
    Shape sh = shape3(w, h, d);
    char name[48];
    snprintf(name, sizeof name, "s3a (%d x %d x %d)", w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *bg = lang_in(L, "g", T_INT, n, gg), *ba = lang_in(L, "a", T_DOUBLE, n, a);
        void *bb2 = lang_in(L, "b", T_INT, n, bb), *bc = lang_in(L, "c", T_FLOAT, nc, c);
        void *bd = lang_in(L, "d", T_FLOAT, nd, dd);
        void *oa = lang_out(L, "oa", T_DOUBLE, n, ia, ea, &sh), *ob = lang_out(L, "ob", T_INT, n, ib, eb, &sh);
        void *oc = lang_out(L, "oc", T_FLOAT, n, ic, ec, &sh);
        int rc = CHECK_CALL(b, s3a, bg, w, h, d, ba, w, h, d, bb2, w, h, d, bc, cw, ch, cd, bd, dw, dh, oa, w, h, d,
                            ob, w, h, d, oc, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, s3a, rc), LANG_BUILD_LOG(b, s3a));
    }
}

static void test_s3b(Lang *L, int w, int h, int d)
{
    const int aw = 3, ah = 2, ad = 2, dw = 4, dh = 3;
    const long na = (long)aw * ah * ad, nb = (long)(w + 2) * (h + 2) * (d + 2);
    const long nc = (long)(w + 4) * (h + 4) * (d + 4), nd = (long)dw * dh, no = nb;
    Lcg g;
    lcg_seed(&g, 502 + (uint64_t)w);
    void *a = rand_arr(&g, T_UCHAR, na), *dd = rand_arr(&g, T_INT, nd);
    float *bb = rand_arr(&g, T_FLOAT, nb);
    int *c = rand_arr(&g, T_INT, nc);
    for (long i = 0; i < nb; i++)
        if (ghost3(i, w, h, d, 1)) bb[i] += 8;
    for (long i = 0; i < nc; i++)
        if (ghost3(i, w, h, d, 2)) c[i] += 3000;
    Arr Aa = arr3(B_MIRROR, 0, T_UCHAR, a, aw, ah, ad, 0), Ab = arr3(B_NONE, 0, T_FLOAT, bb, w, h, d, 1);
    Arr Ac = arr3(B_NONE, 0, T_INT, c, w, h, d, 2), Ad = arr2(B_PERIODIC, 0, T_INT, dd, dw, dh, 0);
    double *io = lang_dalloc(no), *e = lang_dalloc(no);
    for (long i = 0; i < no; i++) io[i] = ghost3(i, w, h, d, 1) ? -1.0 - (double)i : NAN, e[i] = io[i];
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double acc = rd3(&Aa, x - 1, y, z + 1) + 2 * rd3(&Aa, x + 1, y + 1, z - 1);
                acc += 10 * (rd3(&Ab, x - 1, y, z) + rd3(&Ab, x + 1, y, z) + rd3(&Ab, x, y - 1, z) +
                             rd3(&Ab, x, y + 1, z) + rd3(&Ab, x, y, z - 1) + rd3(&Ab, x, y, z + 1) +
                             2 * rd3(&Ab, x, y, z));
                for (int dz = -2; dz <= 2; dz++) acc += 1000 * (dz + 3) * rd3(&Ac, x, y, z + dz);
                acc += 7000 * rd3(&Ac, x + 2, y - 2, z);
                acc += 100000 * rd2(&Ad, x - 1, y + 1);
                e[(((long)z + 1) * (h + 2) + (y + 1)) * (w + 2) + (x + 1)] = acc;
            }
    Shape sh = {w + 2, h + 2, d + 2, 1, 3};
    char name[48];
    snprintf(name, sizeof name, "s3b (%d x %d x %d)", w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ba = lang_in(L, "a", T_UCHAR, na, a), *bb2 = lang_in(L, "b", T_FLOAT, nb, bb);
        void *bc = lang_in(L, "c", T_INT, nc, c), *bd = lang_in(L, "d", T_INT, nd, dd);
        void *o = lang_out(L, "o", T_DOUBLE, no, io, e, &sh);
        int rc = CHECK_CALL(b, s3b, ba, aw, ah, ad, bb2, w, h, d, bc, w, h, d, bd, dw, dh, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, s3b, rc), LANG_BUILD_LOG(b, s3b));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "shared_3d");
    static const int sizes[3][3] = {{13, 11, 9}, {3, 2, 1}, {1, 1, 1}};
    for (int s = 0; s < 3; s++) {
        test_s3a(&L, sizes[s][0], sizes[s][1], sizes[s][2]);
        test_s3b(&L, sizes[s][0], sizes[s][1], sizes[s][2]);
    }
    return lang_finish(&L);
}
