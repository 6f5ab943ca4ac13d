/* The persistent plan API (docs/wrappers.md) of tests/plan/relax.imcl, checked
 * against a host model: zero-filled buffers, uploads, LAUNCHES launches with a
 * swap of in and out after each (device-resident data: the `hits` counter),
 * downloads with ghost layers, the kernel time, the swap rules and the refused
 * arguments (plan_body.h); and the same for tex3.imcl and tex2.imcl, whose
 * arrays are in texture, shared and constant memory (placed_body.h). Built with
 * the C reference and the OpenCL backend (both run), or with -DCHECK_CUDA with
 * the CUDA backend (linked here, run only with a GPU). Prints one line per
 * backend and kernel; exit status 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CHECK_CUDA
#include "cuda/relax.h"
#include "cuda/tex2.h"
#include "cuda/tex3.h"
#else
#include "c/relax.h"
#include "c/tex2.h"
#include "c/tex3.h"
#include "opencl/relax.h"
#include "opencl/tex2.h"
#include "opencl/tex3.h"
#endif

/* a grid that is no multiple of the block size, and its ghost layer */
enum { NX = 13, NY = 11, NZ = 9, LAUNCHES = 5 };
#define ELEMS ((size_t)NX * NY * NZ)
#define HALO_ELEMS ((size_t)(NX + 2) * (NY + 2) * (NZ + 2))
#define AT(x, y, z) ((((size_t)(z) + 1) * (NY + 2) + ((y) + 1)) * (NX + 2) + ((x) + 1))
/* tex3 (no halo) and tex2 (Images; p and q with a ghost layer) */
#define I3(x, y, z) (((size_t)(z) * NY + (y)) * NX + (x))
#define ELEMS2 ((size_t)NX * NY)
#define HALO2_ELEMS ((size_t)(NX + 2) * (NY + 2))
#define I2(x, y) ((size_t)(y) * NX + (x))
#define AT2(x, y) (((size_t)(y) + 1) * (NX + 2) + ((x) + 1))

#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "check plan: %s:%d: %s: failed: %s\n", __FILE__, __LINE__, backend, #cond); \
            fails++;                                                                       \
        }                                                                                  \
    } while (0)

static float *alloc_f(size_t n)
{
    float *p = calloc(n, sizeof *p);
    if (!p) {
        fprintf(stderr, "check plan: out of memory\n");
        exit(1);
    }
    return p;
}

static double *alloc_d(size_t n)
{
    double *p = calloc(n, sizeof *p);
    if (!p) {
        fprintf(stderr, "check plan: out of memory\n");
        exit(1);
    }
    return p;
}

/* Multiples of 1/256 in [0, 1), from a fixed-seed LCG. */
static void fill(float *a, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (float)((s >> 8) & 255) / 256.0f;
    }
}

static void fill_d(double *a, size_t n, unsigned seed)
{
    float *f = alloc_f(n);
    fill(f, n, seed);
    for (size_t i = 0; i < n; i++)
        a[i] = f[i];
    free(f);
}

static int clampi(int i, int n)
{
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* One launch of tex3 on the host: u and v clamped, s and g zero outside. */
static void model_tex3(const double *u, const double *v, const double *s, const double *g, const double k[3],
                       double *out)
{
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                double su = u[I3(clampi(x - 1, NX), y, z)] + u[I3(clampi(x + 1, NX), y, z)];
                double sv = v[I3(x, y, clampi(z + 1, NZ))];
                double ss = (y > 0 ? s[I3(x, y - 1, z)] : 0.0) + (z + 1 < NZ ? s[I3(x, y, z + 1)] : 0.0);
                double sg = z > 0 ? g[I3(x, y, z - 1)] : 0.0;
                out[I3(x, y, z)] = k[0] * su + k[1] * sv + k[2] * ss + 0.5 * sg;
            }
}

/* Element (x, y) of an Image with a ghost layer, zero beyond it. */
static float ghost2(const float *a, int x, int y)
{
    return x < -1 || x > NX || y < -1 || y > NY ? 0.0f : a[AT2(x, y)];
}

/* One launch of tex2 on the host: p and q zero beyond their ghost layer, c
 * clamped (never outside here), sh and acc zero outside. */
