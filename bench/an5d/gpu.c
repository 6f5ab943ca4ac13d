/* bench/an5d/gpu.c: one AN5D kernel's CUDA configurations side by side on a GPU
 * (bench/an5d/gpu.sh builds one program per kernel; scripts/gpu-check.sh runs them).
 *
 *   an5d-gpu-K [N [REPS]]     (N: the grid's side, default 8192 in 2D, 512 in 3D)
 *
 * In one process, on one random input in [0, 1): the hand loop of loops.c (the oracle, on
 * the host's cores), the device's copy bandwidth (copy_bw.cu, bytes read plus written),
 * then every configuration of gpu_list.h through its plan: its output must equal the hand
 * loop's (floats within 1e-5, doubles within 1e-12 of the largest magnitude) before it is
 * timed; then the best kernel time of REPS launches, the configurations alternating in
 * each repetition. One line per configuration on stdout,
 *   KERNEL CONFIG GSTENCIL/S FRACTION_OF_ROOF
 * (the roof: the copy bandwidth over 2 x sizeof(T) bytes a point), "KERNEL CONFIG -
 * WRONG" or "... - FAILED" for one that differs or fails. Exit status: 0, or 1 when a
 * configuration differed or failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "loops.h"
#include "gpu_list.h" /* written by gpu.sh: AN5D_NAME, AN5D_T, AN5D_DIMS, AN5D_CONFIGS(X) */

#define PASTE_(a, b) a##b
#define PASTE(a, b) PASTE_(a, b)
#define HAND PASTE(hand_, AN5D_KERNEL)

#if AN5D_DIMS == 2
#define EXT(n) n[0], n[1]
#else
#define EXT(n) n[0], n[1], n[2]
#endif

typedef struct {
    int (*create)(void **plan, const int n[3]);
    int (*upload_in)(void *plan, const AN5D_T *host);
    int (*upload_out)(void *plan, const AN5D_T *host);
    int (*launch)(void *plan);
    double (*kernel_ms)(const void *plan);
    int (*download_out)(void *plan, AN5D_T *host);
    void (*destroy)(void *plan);
    const char *(*strerror)(int rc);
} PlanOps;

/* the plan functions of configuration P (its prefix), through void pointers */
#define PLAN_OPS(P)                                                                             \
    static int P##_create(void **plan, const int n[3])                                          \
    {                                                                                           \
        return P##_plan_create((P##_plan **)plan, EXT(n), EXT(n));                              \
    }                                                                                           \
    static int P##_upload_in(void *plan, const AN5D_T *h) { return P##_plan_upload_in(plan, h); } \
    static int P##_upload_out(void *plan, const AN5D_T *h)                                      \
    {                                                                                           \
        return P##_plan_upload_out(plan, h);                                                    \
    }                                                                                           \
    static int P##_launch(void *plan) { return P##_plan_launch(plan); }                         \
    static double P##_kernel_ms(const void *plan) { return P##_plan_kernel_ms(plan); }          \
    static int P##_download_out(void *plan, AN5D_T *h) { return P##_plan_download_out(plan, h); } \
    static void P##_destroy(void *plan) { P##_plan_destroy(plan); }
