/* bench/iterate.sh's program: PK_plan_iterate of one kernel, STEPS steps, on the C
 * reference with time_tile 1, 2, 4 and 8 (prefixes c1_ .. c8_) and on OpenCL with
 * time_tile 1 (ocl1_, a launch per step), 8 (ocl8_, on a CPU device the wavefront of the
 * CPU variant) and the default (ocl_), beside a parallel copy of the grid (the single-step
 * roofline: one read and one write per point), in one process, the variants in a rotated
 * order each repetition. Prints one line per variant: the minimum and median time of the
 * steps and the effective GStencil/s (steps x points / time) at the minimum. Before
 * timing, every variant's result is compared with time_tile 1's of its backend, bit for
 * bit.
 *
 *   iterate N STEPS REPS     (HEAT3D: N^3 doubles; J2D5PT: N^2 floats)  */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1.h"
#include "c2.h"
#include "c4.h"
#include "c8.h"
#include "ocl.h"
#include "ocl1.h"
#include "ocl8.h"

#ifdef HEAT3D
typedef double T;
#define DIMS(n) n, n, n, n, n, n
#define CELLS(n) ((size_t)(n) * (n) * (n))
#define K(p, f) p##heat3d_plan_##f
#define ARGS , 0.125
#define UP_A(p) p##heat3d_plan_upload_a
#define UP_B(p) p##heat3d_plan_upload_b
#define DOWN_B(p) p##heat3d_plan_download_b
#else
typedef float T;
#define DIMS(n) n, n, n, n
#define CELLS(n) ((size_t)(n) * (n))
#define K(p, f) p##j2d5pt_f_plan_##f
#define ARGS
#define UP_A(p) p##j2d5pt_f_plan_upload_in
#define UP_B(p) p##j2d5pt_f_plan_upload_out
#define DOWN_B(p) p##j2d5pt_f_plan_download_out
#endif

enum { COPY, C1, C2, C4, C8, OCL1, OCL8, OCL, NV };
static const char *names[NV] = {"copy (roofline)", "C time_tile 1", "C time_tile 2", "C time_tile 4",
                                "C time_tile 8", "OpenCL tile 1", "OpenCL tile 8", "OpenCL default"};
/* each variant's plan functions: the X macro V(variant, prefix) */
#define VARIANTS(V) V(C1, c1_) V(C2, c2_) V(C4, c4_) V(C8, c8_) V(OCL1, ocl1_) V(OCL8, ocl8_) V(OCL, ocl_)
static void *plans[NV];
static T *x, *y;
static size_t cells;

static int create(int v, int n)
{
    switch (v) {
#define CREATE(V, p) \
    case V: \
        return K(p, create)((void *)&plans[V], DIMS(n)) || UP_A(p)(plans[V], x) || UP_B(p)(plans[V], y);
        VARIANTS(CREATE)
    }
    return 0;
}

static int run(int v, int steps)
{
    if (v == COPY) {
        for (int s = 0; s < steps; s++) {
#pragma omp parallel for schedule(static)
            for (size_t i = 0; i < cells; i++)
                y[i] = x[i];
        }
        return 0;
    }
    switch (v) {
#define RUN(V, p) \
    case V: \
        return K(p, iterate)(plans[V], steps ARGS);
        VARIANTS(RUN)
    }
    return 1;
}

static int result(int v, T *out)
{
    switch (v) {
#define RESULT(V, p) \
    case V: \
        return DOWN_B(p)(plans[V], out);
        VARIANTS(RESULT)
    }
    return 1;
}

static int cmp(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    const int n = atoi(argv[1]), steps = atoi(argv[2]), reps = atoi(argv[3]);
    cells = CELLS(n);
    x = malloc(cells * sizeof(T)), y = malloc(cells * sizeof(T));
    T *ref = malloc(cells * sizeof(T)), *got = malloc(cells * sizeof(T));
    for (size_t i = 0; i < cells; i++)
        x[i] = (T)(i % 251) / (T)251, y[i] = 0;
    for (int v = C1; v < NV; v++)
        if (create(v, n)) {
            fprintf(stderr, "iterate: %s: plan refused\n", names[v]);
            return 1;
        }
    /* every time_tile gives time_tile 1's result; OpenCL its own (another compiler) */
    for (int v = C1; v < NV; v++) {
        const int first = v == C1 || v == OCL1;
        if (run(v, steps) || result(v, first ? ref : got)) {
            fprintf(stderr, "iterate: %s failed\n", names[v]);
            return 1;
        }
        if (!first && memcmp(ref, got, cells * sizeof(T))) {
            fprintf(stderr, "iterate: %s differs from time_tile 1\n", names[v]);
            return 1;
        }
    }
    double t[NV][64];
    for (int r = 0; r < reps && r < 64; r++)
        for (int i = 0; i < NV; i++) {
            int v = (i + r) % NV;
            double t0 = omp_get_wtime();
            if (run(v, steps))
                return 1;
            t[v][r] = omp_get_wtime() - t0;
        }
    for (int v = 0; v < NV; v++) {
        qsort(t[v], (size_t)reps, sizeof(double), cmp);
        printf("%-16s %9.4f %9.4f %8.3f\n", names[v], t[v][0], t[v][reps / 2],
               (double)cells * steps / t[v][0] * 1e-9);
    }
    return 0;
}