static void model_tex2(const float *p, const float *q, const float *c, const float *sh, const float *acc, float w,
                       float *out)
{
    for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++)
            out[I2(x, y)] = w * (ghost2(p, x - 1, y) + ghost2(p, x, y + 2)) + ghost2(q, x + 1, y - 1) * c[I2(x, y)] +
                            (x + 1 < NX ? sh[I2(x + 1, y)] : 0.0f) + (y > 0 ? sh[I2(x, y - 1)] : 0.0f) + acc[I2(x, y)];
}

/* One step of the kernel on the host: the interior of out from in. */
static void model_step(const float *in, float *out, const float *src, float w)
{
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                float s = in[AT(x - 1, y, z)] + in[AT(x + 1, y, z)] + in[AT(x, y - 1, z)] + in[AT(x, y + 1, z)] +
                          in[AT(x, y, z - 1)] + in[AT(x, y, z + 1)];
                out[AT(x, y, z)] = (1.0f - w) * in[AT(x, y, z)] + w * s / 6.0f + src[((size_t)z * NY + y) * NX + x];
            }
}

/* float tolerance of docs/testing.md: |g - e| <= max(1e-5 |e|, 1e-6) */
static int same(const float *got, const float *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= fmaxf(1e-5f * fabsf(want[i]), 1e-6f))) {
            fprintf(stderr, "check plan: %s: element %zu is %.9g, expected %.9g\n", what, i, got[i], want[i]);
            return 0;
        }
    return 1;
}

static int same_d(const double *got, const double *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= fmax(1e-12 * fabs(want[i]), 1e-14))) {
            fprintf(stderr, "check plan: %s: element %zu is %.17g, expected %.17g\n", what, i, got[i], want[i]);
            return 0;
        }
    return 1;
}

/* A row table over an array of w x h x d floats or doubles (x fastest), every row its
 * own allocation, as C codes allocate them (PK_plan_upload_rows_<a>); rows_to_flat
 * reads it back. */
typedef struct Rows {
    void ***t;
    int w, h, d;
    size_t esize;
} Rows;

static Rows rows_from(const void *flat, size_t esize, int w, int h, int d)
{
    Rows r = {malloc(sizeof(void **) * (size_t)d), w, h, d, esize};
    for (int z = 0; z < d; z++) {
        r.t[z] = malloc(sizeof(void *) * (size_t)h);
        for (int y = 0; y < h; y++) {
            r.t[z][y] = malloc(esize * (size_t)w);
            memcpy(r.t[z][y], (const char *)flat + ((size_t)z * h + y) * w * esize, esize * (size_t)w);
        }
    }
    return r;
}

static void rows_to_flat(const Rows *r, void *flat)
{
    for (int z = 0; z < r->d; z++)
        for (int y = 0; y < r->h; y++)
            memcpy((char *)flat + ((size_t)z * r->h + y) * r->w * r->esize, r->t[z][y], r->esize * (size_t)r->w);
}

static void rows_free(Rows *r)
{
    for (int z = 0; z < r->d; z++) {
        for (int y = 0; y < r->h; y++)
            free(r->t[z][y]);
        free(r->t[z]);
    }
    free(r->t);
}

#ifdef CHECK_CUDA
#define T3(x) cuda_tex3_##x
#define T2(x) cuda_tex2_##x
#define ONESHOT3 cuda_tex3
#define ONESHOT2 cuda_tex2
#define CHECK3_FN check_cuda_tex3
#define CHECK2_FN check_cuda_tex2
#include "placed_body.h"
#else
#define T3(x) ref_tex3_##x
#define T2(x) ref_tex2_##x
#define ONESHOT3 ref_tex3
#define ONESHOT2 ref_tex2
#define CHECK3_FN check_c_tex3
#define CHECK2_FN check_c_tex2
#include "placed_body.h"
#undef T3
#undef T2
#undef ONESHOT3
#undef ONESHOT2
#undef CHECK3_FN
#undef CHECK2_FN
#define T3(x) ocl_tex3_##x
#define T2(x) ocl_tex2_##x
#define ONESHOT3 ocl_tex3
#define ONESHOT2 ocl_tex2
#define CHECK3_FN check_opencl_tex3
#define CHECK2_FN check_opencl_tex2
#include "placed_body.h"
#endif

