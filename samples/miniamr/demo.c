/* The main job's demo: miniAMR's 7-point stencil on one block with a ghost layer,
 * run through the OpenCL code that imcl generated (on the CPU device by default)
 * and through the C reference that imcl generated, each checked against a plain C
 * loop written here, then timed. Prints one summary line.
 *
 *   demo [N [STEPS]]   (default 64 and 10)
 *
 * Build: see scripts/main-job.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c/miniamr.h"
#include "opencl/miniamr.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The reference loop, as miniAMR writes it: interior cells of a block with a ghost
 * layer one cell wide, x fastest. */
static void reference(const double *in, double *out, int n)
{
    int s = n + 2;
    for (int z = 1; z <= n; z++)
        for (int y = 1; y <= n; y++)
            for (int x = 1; x <= n; x++) {
                size_t c = ((size_t)z * s + y) * s + x;
                out[c] = (in[c - 1] + in[c + 1] + in[c - s] + in[c + s] + in[c - (size_t)s * s] +
                          in[c + (size_t)s * s] + in[c]) / 7.0;
            }
}

static int compare(const char *what, const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double tol = 1e-12 * fmax(1.0, fabs(want[i]));
        if (fabs(got[i] - want[i]) > tol) {
            fprintf(stderr, "demo: %s differs at element %zu: %.17g instead of %.17g\n", what, i, got[i], want[i]);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1 || steps < 1) {
        fprintf(stderr, "usage: demo [N [STEPS]]\n");
        return 2;
    }
    size_t cells = (size_t)(n + 2) * (n + 2) * (n + 2);
    double *in = malloc(cells * sizeof *in), *want = malloc(cells * sizeof *want);
    double *ocl = malloc(cells * sizeof *ocl), *ref = malloc(cells * sizeof *ref);
    if (!in || !want || !ocl || !ref)
        return 1;
    unsigned s = 12345;
    for (size_t i = 0; i < cells; i++) {
        s = s * 1103515245u + 12345u;
        in[i] = (s >> 8) % 1000 / 10.0;
    }
    memcpy(want, in, cells * sizeof *in);
    memcpy(ocl, in, cells * sizeof *in);
    memcpy(ref, in, cells * sizeof *in);

    /* Correctness: one step of each, every cell, ghosts included. */
    reference(in, want, n);
    int rc = ocl_miniamr(in, n, n, n, ocl, n, n, n);
    if (rc) {
        fprintf(stderr, "demo: OpenCL wrapper failed: %s\n%s", ocl_miniamr_strerror(rc), ocl_miniamr_build_log());
        return 1;
    }
    rc = ref_miniamr(in, n, n, n, ref, n, n, n);
    if (rc || compare("OpenCL", ocl, want, cells) || compare("C reference", ref, want, cells))
        return 1;

    /* Throughput: STEPS whole calls (copies included) of each. */
    double t0 = now();
    for (int i = 0; i < steps; i++)
        reference(in, want, n);
    double t_loop = now() - t0;
    t0 = now();
    for (int i = 0; i < steps && !rc; i++)
        rc = ocl_miniamr(in, n, n, n, ocl, n, n, n);
    double t_ocl = now() - t0;
    t0 = now();
    for (int i = 0; i < steps && !rc; i++)
        rc = ref_miniamr(in, n, n, n, ref, n, n, n);
    double t_ref = now() - t0;
    if (rc)
        return 1;
    double points = (double)n * n * n * steps;
    printf("miniamr %d^3 x %d steps: validated against the C loop (OpenCL and C reference, 1e-12 relative)\n", n, steps);
    printf("  C loop          %8.4f s  %7.3f GStencil/s\n", t_loop, points / t_loop * 1e-9);
    printf("  C reference     %8.4f s  %7.3f GStencil/s\n", t_ref, points / t_ref * 1e-9);
    printf("  OpenCL (one-shot wrapper, with copies and program build per call)\n");
    printf("                  %8.4f s  %7.3f GStencil/s\n", t_ocl, points / t_ocl * 1e-9);
    free(in);
    free(want);
    free(ocl);
    free(ref);
    return 0;
}
