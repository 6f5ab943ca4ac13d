/* The one-shot wrapper called in a loop against the plan (bench/oneshot.sh): the
 * 7-point stencil (samples/sum7) on an N^3 grid, R calls of ocl_sum7 after a first
 * one (which builds), against R plan launches, and against R plan rounds of upload,
 * launch and download (what a one-shot call does). Prints, in ms per call: first
 * one-shot call, one-shot call, plan launch, plan upload + launch + download. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sum7.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 16, reps = argc > 2 ? atoi(argv[2]) : 50;
    const size_t pts = (size_t)n * n * n;
    double *in = malloc(pts * sizeof *in), *out = malloc(pts * sizeof *out);
    if (!in || !out || n < 1 || reps < 1)
        return 2;
    for (size_t i = 0; i < pts; i++)
        in[i] = (double)(i % 97);
    double t0 = now_ms();
    if (ocl_sum7(in, n, n, n, out, n, n, n) != 0)
        return 1;
    double first = now_ms() - t0;
    t0 = now_ms();
    for (int r = 0; r < reps; r++)
        if (ocl_sum7(in, n, n, n, out, n, n, n) != 0)
            return 1;
    double oneshot = (now_ms() - t0) / reps;
    ocl_sum7_plan *p;
    if (ocl_sum7_plan_create(&p, n, n, n, n, n, n) != 0 || ocl_sum7_plan_upload_input(p, in) != 0 ||
        ocl_sum7_plan_launch(p) != 0)
        return 1;
    t0 = now_ms();
    for (int r = 0; r < reps; r++)
        if (ocl_sum7_plan_launch(p) != 0)
            return 1;
    double launch = (now_ms() - t0) / reps;
    t0 = now_ms();
    for (int r = 0; r < reps; r++)
        if (ocl_sum7_plan_upload_input(p, in) != 0 || ocl_sum7_plan_launch(p) != 0 ||
            ocl_sum7_plan_download_output(p, out) != 0)
            return 1;
    double round = (now_ms() - t0) / reps;
    ocl_sum7_plan_destroy(p);
    ocl_sum7_release();
    printf("%d %.3f %.3f %.3f %.3f\n", n, first, oneshot, launch, round);
    free(in);
    free(out);
    return 0;
}
