/* Oracle driver of tests/lang/placement.imcl: constant memory for fixed-size and
 * grid arrays, and constant + texture + global inputs in one kernel (the
 * placements come from placement.params; every configuration puts ca, hc and cb
 * in constant memory).
 * The oracle implements the boundary conditions itself (see boundary.c). Floats
 * are multiples of 1/256 in [0, 1), the mask multiples of 1/64 and the other
 * terms small integers, so every float sum is exact.
 * It also checks the run-time capacity checks of constant memory: a grid array
 * of 8 MiB is refused with ERR_ARGUMENT (more than the constant buffer of the
 * device, 1 MiB on PoCL, 64 KiB on NVIDIA GPUs); CUDA also refuses an array of
 * more elements than the __constant__ copy compiled for the grid_size. */
#include "lang_common.h"

#include "c/cgrid2.h"
#include "c/cgrid3.h"
#include "c/combo.h"
#ifdef CHECK_CUDA
#include "cuda/cgrid2.h"
#include "cuda/cgrid3.h"
#include "cuda/combo.h"
#else
#include "opencl/cgrid2.h"
#include "opencl/cgrid3.h"
#include "opencl/combo.h"
#endif

static float frand(Lcg *g) { return (float)(lcg_next(g) >> 24) / 256.0f; }

static void *nan_init(ElemType t, long n)
{
    void *p = lang_alloc(n, lang_esize(t));
    memset(p, 0x7f, (size_t)n * lang_esize(t));
    return p;
}

static void test_combo(Lang *L, int w, int h)
{
    const long n = (long)w * h;
    Lcg g;
    lcg_seed(&g, 71 + (uint64_t)w);
    float *in = lang_alloc(n, sizeof(float)), *tin = lang_alloc(n, sizeof(float));
    int *other = lang_alloc(n, sizeof(int));
    float mask[9];
    int lut[8];
    for (long p = 0; p < n; p++) {
        in[p] = frand(&g);
        tin[p] = frand(&g);
        other[p] = (int)(lcg_next(&g) % 1000) - 500;
    }
    for (int i = 0; i < 9; i++) mask[i] = (float)(int)(lcg_next(&g) % 128) / 64.0f;
    for (int i = 0; i < 8; i++) lut[i] = (int)(lcg_next(&g) % 100) - 50;
    double *e = lang_dalloc(n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = 0.0f;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++)
                    acc += mask[(j + 1) * 3 + i + 1] * in[(long)clampi(y + j, 0, h - 1) * w + clampi(x + i, 0, w - 1)];
            float t = x - 1 >= 0 && y + 2 < h ? tin[(long)(y + 2) * w + x - 1] : 0.5f;
            e[(long)y * w + x] = acc + t + lut[other[(long)y * w + x] & 7];
        }
    Shape sh = shape2(w, h);
    void *init = nan_init(T_FLOAT, n);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, w < 3 ? "combo (tiny)" : "combo");
        void *a = lang_in(L, "in", T_FLOAT, n, in), *t = lang_in(L, "tin", T_FLOAT, n, tin);
        void *o = lang_in(L, "other", T_INT, n, other), *m = lang_in(L, "mask", T_FLOAT, 9, mask);
        void *l = lang_in(L, "lut", T_INT, 8, lut);
        void *out = lang_out(L, "out", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(b, combo, a, w, h, t, w, h, o, w, h, m, l, out, w, h);
        lang_call_end(L, rc, CHECK_STRERROR(b, combo, rc), LANG_BUILD_LOG(b, combo));
    }
}

