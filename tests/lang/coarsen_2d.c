/* Oracle driver of tests/lang/coarsen_2d.imcl, run once per configuration of
 * coarsen_2d.params (thread coarsening, both mappings). The oracle is the kernels'
 * meaning per grid point, written in C: the C reference (which ignores coarsening)
 * and the device backend (which applies it) must both match it.
 *   cstencil: clamped reads, each point's coordinates, and outputs written only by
 *             points that did not return before (data-dependent returns, at the
 *             top level and in nested loops): a point after a returned one in the
 *             same thread must still write `after`, `mid`, `pos` and `o`.
 *   cbranch:  idx / idy / no coordinate in different branches (three calls).
 *   cgs:      grid_size grid inside a larger output, an empty grid, a 1 x 1 grid.
 * Grids 37 x 29, 5 x 3 and 1 x 1: no extent is a multiple of block x coarsening.
 * Everything is integer and exact (float inputs are multiples of 1/256). */
#include "lang_common.h"

#include "c/cbranch.h"
#include "c/cgs.h"
#include "c/cstencil.h"
#ifdef CHECK_CUDA
#include "cuda/cbranch.h"
#include "cuda/cgs.h"
#include "cuda/cstencil.h"
#else
#include "opencl/cbranch.h"
#include "opencl/cgs.h"
#include "opencl/cstencil.h"
#endif

static void test_cstencil(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int));
    int *io = lang_alloc(n, sizeof(int)), *ip = lang_alloc(n, sizeof(int));
    int *im = lang_alloc(n, sizeof(int)), *ia = lang_alloc(n, sizeof(int));
    double *eo = lang_dalloc(n), *ep = lang_dalloc(n), *em = lang_dalloc(n), *ea = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 201 + (uint64_t)w);
    for (long p = 0; p < n; p++) {
        in[p] = (int)(lcg_next(&g) % 1000);
        io[p] = INT_MIN, ip[p] = INT_MIN;            /* written by every point */
        im[p] = -1 - (int)p, ia[p] = -100000 - (int)p; /* kept where the point returned */
    }
#define IN(x, y) in[(long)clampi((y), 0, h - 1) * w + clampi((x), 0, w - 1)]
    long n_after = 0, n_mid = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            int v = in[p];
            ep[p] = x * 1000 + y;
            eo[p] = v + 2 * IN(x - 1, y) + 4 * IN(x + 1, y + 1) + 8 * IN(x, y - 2);
            em[p] = im[p], ea[p] = ia[p];
            if (v % 3 == 0) continue;
            em[p] = v * 5 - x;
            n_mid++;
            if (v % 11 <= 8) continue; /* the loops reach i * 3 + j == v % 11 */
            ea[p] = v * 3 + x - y;
            n_after++;
        }
#undef IN
    /* the data must exercise both outcomes, or the case proves nothing */
    if (n >= 100 && (n_after < 20 || n_mid == n || n_mid < 20)) {
        fprintf(stderr, "coarsen_2d: degenerate inputs (%ld after, %ld mid of %ld)\n", n_after, n_mid, n);
        exit(1);
    }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w == 37 ? "cstencil" : w == 5 ? "cstencil (5 x 3)" : "cstencil (1 x 1)");
        void *i0 = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "o", T_INT, n, io, eo, &sh);
        void *ps = lang_out(L, "pos", T_INT, n, ip, ep, &sh);
        void *md = lang_out(L, "mid", T_INT, n, im, em, &sh);
        void *af = lang_out(L, "after", T_INT, n, ia, ea, &sh);
        int rc = CHECK_CALL(b, cstencil, i0, w, h, o, w, h, ps, w, h, md, w, h, af, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cstencil, rc), LANG_BUILD_LOG(b, cstencil));
    }
}

static void test_cbranch(Lang *L)
{
    const int w = 37, h = 29;
    int col0[37], row0[29], one0[1] = {-5};
    double ecol[37], erow[29], eone[1];
    for (int x = 0; x < w; x++) col0[x] = -10 - x;
    for (int y = 0; y < h; y++) row0[y] = -100 - y;
    Shape sc = shape2(w, 1), sr = shape2(h, 1), so = shape2(1, 1);
    static const char *names[3] = {"cbranch (mode 0: idx only)", "cbranch (mode 1: idy only)",
                                   "cbranch (mode 2: no coordinate)"};
    for (int mode = 0; mode < 3; mode++) {
        for (int x = 0; x < w; x++) ecol[x] = (mode == 0 && x % 2 == 1) ? 3 * x + 1 : col0[x];
        for (int y = 0; y < h; y++) erow[y] = (mode == 1 && y >= 2) ? 5 * y + 2 : row0[y];
        eone[0] = mode == 2 ? w * h + 7 : one0[0];
        for (int b = 0; b < 2; b++) {
            lang_call_begin(L, b, names[mode]);
            void *c = lang_out(L, "col", T_INT, w, col0, ecol, &sc);
            void *r = lang_out(L, "row", T_INT, h, row0, erow, &sr);
            void *o = lang_out(L, "one", T_INT, 1, one0, eone, &so);
            int rc = CHECK_CALL(b, cbranch, c, w, 1, r, h, 1, o, 1, 1, w, h, mode);
            lang_call_end(L, rc, CHECK_STRERROR(b, cbranch, rc), LANG_BUILD_LOG(b, cbranch));
        }
    }
}

static void test_cgs(Lang *L, int nx, int ny)
{
    const int bw = 36, bh = 30, ow = 40, oh = 31;
    const long nb = (long)bw * bh, no = (long)ow * oh;
    float *big = lang_alloc(nb, sizeof(float));
    int *oi = lang_alloc(no, sizeof(int));
    double *e = lang_dalloc(no);
    Lcg g;
    lcg_seed(&g, 207);
    for (long p = 0; p < nb; p++) big[p] = lcg_quantized(&g, 8);
    for (long p = 0; p < no; p++) oi[p] = -3 - (int)p, e[p] = oi[p];
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            double bv = (x + 1 < bw && y < bh) ? big[(long)y * bw + x + 1] : -1.0;
            e[(long)y * ow + x] = x + 100 * y + 10000 * nx + 1000000 * ny + (int)(bv * 256);
        }
    Shape sh = shape2(ow, oh);
    char name[64];
    snprintf(name, sizeof name, "cgs (%d x %d)", nx, ny);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, name);
        void *ib = lang_in(L, "big", T_FLOAT, nb, big);
        void *o = lang_out(L, "o", T_INT, no, oi, e, &sh);
        int rc = CHECK_CALL(b, cgs, ib, bw, bh, o, ow, oh, nx, ny);
        lang_call_end(L, rc, CHECK_STRERROR(b, cgs, rc), LANG_BUILD_LOG(b, cgs));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "coarsen_2d");
    test_cstencil(&L, 37, 29);
    test_cstencil(&L, 5, 3);
    test_cstencil(&L, 1, 1);
    test_cbranch(&L);
    test_cgs(&L, 37, 29);
    test_cgs(&L, 1, 1);
    test_cgs(&L, 0, 29);
    return lang_finish(&L);
}
