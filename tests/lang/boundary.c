/* Oracle driver of tests/lang/boundary.imcl: every boundary condition on reads of
 * Images and Blocks, offsets up to +-3, corners, data-dependent offsets, on ordinary
 * and tiny extents (1 and 2, where the offsets reach past the whole array).
 * The oracle implements the conditions itself (docs/language.md):
 *   constant(v): v converted to the element type when any coordinate is outside;
 *   clamped: each coordinate clamped into [0, n-1];
 *   periodic: each coordinate modulo n;
 *   mirror: reflected with the edge repeated, -1 -> 0, n -> n-1 (period 2n);
 *   none: only reads that stay inside.
 * Sums are computed in double (exact for the integer types; uint results are then
 * reduced modulo 2^32). Float inputs are multiples of 1/256 in [0, 1), so float sums
 * are exact except those holding 0.1f (float tolerance 1e-5); doubles within 1e-12. */
#include "lang_common.h"

#include "c/bblock.h"
#include "c/bconst.h"
#include "c/bwrap.h"
#ifdef CHECK_CUDA
#include "cuda/bblock.h"
#include "cuda/bconst.h"
#include "cuda/bwrap.h"
#else
#include "opencl/bblock.h"
#include "opencl/bconst.h"
#include "opencl/bwrap.h"
#endif

typedef enum { B_CONST, B_CLAMP, B_PERIODIC, B_MIRROR, B_NONE } BKind;

typedef struct {
    BKind k;
    double v; /* constant value, already converted to the element type */
    ElemType t;
    const void *a;
    int w, h, d;
} Arr;

static double rd(const Arr *A, int x, int y, int z)
{
    switch (A->k) {
    case B_CONST:
        if (x < 0 || x >= A->w || y < 0 || y >= A->h || z < 0 || z >= A->d) return A->v;
        break;
    case B_CLAMP:
        x = clampi(x, 0, A->w - 1), y = clampi(y, 0, A->h - 1), z = clampi(z, 0, A->d - 1);
        break;
    case B_PERIODIC:
        x = wrapi(x, A->w), y = wrapi(y, A->h), z = wrapi(z, A->d);
        break;
    case B_MIRROR:
        x = mirrori(x, A->w), y = mirrori(y, A->h), z = mirrori(z, A->d);
        break;
    case B_NONE:
        if (x < 0 || x >= A->w || y < 0 || y >= A->h || z < 0 || z >= A->d) {
            fprintf(stderr, "oracle bug: read outside a 'none' array\n");
            exit(1);
        }
        break;
    }
    return lang_get(A->t, A->a, ((long)z * A->h + y) * A->w + x);
}

/* The ST(A) stencil of boundary.imcl at (x, y), data-dependent offset s. */
static double st(const Arr *A, int x, int y, int s)
{
    return rd(A, x - 3, y, 0) + 2 * rd(A, x + 3, y, 0) + 4 * rd(A, x, y - 3, 0) + 8 * rd(A, x, y + 3, 0) +
           16 * rd(A, x - 2, y + 2, 0) + 32 * rd(A, x + 2, y - 2, 0) + 64 * rd(A, x - 1, y - 1, 0) +
           128 * rd(A, x + 1, y + 1, 0) + 256 * rd(A, x + 3, y + 3, 0) + 512 * rd(A, x - 3, y - 3, 0) +
           1024 * rd(A, x, y, 0) + 2048 * rd(A, x + s, y - s, 0);
}

static double mod32(double v) { return fmod(fmod(v, 4294967296.0) + 4294967296.0, 4294967296.0); }

/* A random array of type t, n elements: floats are multiples of 1/256 in [0,1). */
static void *rand_arr(Lcg *g, ElemType t, long n)
{
    void *p = lang_alloc(n, lang_esize(t));
    for (long i = 0; i < n; i++) {
        uint32_t r = lcg_next(g);
        double v;
        switch (t) {
        case T_CHAR: v = (double)(int)(r % 256) - 128; break;
        case T_UCHAR: v = r % 256; break;
        case T_SHORT: v = (double)(int)(r % 2000) - 1000; break;
        case T_USHORT: v = r % 65536; break;
        case T_INT: v = (double)(int)(r % 200001) - 100000; break;
        case T_UINT: v = r; break;
        default: v = (r >> 24) / 256.0; break;
        }
        lang_set(t, p, i, v);
    }
    return p;
}

static void *nan_init(ElemType t, long n)
{
    void *p = lang_alloc(n, lang_esize(t));
    memset(p, 0x7f, (size_t)n * lang_esize(t)); /* NaN for float and double, a large value otherwise */
    return p;
}