/* cgrid2: ca (mirror) and hc (constant -2, halo 1) over the 40 x 30 grid. */
static void test_cgrid2(Lang *L)
{
    enum { W = 40, H = 30 };
    const long n = (long)W * H, nh = (long)(W + 2) * (H + 2);
    Lcg g;
    lcg_seed(&g, 73);
    float *ca = lang_alloc(n, sizeof(float));
    int *hc = lang_alloc(nh, sizeof(int));
    for (long p = 0; p < n; p++) ca[p] = frand(&g);
    for (long p = 0; p < nh; p++) hc[p] = (int)(lcg_next(&g) % 2000) - 1000;
    double *e = lang_dalloc(n);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* hc: storage index (y + 1) * (W + 2) + (x + 1), inside for -1 <= x <= W */
#define HC(X, Y) ((X) >= -1 && (X) <= W && (Y) >= -1 && (Y) <= H ? hc[(long)((Y) + 1) * (W + 2) + (X) + 1] : -2)
            float v = ca[(long)mirrori(y - 2, H) * W + mirrori(x + 1, W)] + 2 * ca[(long)y * W + x];
            v = v + HC(x - 2, y + 1);
            v = v + HC(x + 1, y - 1);
#undef HC
            e[(long)y * W + x] = v;
        }
    Shape sh = shape2(W, H);
    void *init = nan_init(T_FLOAT, n);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "cgrid2");
        void *a = lang_in(L, "ca", T_FLOAT, n, ca), *c = lang_in(L, "hc", T_INT, nh, hc);
        void *o = lang_out(L, "o", T_FLOAT, n, init, e, &sh);
        int rc = CHECK_CALL(b, cgrid2, a, W, H, c, W, H, o, W, H);
        lang_call_end(L, rc, CHECK_STRERROR(b, cgrid2, rc), LANG_BUILD_LOG(b, cgrid2));
    }
}

static void test_cgrid3(Lang *L)
{
    enum { W = 9, H = 7, D = 5 };
    const long n = (long)W * H * D;
    Lcg g;
    lcg_seed(&g, 79);
    double *cb = lang_alloc(n, sizeof(double));
    for (long p = 0; p < n; p++) cb[p] = (double)(lcg_next(&g) % 100000) / 1024.0;
    double *e = lang_dalloc(n);
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                e[((long)z * H + y) * W + x] = cb[((long)wrapi(z + 1, D) * H + y) * W + wrapi(x - 1, W)] +
                                               0.5 * cb[((long)z * H + wrapi(y + 2, H)) * W + x];
    Shape sh = shape3(W, H, D);
    void *init = nan_init(T_DOUBLE, n);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "cgrid3");
        void *c = lang_in(L, "cb", T_DOUBLE, n, cb);
        void *o = lang_out(L, "o3", T_DOUBLE, n, init, e, &sh);
        int rc = CHECK_CALL(b, cgrid3, c, W, H, D, o, W, H, D);
        lang_call_end(L, rc, CHECK_STRERROR(b, cgrid3, rc), LANG_BUILD_LOG(b, cgrid3));
    }
}

/* Arrays too large for constant memory are refused, and nothing is written (a
 * device's limit: not in the C reference's second run, CHECK_REF_ONLY). */
#ifndef CHECK_REF_ONLY
static void test_capacity(Lang *L)
{
    L->b = 1;
    L->kernel = "cgrid2 (capacity)";
    const int bw = 2048, bh = 1024;
    float *big = lang_alloc((long)bw * bh, sizeof(float));
    int *hc = lang_alloc(42L * 32, sizeof(int));
    float *o = lang_alloc(40L * 30, sizeof(float));
    int rc = CHECK_DEV_CALL(cgrid2)(big, bw, bh, hc, 40, 30, o, 40, 30);
    if (rc != -1) {
        fprintf(stderr, "lang placement: %s: an 8 MiB constant array: returned %d (%s), expected -1 (ERR_ARGUMENT)\n",
                CHECK_DEV_NAME, rc, CHECK_DEV_STRERROR(cgrid2)(rc));
        L->failed[1] = 1;
    }
#ifdef CHECK_CUDA
    /* one column more than the __constant__ copy compiled for the 40 x 30 grid */
    rc = CHECK_DEV_CALL(cgrid2)(big, 41, 30, hc, 40, 30, o, 40, 30);
    if (rc != -1) {
        fprintf(stderr, "lang placement: cuda: ca of 41 x 30 elements: returned %d, expected -1 (ERR_ARGUMENT)\n", rc);
        L->failed[1] = 1;
    }
#endif
    for (long p = 0; p < 40L * 30; p++)
        if (o[p] != 0) {
            fprintf(stderr, "lang placement: %s: a refused call wrote its output\n", CHECK_DEV_NAME);
            L->failed[1] = 1;
            break;
        }
    L->calls[1]++;
}
#endif

int main(void)
{
    Lang L;
    lang_begin(&L, "placement");
    test_combo(&L, 37, 29);
    test_combo(&L, 2, 1);
    test_cgrid2(&L);
    test_cgrid3(&L);
#ifndef CHECK_REF_ONLY
    test_capacity(&L);
#endif
    return lang_finish(&L);
}
