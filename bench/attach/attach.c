/* Plans over the application's memory (docs/performance.md, "Plans over the
 * application's memory"): VARS batch plans of samples/miniamr/stencil7.imcl, each for
 * CAPACITY blocks of N^3 (ghost layer 1), made and given the application's slabs with
 * stencil7_plan_attach, as an AMR code makes one per variable; then one launch of each
 * over its first block. Prints the seconds of the creates with the attaches, made two
 * ways, alternated REPS times: "attached" as the plan API is used (the memory of a plan's
 * array made at its first use, so never), "made first" with each array's memory asked for
 * first (stencil7_plan_memory: what every create did before). Usage: attach N CAPACITY VARS
 * REPS. Exit status 1 when a call fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stencil7.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The plans of every variable over slabs[v][0..1]; made_first: each array's own memory
 * made before the attach. Returns the seconds, or a negative number on failure. */
static double make(stencil7_plan **plans, double *(*slabs)[2], int n, int capacity, int vars,
                   int made_first)
{
    const int e = n; /* the extents without the ghost layer (the halo) */
    const double t0 = now();
    for (int v = 0; v < vars; v++) {
        if (stencil7_plan_create_batch(&plans[v], capacity, e, e, e, e, e, e) != stencil7_OK)
            return -1.0;
        for (int a = 0; a < 2; a++) {
            if (made_first && !stencil7_plan_memory(plans[v], a))
                return -1.0;
            if (stencil7_plan_attach(plans[v], a, slabs[v][a]) != stencil7_OK)
                return -1.0;
        }
    }
    return now() - t0;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s N CAPACITY VARS REPS\n", argv[0]);
        return 2;
    }
    const int n = atoi(argv[1]), capacity = atoi(argv[2]), vars = atoi(argv[3]);
    const int reps = atoi(argv[4]);
    if (n < 1 || capacity < 1 || vars < 1 || reps < 1)
        return 2;
    const size_t cells = (size_t)(n + 2) * (n + 2) * (n + 2) * (size_t)capacity;
    double *(*slabs)[2] = calloc((size_t)vars, sizeof *slabs);
    stencil7_plan **plans = calloc((size_t)vars, sizeof *plans);
    double *t[2] = {calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double))};
    if (!slabs || !plans || !t[0] || !t[1])
        return 1;
    /* the application's slabs, page-aligned as an OpenCL device asks of host memory */
    for (int v = 0; v < vars; v++)
        for (int a = 0; a < 2; a++) {
            slabs[v][a] = aligned_alloc(4096, (cells * sizeof(double) + 4095) / 4096 * 4096);
            if (!slabs[v][a])
                return 1;
            memset(slabs[v][a], 0, cells * sizeof(double));
            slabs[v][a][(size_t)(n + 2) * (n + 2) + (n + 2) + 1] = 7.0; /* block 0, first cell */
        }
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            const int made_first = (r + k) % 2; /* alternated */
            const double s = make(plans, slabs, n, capacity, vars, made_first);
            if (s < 0.0) {
                fprintf(stderr, "attach: a plan call failed\n");
                return 1;
            }
            t[made_first][r] = s;
            /* one launch of block 0 each: the attached memory is what they compute in */
            for (int v = 0; v < vars; v++) {
                if (stencil7_plan_launch_batch(plans[v], 1) != stencil7_OK
                        || slabs[v][1][(size_t)(n + 2) * (n + 2) + (n + 2) + 1] != 1.0) {
                    fprintf(stderr, "attach: the launch over the attached slabs is wrong\n");
                    return 1;
                }
                stencil7_plan_destroy(plans[v]);
            }
        }
    for (int k = 0; k < 2; k++)
        qsort(t[k], (size_t)reps, sizeof(double), cmp);
    printf("%.4f %.4f %.4f %.4f\n", t[0][0], t[0][reps / 2], t[1][0], t[1][reps / 2]);
    for (int v = 0; v < vars; v++) {
        free(slabs[v][0]);
        free(slabs[v][1]);
    }
    free(slabs);
    free(plans);
    free(t[0]);
    free(t[1]);
    stencil7_release();
    return 0;
}
