/* Oracle driver of tests/lang/const_casts.imcl: narrowing casts in constant
 * expressions wrap around as in C. The oracle spells the offsets out as plain
 * numbers (+255, -1, 44 iterations, offsets -2..1), independently of any cast.
 * Halo arrays (in, lin: halo 1) are stored (w+2) x (h+2); a read at x is inside
 * the storage for -1 <= x <= w, else the constant boundary 0. */
#include "lang_common.h"

#include "c/cc_index.h"
#include "c/cc_local.h"
#include "c/cc_loop.h"
#include "c/cc_shared.h"
#include "c/cc_wrap.h"
#ifdef CHECK_CUDA
#include "cuda/cc_index.h"
#include "cuda/cc_local.h"
#include "cuda/cc_loop.h"
#include "cuda/cc_shared.h"
#include "cuda/cc_wrap.h"
#else
#include "opencl/cc_index.h"
#include "opencl/cc_local.h"
#include "opencl/cc_loop.h"
#include "opencl/cc_shared.h"
#include "opencl/cc_wrap.h"
#endif

/* Element (x, y) of a halo-1 array of interior w x h, 0 outside its storage. */
static int halo_read(const int *a, int w, int h, int x, int y)
{
    if (x < -1 || x > w || y < -1 || y > h) return 0;
    return a[(long)(y + 1) * (w + 2) + (x + 1)];
}

static int *random_ints(Lcg *g, long n)
{
    int *p = lang_alloc(n, sizeof(int));
    for (long i = 0; i < n; i++) p[i] = (int)(lcg_next(g) % 100) + 1; /* never 0 */
    return p;
}

static int *sentinel_ints(long n)
{
    int *p = lang_alloc(n, sizeof(int));
    for (long i = 0; i < n; i++) p[i] = INT_MIN;
    return p;
}

/* cc_index and cc_local: w is larger than 255, so that some points read inside. */
static void test_index(Lang *L, int w, int h)
{
    const long n = (long)w * h, nh = (long)(w + 2) * (h + 2);
    Lcg g;
    lcg_seed(&g, 171);
    int *in = random_ints(&g, nh), *init = sentinel_ints(n);
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            e1[(long)y * w + x] = halo_read(in, w, h, x + 255, y);
            e2[(long)y * w + x] = halo_read(in, w, h, x + 255, y) + 1000 * halo_read(in, w, h, x - 1, y);
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "cc_index");
        void *i = lang_in(L, "in", T_INT, nh, in);
        void *o = lang_out(L, "out", T_INT, n, init, e1, &sh);
        int rc = CHECK_CALL(b, cc_index, i, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cc_index, rc), LANG_BUILD_LOG(b, cc_index));

        lang_call_begin(L, b, "cc_local");
        i = lang_in(L, "lin", T_INT, nh, in);
        o = lang_out(L, "out", T_INT, n, init, e2, &sh);
        rc = CHECK_CALL(b, cc_local, i, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cc_local, rc), LANG_BUILD_LOG(b, cc_local));
    }
}

/* cc_shared: clamped reads one column left and one row up. */
static void test_shared(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 172);
    float *in = lang_alloc(n, sizeof(float));
    for (long i = 0; i < n; i++) in[i] = lcg_quantized(&g, 8);
    float *init = lang_alloc(n, sizeof(float));
    for (long i = 0; i < n; i++) init[i] = NAN;
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            e[(long)y * w + x] = in[(long)y * w + clampi(x - 1, 0, w - 1)] +
                                 2.0f * in[(long)clampi(y - 1, 0, h - 1) * w + x];
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "cc_shared (tiny)" : "cc_shared");
        void *i = lang_in(L, "sin", T_FLOAT, n, in);
        void *o = lang_out(L, "out", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(b, cc_shared, i, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cc_shared, rc), LANG_BUILD_LOG(b, cc_shared));
    }
}

/* cc_loop: 0 + 1 + ... + 43 = 946; cc_wrap: offsets -2, -1, 0, 1 (constant 0). */
static void test_loops(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 173);
    int *in = random_ints(&g, n), *init = sentinel_ints(n);
    double *e1 = lang_dalloc(n), *e2 = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long acc = 0;
            for (int dx = -2; dx <= 1; dx++)
                acc = 10 * acc + (x + dx >= 0 && x + dx < w ? in[(long)y * w + x + dx] : 0);
            e1[(long)y * w + x] = 946 + x;
            e2[(long)y * w + x] = (double)acc;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "cc_loop");
        void *o = lang_out(L, "out", T_INT, n, init, e1, &sh);
        int rc = CHECK_CALL(b, cc_loop, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cc_loop, rc), LANG_BUILD_LOG(b, cc_loop));

        lang_call_begin(L, b, "cc_wrap");
        void *i = lang_in(L, "win", T_INT, n, in);
        o = lang_out(L, "out", T_INT, n, init, e2, &sh);
        rc = CHECK_CALL(b, cc_wrap, i, w, h, o, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, cc_wrap, rc), LANG_BUILD_LOG(b, cc_wrap));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "const_casts");
    test_index(&L, 300, 5);
    test_index(&L, 7, 3);
    test_shared(&L, 37, 29);
    test_shared(&L, 1, 2);
    test_loops(&L, 33, 9);
    return lang_finish(&L);
}
