/* Oracle driver of tests/lang/shared_2d.imcl, run once per configuration of
 * shared_2d.params (arrays a and b of both kernels in shared memory): the oracle
 * reads through the boundary conditions itself (shared_common.h).
 *   snone2: boundary none with halo 1 (double) and 2 (int): reads into the ghost
 *           cells, which hold values unlike the interior's.
 *   sret2:  data-dependent early returns after the tiles are loaded, one inside a
 *           loop that reads a tile; o2 keeps its value where the point returned.
 * Grids 37 x 29 and smaller than any block (5 x 3, 1 x 1, 2 x 1). Integers exact;
 * float inputs are multiples of 1/256 (exact sums); doubles within 1e-12. */
#include "shared_common.h"

#include "c/snone2.h"
#include "c/sret2.h"
#ifdef CHECK_CUDA
#include "cuda/snone2.h"
#include "cuda/sret2.h"
#else
#include "opencl/snone2.h"
#include "opencl/sret2.h"
#endif

static void test_snone2(Lang *L, int w, int h)
{
    const long n = (long)w * h, na = (long)(w + 2) * (h + 2), nb = (long)(w + 4) * (h + 4);
    Lcg g;
    lcg_seed(&g, 402 + (uint64_t)w);
    double *a = rand_arr(&g, T_DOUBLE, na);
    int *bb = rand_arr(&g, T_INT, nb);
    /* ghost cells unlike the interior: reading the wrong one shows */
    for (long i = 0; i < na; i++) {
        long x = i % (w + 2), y = i / (w + 2);
        if (x == 0 || y == 0 || x == w + 1 || y == h + 1) a[i] += 50;
    }
    for (long i = 0; i < nb; i++) {
        long x = i % (w + 4), y = i / (w + 4);
        if (x < 2 || y < 2 || x >= w + 2 || y >= h + 2) bb[i] += 5000;
    }
    Arr Aa = arr2(B_NONE, 0, T_DOUBLE, a, w, h, 1), Ab = arr2(B_NONE, 0, T_INT, bb, w, h, 2);
    void *io = unset_arr(T_DOUBLE, n);
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) acc += (dx + 2 + 3 * (dy + 1)) * rd2(&Aa, x + dx, y + dy);
            for (int i = -2; i <= 2; i++) acc += 100 * (i + 3) * rd2(&Ab, x + i, y - i);
            e[(long)y * w + x] = acc + 10000 * rd2(&Ab, x, y + 2);
        }
    Shape sh = shape2(w, h);
    char name[48];
    snprintf(name, sizeof name, "snone2 (%d x %d)", w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ia = lang_in(L, "a", T_DOUBLE, na, a), *ib = lang_in(L, "b", T_INT, nb, bb);
        void *o = lang_out(L, "o", T_DOUBLE, n, io, e, &sh);
        int rc = CHECK_CALL(b, snone2, ia, w, h, ib, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, snone2, rc), LANG_BUILD_LOG(b, snone2));
    }
}

static void test_sret2(Lang *L, int w, int h)
{
    const int bw = 4, bh = 3; /* the periodic array */
    const long n = (long)w * h, nb = (long)bw * bh;
    Lcg g;
    lcg_seed(&g, 403 + (uint64_t)w);
    int *a = rand_arr(&g, T_INT, n);
    float *bb = rand_arr(&g, T_FLOAT, nb);
    Arr Aa = arr2(B_CLAMP, 0, T_INT, a, w, h, 0), Ab = arr2(B_PERIODIC, 0, T_FLOAT, bb, bw, bh, 0);
    int *i1 = unset_arr(T_INT, n);
    float *i2 = lang_alloc(n, sizeof(float));
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n);
    long written = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            int v = a[p];
            i2[p] = -5.0f - (float)p;
            e1[p] = v + 2 * rd2(&Aa, x - 1, y) + 4 * rd2(&Aa, x + 1, y + 1);
            e2[p] = i2[p];
            if (v % 3 == 0) continue;
            int ret = 0;
            for (int i = 0; i < 3 && !ret; i++)
                if ((int)rd2(&Aa, x, y - i) % 5 == 0) ret = 1;
            if (ret) continue;
            e2[p] = v * 7 + rd2(&Ab, x - 1, y + 2) * 2;
            written++;
        }
    if (n > 100 && (written < 20 || written > n - 20)) {
        fprintf(stderr, "shared_2d: degenerate inputs for sret2 (%ld of %ld written)\n", written, n);
        exit(1);
    }
    Shape sh = shape2(w, h);
    char name[48];
    snprintf(name, sizeof name, "sret2 (%d x %d)", w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ia = lang_in(L, "a", T_INT, n, a), *ib = lang_in(L, "b", T_FLOAT, nb, bb);
        void *o1 = lang_out(L, "o1", T_INT, n, i1, e1, &sh), *o2 = lang_out(L, "o2", T_FLOAT, n, i2, e2, &sh);
        int rc = CHECK_CALL(b, sret2, ia, w, h, ib, bw, bh, o1, w, h, o2, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, sret2, rc), LANG_BUILD_LOG(b, sret2));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "shared_2d");
    static const int sizes[4][2] = {{37, 29}, {5, 3}, {1, 1}, {2, 1}};
    for (int s = 0; s < 4; s++) {
        test_snone2(&L, sizes[s][0], sizes[s][1]);
        test_sret2(&L, sizes[s][0], sizes[s][1]);
    }
    return lang_finish(&L);
}
