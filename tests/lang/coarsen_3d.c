/* Oracle driver of tests/lang/coarsen_3d.imcl, run once per configuration of
 * coarsen_3d.params (coarsening in x, y and z, both mappings). The oracle is each
 * kernel's meaning per grid point, in C:
 *   c3:       constant(-3) 7-point stencil, coordinates, and `after` written only by
 *             points whose data-dependent return (inside a loop) was not taken;
 *   c3branch: the z = 0 plane and the x = y = 0 line (coordinates used only in
 *             branches, a return in one of them);
 *   c3gs:     a grid_size grid inside a larger output, periodic reads of a smaller
 *             array;
 *   c3acc:    adds to the array it writes (each point exactly once).
 * Grids 13 x 11 x 9 and 2 x 1 x 3. Integers exact; doubles exact here (float inputs
 * are multiples of 1/256), compared within 1e-12. */
#include "lang_common.h"

#include "c/c3.h"
#include "c/c3branch.h"
#include "c/c3gs.h"
#include "c/c3acc.h"
#ifdef CHECK_CUDA
#include "cuda/c3.h"
#include "cuda/c3branch.h"
#include "cuda/c3gs.h"
#include "cuda/c3acc.h"
#else
#include "opencl/c3.h"
#include "opencl/c3branch.h"
#include "opencl/c3gs.h"
#include "opencl/c3acc.h"
#endif

static void test_c3(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    int *in = lang_alloc(n, sizeof(int)), *io = lang_alloc(n, sizeof(int));
    int *ip = lang_alloc(n, sizeof(int)), *ia = lang_alloc(n, sizeof(int));
    double *eo = lang_dalloc(n), *ep = lang_dalloc(n), *ea = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 301 + (uint64_t)w);
    for (long p = 0; p < n; p++) {
        in[p] = (int)(lcg_next(&g) % 1000) - 300;
        io[p] = INT_MIN, ip[p] = INT_MIN, ia[p] = -7 - (int)p;
    }
    long n_after = 0;
#define IN(x, y, z)                                                                         \
    (((x) < 0 || (x) >= w || (y) < 0 || (y) >= h || (z) < 0 || (z) >= d) ? -3             \
                                                                            : in[((long)(z) * h + (y)) * w + (x)])
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                int v = in[p];
                ep[p] = x + 100 * y + 10000 * z;
                eo[p] = v + 2 * IN(x - 1, y, z) + 4 * IN(x + 1, y, z) + 8 * IN(x, y - 1, z) + 16 * IN(x, y + 1, z) +
                        32 * IN(x, y, z - 1) + 64 * IN(x, y, z + 1);
                ea[p] = ia[p];
                if (v % 7 >= 0 && v % 7 < 4) continue; /* C's % of a negative v is <= 0 */
                ea[p] = v * 2 + z - x;
                n_after++;
            }
#undef IN
    if (n >= 100 && (n_after < 20 || n_after > n - 20)) {
        fprintf(stderr, "coarsen_3d: degenerate inputs (%ld of %ld points return)\n", n - n_after, n);
        exit(1);
    }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w > 2 ? "c3" : "c3 (2 x 1 x 3)");
        void *i0 = lang_in(L, "in", T_INT, n, in);
        void *o = lang_out(L, "o", T_INT, n, io, eo, &sh);
        void *ps = lang_out(L, "pos", T_INT, n, ip, ep, &sh);
        void *af = lang_out(L, "after", T_INT, n, ia, ea, &sh);
        int rc = CHECK_CALL(b, c3, i0, w, h, d, o, w, h, d, ps, w, h, d, af, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, c3, rc), LANG_BUILD_LOG(b, c3));
    }
}

static void test_c3branch(Lang *L, int nx, int ny, int nz)
{
    const long np = (long)nx * ny;
    int *p0 = lang_alloc(np, sizeof(int)), *l0 = lang_alloc(nz, sizeof(int));
    double *ep = lang_dalloc(np), *el = lang_dalloc(nz);
    for (long p = 0; p < np; p++) p0[p] = INT_MIN;
    for (int z = 0; z < nz; z++) l0[z] = -1 - z;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) ep[(long)y * nx + x] = x * 7 + y * 1000 + nz;
    for (int z = 0; z < nz; z++) el[z] = z == 0 ? l0[z] : z * 3 + 1;
    Shape sp = shape2(nx, ny), sl = shape2(nz, 1);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, nx > 2 ? "c3branch" : "c3branch (2 x 1 x 3)");
        void *pl = lang_out(L, "plane", T_INT, np, p0, ep, &sp);
        void *li = lang_out(L, "line", T_INT, nz, l0, el, &sl);
        int rc = CHECK_CALL(b, c3branch, pl, nx, ny, li, nz, 1, nx, ny, nz);
        lang_call_end(L, rc, CHECK_STRERROR(b, c3branch, rc), LANG_BUILD_LOG(b, c3branch));
    }
}

static void test_c3gs(Lang *L, int nx, int ny, int nz)
{
    const int sw = 7, shh = 5, sd = 4, ow = 15, oh = 12, od = 10;
    const long ns = (long)sw * shh * sd, no = (long)ow * oh * od;
    float *src = lang_alloc(ns, sizeof(float));
    double *oi = lang_dalloc(no), *e = lang_dalloc(no);
    Lcg g;
    lcg_seed(&g, 303);
    for (long p = 0; p < ns; p++) src[p] = lcg_quantized(&g, 8);
    for (long p = 0; p < no; p++) oi[p] = -0.5 - (double)p, e[p] = oi[p];
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                double s = src[((long)wrapi(z + 1, sd) * shh + wrapi(y + 2, shh)) * sw + wrapi(x - 1, sw)];
                e[((long)z * oh + y) * ow + x] = s * 4 + x + 100 * y + 10000 * z + nx * 0.5 + ny * 0.25 + nz;
            }
    Shape sh = shape3(ow, oh, od);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, nx > 2 ? "c3gs" : "c3gs (2 x 1 x 3)");
        void *is = lang_in(L, "src", T_FLOAT, ns, src);
        void *o = lang_out(L, "o", T_DOUBLE, no, oi, e, &sh);
        int rc = CHECK_CALL(b, c3gs, is, sw, shh, sd, o, ow, oh, od, nx, ny, nz);
        lang_call_end(L, rc, CHECK_STRERROR(b, c3gs, rc), LANG_BUILD_LOG(b, c3gs));
    }
}

static void test_c3acc(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    int *in = lang_alloc(n, sizeof(int)), *ia = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 305 + (uint64_t)w);
    for (long p = 0; p < n; p++) {
        in[p] = (int)(lcg_next(&g) % 1000) - 300;
        ia[p] = (int)(lcg_next(&g) % 100);
        e[p] = ia[p] + in[p] * 2 + 1;
    }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w > 2 ? "c3acc" : "c3acc (2 x 1 x 3)");
        void *i0 = lang_in(L, "in", T_INT, n, in);
        void *a = lang_out(L, "acc", T_INT, n, ia, e, &sh);
        int rc = CHECK_CALL(b, c3acc, i0, w, h, d, a, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, c3acc, rc), LANG_BUILD_LOG(b, c3acc));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "coarsen_3d");
    test_c3(&L, 13, 11, 9);
    test_c3(&L, 2, 1, 3);
    test_c3branch(&L, 13, 11, 9);
    test_c3branch(&L, 2, 1, 3);
    test_c3gs(&L, 13, 11, 9);
    test_c3gs(&L, 2, 1, 3);
    test_c3acc(&L, 13, 11, 9);
    test_c3acc(&L, 2, 1, 3);
    return lang_finish(&L);
}
