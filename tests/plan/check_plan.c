/* The persistent plan API (docs/wrappers.md) of tests/plan/relax.imcl, checked
 * against a host model: zero-filled buffers, uploads, LAUNCHES launches with a
 * swap of in and out after each (device-resident data: the `hits` counter),
 * downloads with ghost layers, the kernel time, the swap rules and the refused
 * arguments. Built with the C reference and the OpenCL backend (both run), or
 * with -DCHECK_CUDA with the CUDA backend (linked here, run only with a GPU).
 * Prints one line per backend; exit status 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CHECK_CUDA
#include "cuda/relax.h"
#else
#include "c/relax.h"
#include "opencl/relax.h"
#endif

/* a grid that is no multiple of the block size, and its ghost layer */
enum { NX = 13, NY = 11, NZ = 9, LAUNCHES = 5 };
#define ELEMS ((size_t)NX * NY * NZ)
#define HALO_ELEMS ((size_t)(NX + 2) * (NY + 2) * (NZ + 2))
#define AT(x, y, z) ((((size_t)(z) + 1) * (NY + 2) + ((y) + 1)) * (NX + 2) + ((x) + 1))

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

/* Multiples of 1/256 in [0, 1), from a fixed-seed LCG. */
static void fill(float *a, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (float)((s >> 8) & 255) / 256.0f;
    }
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

#ifdef CHECK_CUDA
#define API(x) cuda_relax_##x
#define CHECK_FN check_cuda
#include "plan_body.h"
#undef API
#undef CHECK_FN
#else
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
#endif

int main(void)
{
#ifdef CHECK_CUDA
    return check_cuda("cuda") ? 1 : 0;
#else
    int fails = check_c("c");
    fails += check_opencl("opencl");
    return fails ? 1 : 0;
#endif
}
