/* Oracle driver of tests/lang/halo.imcl: arrays with a ghost layer (halo). The
 * wrapper takes interior extents; a buffer holds (w+2n)*(h+2n)[*(d+2n)] elements and
 * interior point (x,y,z) is at ((z+n)*(h+2n) + (y+n))*(w+2n) + (x+n). Ghost cells of
 * the inputs hold values unlike the interior's, so reading them (or not) shows; the
 * ghost cells of the outputs must come back unchanged. Beyond the halo, the boundary
 * conditions apply over the storage range -n .. extent+n-1 (docs/language.md).
 * Integers exact; float inputs are multiples of 1/256 (exact sums); doubles 1e-12. */
#include "lang_common.h"

#include "c/h2.h"
#include "c/h3.h"
#include "c/hbeyond.h"
#ifdef CHECK_CUDA
#include "cuda/h2.h"
#include "cuda/h3.h"
#include "cuda/hbeyond.h"
#else
#include "opencl/h2.h"
#include "opencl/h3.h"
#include "opencl/hbeyond.h"
#endif

/* storage index of interior point (x,y,z), halo n, interior extents w,h */
static long hx(int x, int y, int z, int w, int h, int n)
{
    return (((long)z + n) * (h + 2 * n) + (y + n)) * (w + 2 * n) + (x + n);
}

/* the same for an Image (no halo in z) */
static long hx2(int x, int y, int w, int n) { return ((long)y + n) * (w + 2 * n) + (x + n); }

static int is_ghost(long i, int w, int h, int d, int n, int dims)
{
    int sw = w + 2 * n, sh = h + 2 * n;
    long x = i % sw, y = (i / sw) % sh, z = i / ((long)sw * sh);
    if (x < n || x >= w + n || y < n || y >= h + n) return 1;
    return dims == 3 && (z < n || z >= d + n);
}

static void test_h2(Lang *L)
{
    const int w = 37, h = 29;
    const long na = (long)(w + 2) * (h + 2), nb = (long)(w + 4) * (h + 4);
    float *a = lang_alloc(na, sizeof(float));
    double *bb = lang_dalloc(nb), *oinit = lang_dalloc(na), *e = lang_dalloc(na);
    Lcg g;
    lcg_seed(&g, 51);
    for (long i = 0; i < na; i++) {
        a[i] = lcg_quantized(&g, 8) + (is_ghost(i, w, h, 1, 1, 2) ? 10.0f : 0.0f);
        oinit[i] = is_ghost(i, w, h, 1, 1, 2) ? -500.0 - (double)i : NAN;
    }
    for (long i = 0; i < nb; i++) bb[i] = lcg_unit(&g) + (is_ghost(i, w, h, 1, 2, 2) ? 100.0 : 0.0);
    memcpy(e, oinit, (size_t)na * sizeof(double));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[hx2(x, y, w, 1)] = (double)(a[hx2(x - 1, y, w, 1)] + 2 * a[hx2(x + 1, y - 1, w, 1)] +
                                               4 * a[hx2(x, y + 1, w, 1)]) +
                                      8 * bb[hx2(x - 2, y - 2, w, 2)] + 16 * bb[hx2(x + 2, y + 2, w, 2)] +
                                      32 * bb[hx2(x + 2, y - 1, w, 2)] + 64 * bb[hx2(x, y, w, 2)];
    Shape sh = {w + 2, h + 2, 1, 1, 2};
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "h2");
        void *ia = lang_in(L, "a", T_FLOAT, na, a);
        void *ib = lang_in(L, "b", T_DOUBLE, nb, bb);
        void *o = lang_out(L, "o", T_DOUBLE, na, oinit, e, &sh);
        int rc = CHECK_CALL(b, h2, ia, w, h, ib, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, h2, rc), LANG_BUILD_LOG(b, h2));
    }
}