#ifdef CHECK_CUDA
#define API(x) cuda_relax_##x
#define CHECK_FN check_cuda
#define ATTACHES 0 /* a CUDA device computes in its own memory */
#include "plan_body.h"
#undef API
#undef CHECK_FN
#undef ATTACHES
#else
#define ATTACHES 1 /* the C reference, and PoCL's CPU device: host memory */
#define API(x) ref_relax_##x
#define CHECK_FN check_c
#include "plan_body.h"
#undef API
#undef CHECK_FN
#define API(x) ocl_relax_##x
#define CHECK_FN check_opencl
#include "plan_body.h"
#undef API
#undef CHECK_FN
#undef ATTACHES
#endif

#ifndef CHECK_CUDA
/* The C reference's PK_rows on two blocks of row tables (every row its own
 * allocation), against its PK on the same data, block by block: bit for bit. */
static int check_c_rows(void)
{
    const char *backend = "c (PK_rows)";
    int fails = 0;
    const float w = 0.5f;
    float *in[2], *out[2], *src[2], *spare[2], *got = alloc_f(HALO_ELEMS);
    int *hits[2], *hgot = calloc(NX * NY, sizeof *hgot);
    Rows rin[2], rout[2], rsrc[2], rspare[2], rhits[2];
    void ***tin[2], ***tout[2], ***tsrc[2], ***tspare[2], **thits[2];
    for (int b = 0; b < 2; b++) {
        in[b] = alloc_f(HALO_ELEMS), out[b] = alloc_f(HALO_ELEMS), src[b] = alloc_f(ELEMS), spare[b] = alloc_f(ELEMS);
        hits[b] = calloc(NX * NY, sizeof *hits[b]);
        fill(in[b], HALO_ELEMS, 30 + b);
        fill(src[b], ELEMS, 40 + b);
        rin[b] = rows_from(in[b], sizeof(float), NX + 2, NY + 2, NZ + 2);
        rout[b] = rows_from(out[b], sizeof(float), NX + 2, NY + 2, NZ + 2);
        rsrc[b] = rows_from(src[b], sizeof(float), NX, NY, NZ);
        rspare[b] = rows_from(spare[b], sizeof(float), NX, NY, NZ);
        rhits[b] = rows_from(hits[b], sizeof(int), NX, NY, 1);
        tin[b] = rin[b].t, tout[b] = rout[b].t, tsrc[b] = rsrc[b].t, tspare[b] = rspare[b].t, thits[b] = rhits[b].t[0];
    }
    EXPECT(ref_relax_rows(2, (float ***const *)tin, NX, NY, NZ, (float ***const *)tout, NX, NY, NZ,
                          (float ***const *)tsrc, NX, NY, NZ, (float ***const *)tspare, NX, NY, NZ,
                          (int **const *)thits, NX, NY, w) == ref_relax_OK);
    EXPECT(ref_relax_rows(-1, (float ***const *)tin, NX, NY, NZ, (float ***const *)tout, NX, NY, NZ,
                          (float ***const *)tsrc, NX, NY, NZ, (float ***const *)tspare, NX, NY, NZ,
                          (int **const *)thits, NX, NY, w) == ref_relax_ERR_ARGUMENT);
    for (int b = 0; b < 2; b++) {
        EXPECT(ref_relax(in[b], NX, NY, NZ, out[b], NX, NY, NZ, src[b], NX, NY, NZ, spare[b], NX, NY, NZ, hits[b],
                         NX, NY, w) == ref_relax_OK);
        rows_to_flat(&rout[b], got);
        EXPECT(memcmp(got, out[b], HALO_ELEMS * sizeof *got) == 0);
        rows_to_flat(&rhits[b], hgot);
        EXPECT(memcmp(hgot, hits[b], NX * NY * sizeof *hgot) == 0);
        rows_free(&rin[b]), rows_free(&rout[b]), rows_free(&rsrc[b]), rows_free(&rspare[b]), rows_free(&rhits[b]);
        free(in[b]), free(out[b]), free(src[b]), free(spare[b]), free(hits[b]);
    }
    free(got);
    free(hgot);
    if (!fails)
        printf("check plan: %s ok (2 blocks of row tables, as PK on each)\n", backend);
    return fails;
}
#endif

int main(void)
{
#ifdef CHECK_CUDA
    int fails = check_cuda("cuda");
    fails += check_cuda_tex3("cuda");
    fails += check_cuda_tex2("cuda");
#else
    int fails = check_c("c");
    fails += check_opencl("opencl");
    fails += check_c_tex3("c");
    fails += check_c_tex2("c");
    fails += check_opencl_tex3("opencl");
    fails += check_opencl_tex2("opencl");
    fails += check_c_rows();
#endif
    return fails ? 1 : 0;
}