static void test_bconst(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 41 + (uint64_t)w);
    int *sel = lang_alloc(n, sizeof(int));
    for (long p = 0; p < n; p++) sel[p] = (int)(lcg_next(&g) % 9) - 4;
    enum { NK = 9 };
    const ElemType it[NK] = {T_FLOAT, T_INT, T_FLOAT, T_DOUBLE, T_FLOAT, T_INT, T_UCHAR, T_UINT, T_CHAR};
    const double cv[NK] = {0, 0, 7, -2.5, (double)0.1f, 2, 200, 4294967295.0, -5};
    const ElemType ot[NK] = {T_FLOAT, T_INT, T_FLOAT, T_DOUBLE, T_FLOAT, T_INT, T_INT, T_UINT, T_INT};
    static const char *inames[NK] = {"k0", "kc", "kv", "kf", "kfl", "ki", "ku", "kuu", "kch"};
    static const char *onames[NK] = {"o0", "oc", "ov", "of", "ofl", "oi", "ou", "ouu", "och"};
    void *in[NK];
    Arr A[NK];
    double *e[NK + 1];
    void *init[NK + 1];
    for (int k = 0; k < NK; k++) {
        in[k] = rand_arr(&g, it[k], n);
        A[k] = (Arr){B_CONST, cv[k], it[k], in[k], w, h, 1};
        e[k] = lang_dalloc(n);
        init[k] = nan_init(ot[k], n);
    }
    e[NK] = lang_dalloc(n); /* ofl1 */
    init[NK] = nan_init(T_DOUBLE, n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            for (int k = 0; k < NK; k++) {
                double v = st(&A[k], x, y, sel[p]);
                e[k][p] = ot[k] == T_UINT ? mod32(v) : v;
            }
            e[NK][p] = (double)((float)rd(&A[4], x - 3, y + 1, 0) - 0.1f) * 1e9;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "bconst (tiny)" : "bconst");
        void *isel = lang_in(L, "sel", T_INT, n, sel);
        void *ii[NK], *oo[NK + 1];
        for (int k = 0; k < NK; k++) ii[k] = lang_in(L, inames[k], it[k], n, in[k]);
        for (int k = 0; k < NK; k++) oo[k] = lang_out(L, onames[k], ot[k], n, init[k], e[k], &sh);
        oo[NK] = lang_out(L, "ofl1", T_DOUBLE, n, init[NK], e[NK], &sh);
        int rc = CHECK_CALL(b, bconst, isel, w, h, ii[0], w, h, ii[1], w, h, ii[2], w, h, ii[3], w, h, ii[4], w, h,
                            ii[5], w, h, ii[6], w, h, ii[7], w, h, ii[8], w, h, oo[0], w, h, oo[1], w, h, oo[2], w, h,
                            oo[3], w, h, oo[4], w, h, oo[NK], w, h, oo[5], w, h, oo[6], w, h, oo[7], w, h, oo[8], w,
                            h);
        lang_call_end(L, rc, CHECK_STRERROR(b, bconst, rc), LANG_BUILD_LOG(b, bconst));
    }
}

static void test_bwrap(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 43 + (uint64_t)w);
    int *sel = lang_alloc(n, sizeof(int));
    for (long p = 0; p < n; p++) sel[p] = (int)(lcg_next(&g) % 9) - 4;
    enum { NK = 5 };
    const ElemType it[NK] = {T_FLOAT, T_DOUBLE, T_INT, T_FLOAT, T_SHORT};
    const BKind bk[NK] = {B_CLAMP, B_PERIODIC, B_MIRROR, B_NONE, B_PERIODIC};
    const ElemType ot[NK] = {T_FLOAT, T_DOUBLE, T_INT, T_FLOAT, T_INT};
    static const char *inames[NK] = {"kcl", "kp", "km", "kn", "kpi"};
    static const char *onames[NK] = {"ocl", "op", "om", "on", "opi"};
    void *in[NK], *init[NK];
    Arr A[NK];
    double *e[NK];
    for (int k = 0; k < NK; k++) {
        in[k] = rand_arr(&g, it[k], n);
        A[k] = (Arr){bk[k], 0, it[k], in[k], w, h, 1};
        e[k] = lang_dalloc(n);
        init[k] = nan_init(ot[k], n);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long p = (long)y * w + x;
            for (int k = 0; k < NK; k++)
                if (k != 3) e[k][p] = st(&A[k], x, y, sel[p]);
            e[3][p] = rd(&A[3], w - 1 - x, y, 0) + 2 * rd(&A[3], x, h - 1 - y, 0) + 4 * rd(&A[3], (x + 3) % w, y, 0) +
                      8 * rd(&A[3], x, y - 3 > 0 ? y - 3 : 0, 0);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "bwrap (tiny)" : "bwrap");
        void *isel = lang_in(L, "sel", T_INT, n, sel);
        void *ii[NK], *oo[NK];
        for (int k = 0; k < NK; k++) ii[k] = lang_in(L, inames[k], it[k], n, in[k]);
        for (int k = 0; k < NK; k++) oo[k] = lang_out(L, onames[k], ot[k], n, init[k], e[k], &sh);
        int rc = CHECK_CALL(b, bwrap, isel, w, h, ii[0], w, h, ii[1], w, h, ii[2], w, h, ii[3], w, h, ii[4], w, h,
                            oo[0], w, h, oo[1], w, h, oo[2], w, h, oo[3], w, h, oo[4], w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, bwrap, rc), LANG_BUILD_LOG(b, bwrap));
    }
}

