/* Oracle driver of tests/lang/blocks.imcl, run under every thread-block shape of
 * blocks.params: 3D grids whose extents divide none of the shapes. Floats exact
 * (multiples of 1/256 times small integers); integers exact. */
#include "lang_common.h"

#include "c/blk.h"
#include "c/blkgs.h"
#ifdef CHECK_CUDA
#include "cuda/blk.h"
#include "cuda/blkgs.h"
#else
#include "opencl/blk.h"
#include "opencl/blkgs.h"
#endif

static void test_blk(Lang *L, int w, int h, int d)
{
    const long n = (long)w * h * d;
    float *in = lang_alloc(n, sizeof(float)), *oi = lang_alloc(n, sizeof(float));
    int *mi = lang_alloc(n, sizeof(int));
    const int pw = w + 3, ph = h; /* the plane is wider than the grid */
    float *plane = lang_alloc((long)pw * ph, sizeof(float));
    for (long p = 0; p < (long)pw * ph; p++) plane[p] = (float)(p % 64) / 64.0f;
    double *eo = lang_dalloc(n), *em = lang_dalloc(n);
    Lcg g;
    lcg_seed(&g, 181 + (uint64_t)w);
    for (long p = 0; p < n; p++) in[p] = lcg_quantized(&g, 8), oi[p] = -1.0f - (float)p, mi[p] = -1 - (int)p;
#define IN(x, y, z) in[((long)wrapi(z, d) * h + wrapi(y, h)) * w + wrapi(x, w)]
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                eo[p] = oi[p], em[p] = mi[p];
                if ((x + 2 * y + 3 * z) % 11 == 5) continue;
                float acc = 0;
                for (int dz = -2; dz <= 2; dz++) acc += (float)(dz + 3) * IN(x, y, z + dz);
                float pv = x + z < pw && y - 1 >= 0 ? plane[(y - 1) * pw + x + z] : 0.0f;
                eo[p] = acc + IN(x - 1, y + 1, z) + 16 * pv;
                em[p] = x + 100 * y + 10000 * z + 1000000 * (w + h + d);
            }
#undef IN
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "blk");
        void *pi = lang_in(L, "in", T_FLOAT, n, in);
        void *po = lang_out(L, "out", T_FLOAT, n, oi, eo, &sh);
        void *pm = lang_out(L, "mark", T_INT, n, mi, em, &sh);
        void *pp = lang_in(L, "plane", T_FLOAT, (long)pw * ph, plane);
        int rc = CHECK_CALL(b, blk, pi, w, h, d, po, w, h, d, pm, w, h, d, pp, pw, ph);
        lang_call_end(L, rc, CHECK_STRERROR(b, blk, rc), LANG_BUILD_LOG(b, blk));
    }
}

static void test_blkgs(Lang *L)
{
    const int w = 19, h = 13, d = 11, nx = 17, ny = 3, nz = 10;
    const long n = (long)w * h * d;
    int *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long p = ((long)z * h + y) * w + x;
                init[p] = -1 - (int)p;
                e[p] = x < nx && y < ny && z < nz ? x + 100 * y + 10000 * z : init[p];
            }
    Shape sh = shape3(w, h, d);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "blkgs");
        void *po = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, blkgs, po, w, h, d, nx, ny, nz);
        lang_call_end(L, rc, CHECK_STRERROR(b, blkgs, rc), LANG_BUILD_LOG(b, blkgs));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "blocks");
    test_blk(&L, 13, 11, 9);
    test_blk(&L, 17, 3, 70);
    test_blkgs(&L);
    return lang_finish(&L);
}