#define OPS_ENTRY(P)                                                                            \
    {P##_create, P##_upload_in, P##_upload_out, P##_launch, P##_kernel_ms, P##_download_out,  \
     P##_destroy, P##_strerror},

AN5D_CONFIGS(PLAN_OPS)
static const PlanOps configs[] = {AN5D_CONFIGS(OPS_ENTRY)};
enum { NCONFIGS = sizeof configs / sizeof *configs };

/* The largest |got - want| over the largest |want|; NaN where got has a NaN. */
static double rel_err(const AN5D_T *got, const AN5D_T *want, long n)
{
    double big = 0, diff = 0;
    long nans = 0;
#pragma omp parallel for reduction(max : big, diff) reduction(+ : nans)
    for (long i = 0; i < n; i++) {
        const double d = fabs((double)got[i] - (double)want[i]), w = fabs((double)want[i]);
        if (isnan(d))
            nans++;
        else if (d > diff)
            diff = d;
        if (w > big)
            big = w;
    }
    return nans ? NAN : big > 0 ? diff / big : diff;
}

int main(int argc, char **argv)
{
    const int w = argc > 1 ? atoi(argv[1]) : AN5D_DIMS == 2 ? 8192 : 512;
    const int reps = argc > 2 ? atoi(argv[2]) : 10;
    const int n[3] = {w, w, AN5D_DIMS == 2 ? 1 : w};
    const long cells = (long)n[0] * n[1] * n[2];
    const double tol = sizeof(AN5D_T) == sizeof(float) ? 1e-5 : 1e-12;
    AN5D_T *in = malloc((size_t)cells * sizeof *in), *ref = malloc((size_t)cells * sizeof *ref);
    AN5D_T *out = malloc((size_t)cells * sizeof *out), *nans = malloc((size_t)cells * sizeof *out);
    if (w < 1 || reps < 1 || !in || !ref || !out || !nans) {
        fprintf(stderr, "%s: bad arguments or out of memory\n", AN5D_NAME);
        return 2;
    }
    unsigned long long s = 0x9E3779B97F4A7C15ull;
    for (long i = 0; i < cells; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = (AN5D_T)((double)(s >> 11) * 0x1p-53);
    }
    memset(nans, 0xFF, (size_t)cells * sizeof *nans);
    HAND(in, ref, EXT(n));
    const double copy_gbs = copy_bandwidth_gbs((size_t)cells * sizeof(AN5D_T), reps);
    if (copy_gbs <= 0) {
        fprintf(stderr, "%s: the copy bandwidth could not be measured\n", AN5D_NAME);
        return 1;
    }
    const double roof = copy_gbs / (2.0 * sizeof(AN5D_T)); /* GStencil/s */
    fprintf(stderr, "%s: %dD %d, copy %.0f GB/s, roof %.2f GStencil/s\n", AN5D_NAME, AN5D_DIMS,
            w, copy_gbs, roof);

    /* the checks: each configuration's output against the hand loop's */
    void *plans[NCONFIGS] = {0};
    int status = 0;
    for (int c = 0; c < NCONFIGS; c++) {
        const PlanOps *o = &configs[c];
        int rc = o->create(&plans[c], n);
        if (!rc && !(rc = o->upload_in(plans[c], in)) && !(rc = o->upload_out(plans[c], nans)) &&
            !(rc = o->launch(plans[c])))
            rc = o->download_out(plans[c], out);
        if (rc) {
            fprintf(stderr, "%s: configuration %d: %s\n", AN5D_NAME, c + 1, o->strerror(rc));
            printf("%s %d - FAILED\n", AN5D_NAME, c + 1);
        } else {
            double e = rel_err(out, ref, cells);
            if (e <= tol)
                continue;
            fprintf(stderr, "%s: configuration %d differs from the hand loop: %.3g\n", AN5D_NAME,
                    c + 1, e);
            printf("%s %d - WRONG\n", AN5D_NAME, c + 1);
        }
        status = 1;
        if (plans[c])
            o->destroy(plans[c]);
        plans[c] = NULL;
    }

    /* best of reps, the configurations alternating */
    double best[NCONFIGS];
    for (int c = 0; c < NCONFIGS; c++)
        best[c] = 1e30;
    for (int r = 0; r < reps; r++)
        for (int c = 0; c < NCONFIGS; c++) {
            if (!plans[c])
                continue;
            int rc = configs[c].launch(plans[c]);
            if (rc) {
                fprintf(stderr, "%s: configuration %d: %s\n", AN5D_NAME, c + 1,
                        configs[c].strerror(rc));
                printf("%s %d - FAILED\n", AN5D_NAME, c + 1);
                configs[c].destroy(plans[c]);
                plans[c] = NULL;
                status = 1;
            } else if (configs[c].kernel_ms(plans[c]) < best[c])
                best[c] = configs[c].kernel_ms(plans[c]);
        }
    for (int c = 0; c < NCONFIGS; c++)
        if (plans[c]) {
            const double gs = (double)cells / (best[c] * 1e-3) * 1e-9;
            printf("%s %d %.2f %.3f\n", AN5D_NAME, c + 1, gs, gs / roof);
            configs[c].destroy(plans[c]);
        }
    free(in);
    free(ref);
    free(out);
    free(nans);
    return status;
}