static void test_bblock(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    Lcg g;
    lcg_seed(&g, 47 + (uint64_t)w);
    int *sel = lang_alloc(n, sizeof(int));
    for (long p = 0; p < n; p++) sel[p] = (int)(lcg_next(&g) % 9) - 4;
    enum { NK = 5 };
    const ElemType it[NK] = {T_DOUBLE, T_FLOAT, T_DOUBLE, T_INT, T_INT};
    const BKind bk[NK] = {B_CONST, B_CLAMP, B_PERIODIC, B_MIRROR, B_CONST};
    const double cv[NK] = {-1.5, 0, 0, 0, 3};
    static const char *inames[NK] = {"bc", "bcl", "bp", "bm", "bi"};
    static const char *onames[NK] = {"oc", "ocl", "op", "om", "oi"};
    void *in[NK], *init[NK];
    Arr A[NK];
    double *e[NK];
    for (int k = 0; k < NK; k++) {
        in[k] = rand_arr(&g, it[k], n);
        if (it[k] == T_INT)
            for (long p = 0; p < n; p++) ((int *)in[k])[p] = ((int *)in[k])[p] % 1000;
        A[k] = (Arr){bk[k], cv[k], it[k], in[k], w, h, d};
        e[k] = lang_dalloc(n);
        init[k] = nan_init(it[k], n);
    }
    /* the data-dependent offsets of each output: (sx, sy, sz) as multiples of s */
    const int so[NK][3] = {{1, -1, 1}, {-1, 1, -1}, {1, 1, 1}, {-1, -1, 1}, {0, 0, -1}};
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                int s = sel[p];
                for (int k = 0; k < NK; k++) {
                    double acc = 0;
                    for (int dz = -3; dz <= 3; dz += 3)
                        for (int dy = -2; dy <= 2; dy += 2)
                            for (int dx = -3; dx <= 3; dx++) {
                                int wgt = (dx + 4) + 8 * (dy + 3) + 64 * (dz + 4);
                                acc += wgt * rd(&A[k], x + dx, y + dy, z + dz);
                            }
                    e[k][p] = acc + 1000 * rd(&A[k], x + so[k][0] * s, y + so[k][1] * s, z + so[k][2] * s);
                }
            }
    /* none and the default boundary */
    void *bn = rand_arr(&g, T_FLOAT, n), *b0 = rand_arr(&g, T_INT, n), *ninit = nan_init(T_DOUBLE, n);
    Arr An = {B_NONE, 0, T_FLOAT, bn, w, h, d}, A0 = {B_CONST, 0, T_INT, b0, w, h, d};
    double *en = lang_dalloc(n);
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
            {
                /* float + int is float: the whole sum is float arithmetic, left to right */
                float r = (float)rd(&An, w - 1 - x, y, (z + 3) % d) + 2 * (float)rd(&An, x, h - 1 - y, d - 1 - z);
                r = r + 4 * (int)rd(&A0, x, y, z - 3);
                r = r + 8 * (int)rd(&A0, x + 3, y - 3, z + 3);
                r = r + 16 * (int)rd(&A0, x, y, z);
                en[((long)z * h + y) * w + x] = r;
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "bblock (tiny)" : "bblock");
        void *isel = lang_in(L, "sel", T_INT, n, sel);
        void *ii[NK], *oo[NK];
        for (int k = 0; k < NK; k++) ii[k] = lang_in(L, inames[k], it[k], n, in[k]);
        for (int k = 0; k < NK; k++) oo[k] = lang_out(L, onames[k], it[k], n, init[k], e[k], &sh);
        void *ibn = lang_in(L, "bn", T_FLOAT, n, bn), *ib0 = lang_in(L, "b0", T_INT, n, b0);
        void *on = lang_out(L, "onone", T_DOUBLE, n, ninit, en, &sh);
        int rc = CHECK_CALL(b, bblock, isel, w, h, d, ii[0], w, h, d, ii[1], w, h, d, ii[2], w, h, d, ii[3], w, h, d,
                            ii[4], w, h, d, oo[0], w, h, d, oo[1], w, h, d, oo[2], w, h, d, oo[3], w, h, d, oo[4], w,
                            h, d, ibn, w, h, d, ib0, w, h, d, on, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(b, bblock, rc), LANG_BUILD_LOG(b, bblock));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "boundary");
    test_bconst(&L, 37, 29);
    test_bconst(&L, 2, 3);
    test_bconst(&L, 1, 1);
    test_bwrap(&L, 37, 29);
    test_bwrap(&L, 2, 3);
    test_bwrap(&L, 1, 5);
    test_bblock(&L, 13, 11, 9);
    test_bblock(&L, 2, 1, 3);
    test_bblock(&L, 1, 1, 1);
    return lang_finish(&L);
}
