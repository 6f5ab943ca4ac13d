/* Oracle driver of tests/lang/interior.imcl: guard-free interiors. The oracle
 * applies every boundary condition itself (boundary.c's way): constant(3) for a,
 * clamped for b, periodic over the storage (halo 1) for h, mirror for c; a write
 * outside the array is dropped. Grids: large ones with many inner blocks, and
 * thin ones (1 to 3 points in a dimension) that have none. */
#include "lang_common.h"

#include "c/in2.h"
#include "c/in3.h"
#ifdef CHECK_CUDA
#include "cuda/in2.h"
#include "cuda/in3.h"
#else
#include "opencl/in2.h"
#include "opencl/in3.h"
#endif

static void test_in2(Lang *L, int w, int h, int s)
{
    const long n = (long)w * h, nh = (long)(w + 2) * (h + 2);
    Lcg g;
    lcg_seed(&g, 191 + (uint64_t)w * 7 + (uint64_t)h);
    int *a = lang_alloc(n, sizeof(int)), *b = lang_alloc(n, sizeof(int)), *hh = lang_alloc(nh, sizeof(int));
    int *init = lang_alloc(n, sizeof(int));
    for (long i = 0; i < n; i++) {
        a[i] = (int)(lcg_next(&g) % 9) + 1;
        b[i] = (int)(lcg_next(&g) % 9) + 1;
        init[i] = INT_MIN;
    }
    for (long i = 0; i < nh; i++) hh[i] = (int)(lcg_next(&g) % 9) + 1;
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long v = 0;
            for (int dx = -3; dx <= 1; dx++) {
                int xx = x + dx, yy = y - 2;
                v += (dx + 5) * (xx >= 0 && xx < w && yy >= 0 && yy < h ? a[(long)yy * w + xx] : 3);
            }
            v += 10 * b[(long)clampi(y + 2, 0, h - 1) * w + clampi(x + 2, 0, w - 1)];
            v += 100 * b[(long)clampi(y + s, 0, h - 1) * w + x];
            /* periodic over the storage -1 .. extent: index i + 1 modulo extent + 2 */
            int sx = wrapi(x - 2 + 1, w + 2), sy = wrapi(y + 1 + 1, h + 2);
            v += 1000 * hh[(long)sy * (w + 2) + sx];
            e[(long)y * w + x] = (double)v;
        }
    Shape sh = shape2(w, h);
    for (int k = 0; k < 2; k++) {
        lang_call_begin(L, k, w < 4 || h < 4 ? "in2 (thin)" : "in2");
        void *ia = lang_in(L, "a", T_INT, n, a), *ib = lang_in(L, "b", T_INT, n, b);
        void *ih = lang_in(L, "h", T_INT, nh, hh);
        void *o = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(k, in2, ia, w, h, ib, w, h, ih, w, h, o, w, h, s);
        lang_call_end(L, rc, CHECK_STRERROR(k, in2, rc), LANG_BUILD_LOG(k, in2));
    }
}

static void test_in3(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    Lcg g;
    lcg_seed(&g, 193 + (uint64_t)w);
    float *gg = lang_alloc(n, sizeof(float)), *c = lang_alloc(n, sizeof(float)), *init = lang_alloc(n, sizeof(float));
    for (long i = 0; i < n; i++) {
        gg[i] = lcg_quantized(&g, 8);
        c[i] = lcg_quantized(&g, 8);
        init[i] = -1000.0f;
    }
    double *e = lang_dalloc(n);
    for (long i = 0; i < n; i++) e[i] = -1000.0; /* points not written keep their value */
#define AT(x, y, z) (((long)(z) * h + (y)) * w + (x))
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                if (y - 1 < 0)
                    continue; /* written outside: dropped */
                float v = gg[AT(x, y, z)] + 2.0f * c[AT(mirrori(x + 1, w), y, mirrori(z - 2, d))] +
                          4.0f * c[AT(mirrori(x - 1, w), mirrori(y + 1, h), mirrori(z + 1, d))];
                e[AT(x, y - 1, z)] = v;
            }
#undef AT
    Shape sh = shape3(w, h, d);
    for (int k = 0; k < 2; k++) {
        lang_call_begin(L, k, w < 4 || h < 4 || d < 4 ? "in3 (thin)" : "in3");
        void *ig = lang_in(L, "g", T_FLOAT, n, gg), *ic = lang_in(L, "c", T_FLOAT, n, c);
        void *o = lang_out(L, "o", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(k, in3, ig, w, h, d, ic, w, h, d, o, w, h, d);
        lang_call_end(L, rc, CHECK_STRERROR(k, in3, rc), LANG_BUILD_LOG(k, in3));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "interior");
    test_in2(&L, 70, 45, 1);
    test_in2(&L, 70, 45, -3);
    test_in2(&L, 3, 40, 2);
    test_in2(&L, 50, 2, 0);
    test_in2(&L, 1, 1, 0);
    test_in3(&L, 37, 21, 19);
    test_in3(&L, 2, 30, 17);
    test_in3(&L, 20, 20, 1);
    return lang_finish(&L);
}