static void test_h3(Lang *L)
{
    const int w = 13, h = 11, d = 9;
    const long ng = (long)w * h * d, na = (long)(w + 4) * (h + 4) * (d + 4);
    int *gg = lang_alloc(ng, sizeof(int)), *a = lang_alloc(na, sizeof(int)), *oinit = lang_alloc(na, sizeof(int));
    double *e = lang_dalloc(na);
    Lcg g;
    lcg_seed(&g, 52);
    for (long i = 0; i < ng; i++) gg[i] = (int)(lcg_next(&g) % 1000);
    for (long i = 0; i < na; i++) {
        int ghost = is_ghost(i, w, h, d, 2, 3);
        a[i] = (int)(lcg_next(&g) % 100) + (ghost ? 5000 : 0);
        oinit[i] = ghost ? -1 - (int)i : INT_MIN;
        e[i] = oinit[i];
    }
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int acc = gg[((long)z * h + y) * w + x];
                for (int dz = -2; dz <= 2; dz++)
                    for (int dy = -2; dy <= 2; dy += 2)
                        for (int dx = -2; dx <= 2; dx += 4)
                            acc += (dx + 3 + 5 * (dy + 3) + 25 * (dz + 3)) * a[hx(x + dx, y + dy, z + dz, w, h, 2)];
                e[hx(x, y, z, w, h, 2)] = acc;
            }
    Shape sh = {w + 4, h + 4, d + 4, 2, 3};
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "h3");
        void *ig = lang_in(L, "g", T_INT, ng, gg);
        void *ia = lang_in(L, "a", T_INT, na, a);
        void *o = lang_out(L, "o", T_INT, na, oinit, e, &sh);
        int rc = CHECK_CALL(b, h3, ig, w, h, d, ia, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, h3, rc), LANG_BUILD_LOG(b, h3));
    }
}

/* A read of halo array A (interior w x h, halo n) with a boundary over the storage. */
enum { HB_CONST, HB_CLAMP, HB_PERIODIC, HB_MIRROR };
static int hb_read(const int *A, int w, int h, int n, int kind, int v, int x, int y)
{
    int sw = w + 2 * n, sh = h + 2 * n, sx = x + n, sy = y + n; /* storage coordinates */
    switch (kind) {
    case HB_CONST:
        if (sx < 0 || sx >= sw || sy < 0 || sy >= sh) return v;
        break;
    case HB_CLAMP: sx = clampi(sx, 0, sw - 1), sy = clampi(sy, 0, sh - 1); break;
    case HB_PERIODIC: sx = wrapi(sx, sw), sy = wrapi(sy, sh); break;
    case HB_MIRROR: sx = mirrori(sx, sw), sy = mirrori(sy, sh); break;
    }
    return A[(long)sy * sw + sx];
}

static void test_hbeyond(Lang *L, int w, int h)
{
    const long n1 = (long)(w + 2) * (h + 2), n2 = (long)(w + 4) * (h + 4);
    int *c = lang_alloc(n1, sizeof(int)), *cl = lang_alloc(n1, sizeof(int)), *p = lang_alloc(n2, sizeof(int));
    int *m = lang_alloc(n1, sizeof(int)), *oinit = lang_alloc(n2, sizeof(int));
    double *e = lang_dalloc(n2);
    Lcg g;
    lcg_seed(&g, 53);
    for (long i = 0; i < n1; i++) {
        int gh = is_ghost(i, w, h, 1, 1, 2) ? 50 : 0;
        c[i] = (int)(lcg_next(&g) % 50) + gh, cl[i] = (int)(lcg_next(&g) % 50) + gh;
        m[i] = (int)(lcg_next(&g) % 50) + gh;
    }
    for (long i = 0; i < n2; i++) {
        p[i] = (int)(lcg_next(&g) % 50) + (is_ghost(i, w, h, 1, 2, 2) ? 50 : 0);
        oinit[i] = is_ghost(i, w, h, 1, 2, 2) ? -3 - (int)i : INT_MIN;
        e[i] = oinit[i];
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int acc = 0;
            for (int dd = -3; dd <= 3; dd++)
                acc += (dd + 4) * (hb_read(c, w, h, 1, HB_CONST, -4, x + dd, y) +
                                   10 * hb_read(cl, w, h, 1, HB_CLAMP, 0, x, y - dd) +
                                   100 * hb_read(p, w, h, 2, HB_PERIODIC, 0, x + dd, y + dd) +
                                   1000 * hb_read(m, w, h, 1, HB_MIRROR, 0, x - dd, y + dd));
            e[hx2(x, y, w, 2)] = acc;
        }
    Shape sh = {w + 4, h + 4, 1, 2, 2};
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "hbeyond (tiny)" : "hbeyond");
        void *ic = lang_in(L, "c", T_INT, n1, c);
        void *icl = lang_in(L, "cl", T_INT, n1, cl);
        void *ip = lang_in(L, "p", T_INT, n2, p);
        void *im = lang_in(L, "m", T_INT, n1, m);
        void *o = lang_out(L, "o", T_INT, n2, oinit, e, &sh);
        int rc = CHECK_CALL(b, hbeyond, ic, w, h, icl, w, h, ip, w, h, im, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, hbeyond, rc), LANG_BUILD_LOG(b, hbeyond));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "halo");
    test_h2(&L);
    test_h3(&L);
    test_hbeyond(&L, 37, 29);
    test_hbeyond(&L, 1, 2);
    return lang_finish(&L);
}
