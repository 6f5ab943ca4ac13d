/* Oracle driver of tests/lang/alias.imcl: offset aliases over buffers of stacked
 * grids. The whole buffer is passed with its full extents; the elements the kernel
 * does not write (the other grids) must come back unchanged, which the wrapper can
 * only do by copying the buffer in. Doubles within 1e-12; floats exact (multiples
 * of 1/256); integers exact. */
#include "lang_common.h"

#include "c/amr.h"
#include "c/bc_alias.h"
#include "c/rows.h"
#include "c/shift.h"
#ifdef CHECK_CUDA
#include "cuda/amr.h"
#include "cuda/bc_alias.h"
#include "cuda/rows.h"
#include "cuda/shift.h"
#else
#include "opencl/amr.h"
#include "opencl/bc_alias.h"
#include "opencl/rows.h"
#include "opencl/shift.h"
#endif

static void test_amr(Lang *L)
{
    const int nx = 13, ny = 11, nz = 9, ng = 4, k = 0;
    const long g = (long)nx * ny * nz, n = g * ng;
    const int off = (int)((k + 2) * g);
    double *buf = lang_dalloc(n), *e = lang_dalloc(n);
    Lcg r;
    lcg_seed(&r, 101);
    for (long i = 0; i < n; i++) buf[i] = (double)(i / g) + lcg_unit(&r);
    memcpy(e, buf, (size_t)n * sizeof(double));
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long p = ((long)z * ny + y) * nx + x;
#define RD(dx, dy, dz) buf[off + p + (dx) + (long)(dy) * nx + (long)(dz) * nx * ny]
                double acc = 0;
                for (int v = 1; v <= 3; v++) acc += v * buf[v * g + p];
                e[k * g + p] = RD(0, 0, 0) * 2 + RD(-1, 0, 0) + 4 * RD(0, 1, 0) + 8 * RD(0, 0, -1) +
                               16 * RD(1, -1, 1) + 100 * acc + 1000 * buf[2 * g + p];
#undef RD
            }
    Shape sh = shape3(nx, ny, nz * ng);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "amr");
        void *pb = lang_out(L, "buf", T_DOUBLE, n, buf, e, &sh);
        int rc = CHECK_CALL(b, amr, pb, nx, ny, nz * ng, nx, ny, nz, k, off);
        lang_call_end(L, rc, CHECK_STRERROR(b, amr, rc), LANG_BUILD_LOG(b, amr));
    }
}

static void test_shift(Lang *L)
{
    const int nx = 7, ny = 5, nz = 3, ng = 5, nv = 4; /* grid 4 is not touched */
    const long g = (long)nx * ny * nz, n = g * ng;
    float *buf = lang_alloc(n, sizeof(float));
    double *e = lang_dalloc(n);
    Lcg r;
    lcg_seed(&r, 102);
    for (long i = 0; i < n; i++) buf[i] = lcg_quantized(&r, 8) + (float)(i / g);
    for (long i = 0; i < n; i++) e[i] = buf[i];
    for (long p = 0; p < g; p++)
        for (int v = 0; v < nv - 1; v++) e[v * g + p] = (double)(buf[v * g + p] + buf[(v + 1) * g + p]);
    Shape sh = shape3(nx, ny, nz * ng);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "shift");
        void *pb = lang_out(L, "buf", T_FLOAT, n, buf, e, &sh);
        int rc = CHECK_CALL(b, shift, pb, nx, ny, nz * ng, nx, ny, nz, nv);
        lang_call_end(L, rc, CHECK_STRERROR(b, shift, rc), LANG_BUILD_LOG(b, shift));
    }
}

static void test_rows(Lang *L)
{
    const int w = 37, h = 29;
    const long n = (long)w * h;
    const int off = 2 * w;
    int *img = lang_alloc(n, sizeof(int)), *init = lang_alloc(n, sizeof(int));
    double *e = lang_dalloc(n);
    for (long i = 0; i < n; i++) img[i] = (int)(i % 97), init[i] = -1 - (int)i, e[i] = init[i];
    for (int y = 0; y < h - 2; y++)
        for (int x = 0; x < w; x++) {
            int left = x - 1 >= 0 ? img[off + y * w + x - 1] : -9;
            int right = x + 1 < w ? img[off / 2 + y * w + x + 1] : -9;
            e[y * w + x] = left + 100 * img[off + y * w + x] + 10000 * right;
        }
    Shape sh = shape2(w, h);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "rows");
        void *pi = lang_in(L, "img", T_INT, n, img);
        void *po = lang_out(L, "o", T_INT, n, init, e, &sh);
        int rc = CHECK_CALL(b, rows, pi, w, h, po, w, h, w, h, off);
        lang_call_end(L, rc, CHECK_STRERROR(b, rows, rc), LANG_BUILD_LOG(b, rows));
    }
}

static void test_bc_alias(Lang *L)
{
    const int nx = 13, ny = 11, nz = 9, ng = 2;
    const long g = (long)nx * ny * nz, n = g * ng;
    int *cb = lang_alloc(n, sizeof(int)), *pb = lang_alloc(n, sizeof(int)), *init = lang_alloc(g, sizeof(int));
    double *e = lang_dalloc(g);
    for (long i = 0; i < n; i++) cb[i] = (int)(i % 501), pb[i] = (int)(i % 307);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long p = ((long)z * ny + y) * nx + x;
                init[p] = INT_MIN;
                /* the alias has the base's width and height: clamp / wrap x in [0, nx), y in [0, ny) */
                e[p] = cb[g + ((long)z * ny + clampi(y + 3, 0, ny - 1)) * nx + clampi(x - 2, 0, nx - 1)] +
                       1000 * pb[g + ((long)z * ny + wrapi(y - 4, ny)) * nx + wrapi(x + 5, nx)];
            }
    Shape so = shape3(nx, ny, nz);
    for (int b = 0; b < 2; b++) {
        lang_call_begin(L, b, "bc_alias");
        void *pc = lang_in(L, "cb", T_INT, n, cb);
        void *pp = lang_in(L, "pb", T_INT, n, pb);
        void *po = lang_out(L, "o", T_INT, g, init, e, &so);
        int rc = CHECK_CALL(b, bc_alias, pc, nx, ny, nz * ng, pp, nx, ny, nz * ng, po, nx, ny, nz, nx, ny, nz);
        lang_call_end(L, rc, CHECK_STRERROR(b, bc_alias, rc), LANG_BUILD_LOG(b, bc_alias));
    }
}

int main(void)
{
    Lang L;
    lang_begin(&L, "alias");
    test_amr(&L);
    test_shift(&L);
    test_rows(&L);
    test_bc_alias(&L);
    return lang_finish(&L);
}
