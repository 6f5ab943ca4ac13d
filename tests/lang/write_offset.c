/* Oracle driver of tests/lang/write_offset.imcl: writes outside the written array are
 * dropped; the elements nobody writes keep their initial values; guard bytes around
 * every buffer stay intact; a statement whose write is dropped is skipped with its
 * side effects (docs/language.md). Integers exact, floats exact (copies). */
#include "lang_common.h"

#include "c/wo2.h"
#include "c/wo3.h"
#include "c/wo4.h"
#ifdef CHECK_CUDA
#include "cuda/wo2.h"
#include "cuda/wo3.h"
#include "cuda/wo4.h"
#else
#include "opencl/wo2.h"
#include "opencl/wo3.h"
#include "opencl/wo4.h"
#endif

static void test_wo2(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *init[5];
    double *e[5];
    Lcg g;
    lcg_seed(&g, 151);
    for (long p = 0; p < n; p++) in[p] = (int)(lcg_next(&g) % 1000);
    for (int k = 0; k < 5; k++) {
        init[k] = lang_alloc(n, sizeof(int));
        e[k] = lang_dalloc(n);
        for (long p = 0; p < n; p++) init[k][p] = -1 - (int)p - 10000 * k, e[k][p] = init[k][p];
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = in[y * w + x];
            int tx = x + 2, ty = y - 1;
            if (tx < w && ty >= 0) e[0][ty * w + tx] = v;
            tx = 2 * x, ty = y / 2;
            if (tx < w) e[1][ty * w + tx] = x + 1000 * (y / 2);
            tx = w - x + 1;
            if (tx < w) e[2][y * w + tx] = v;
            tx = x - 3, ty = y + 4;
            if (tx >= 0 && ty < h) e[3][ty * w + tx] += v;
            tx = x + in[y * w] % 5 - 2;
            if (tx >= 0 && tx < w) e[4][y * w + tx] += 1;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "wo2");
        void *pi = lang_in(L, "in", T_INT, n, in);
        void *o[5];
        static const char *nm[5] = {"o1", "o2", "o3", "o4", "o5"};
        for (int k = 0; k < 5; k++) o[k] = lang_out(L, nm[k], T_INT, n, init[k], e[k], &sh);
        int rc = CHECK_CALL(b, wo2, pi, w, h, o[0], w, h, o[1], w, h, o[2], w, h, o[3], w, h, o[4], w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, wo2, rc), LANG_BUILD_LOG(b, wo2));
    }
}

static void test_wo3(Lang *L)
{
    const int w = 13, h = 11, d = 9, sw = 37, shh = 29;
    const long n = (long)w * h * d, ns = (long)sw * shh;
    float *in = lang_alloc(n, sizeof(float)), *oinit = lang_alloc(n, sizeof(float));
    int *sinit = lang_alloc(ns, sizeof(int)), *cinit = lang_alloc(ns, sizeof(int));
    double *eo = lang_dalloc(n), *es = lang_dalloc(ns), *ec = lang_dalloc(ns);
    Lcg g;
    lcg_seed(&g, 152);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8), oinit[p] = -1.0f - (float)p, eo[p] = oinit[p];
    for (long p = 0; p < ns; p++) sinit[p] = -7, cinit[p] = -9, es[p] = -7, ec[p] = -9;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int tx = x - 3, ty = y + 1, tz = z - 2;
                if (tx >= 0 && ty < h && tz >= 0) eo[((long)tz * h + ty) * w + tx] = in[((long)z * h + y) * w + x];
                int t = 0;
                if (x + 30 < sw && y + z * 100 < shh) es[(long)(y + z * 100) * sw + x + 30] = t++;
                if (z == 0) ec[(long)y * sw + x] = t;
            }
    Shape sb = shape3(w, h, d), si = shape2(sw, shh);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "wo3");
        void *pi = lang_in(L, "in", T_FLOAT, n, in);
        void *po = lang_out(L, "o", T_FLOAT, n, oinit, eo, &sb);
        void *ps = lang_out(L, "side", T_INT, ns, sinit, es, &si);
        void *pc = lang_out(L, "tally", T_INT, ns, cinit, ec, &si);
        int rc = CHECK_CALL(b, wo3, pi, w, h, d, po, w, h, d, ps, sw, shh, pc, sw, shh);
        lang_call_end(L, rc, CHECK_STRERROR(b, wo3, rc), LANG_BUILD_LOG(b, wo3));
    }
}

/* wo4: a dropped write read back gives the boundary value */
static void test_wo4(Lang *L)
{
    const int w = 9, h = 7;
    const long n = (long)w * h;
    int *in = lang_alloc(n, sizeof(int)), *oinit = lang_alloc(n, sizeof(int)), *sinit = lang_alloc(n, sizeof(int));
    double *eo = lang_dalloc(n), *es = lang_dalloc(n);
    for (long p = 0; p < n; p++) {
        in[p] = (int)(p * 7 % 23) - 11;
        oinit[p] = -100 - (int)p, eo[p] = oinit[p];
        sinit[p] = -500, es[p] = sinit[p];
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = in[y * w + x] + 1;
            if (y >= 2)
                eo[(y - 2) * w + x] = v + 10;
            es[y * w + x] = y >= 2 ? v : 0;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "wo4");
        void *pi = lang_in(L, "in", T_INT, n, in);
        void *po = lang_out(L, "o", T_INT, n, oinit, eo, &sh);
        void *ps = lang_out(L, "seen", T_INT, n, sinit, es, &sh);
        int rc = CHECK_CALL(b, wo4, pi, w, h, po, w, h, ps, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, wo4, rc), LANG_BUILD_LOG(b, wo4));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "write_offset");
    test_wo2(&L);
    test_wo3(&L);
    test_wo4(&L);
    return lang_finish(&L);
}
