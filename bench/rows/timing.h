/* The clock and the sort of bench/rows.sh's two programs (rows.c, attach.c): wall-clock
 * seconds, and doubles in ascending order for qsort (best and median of the runs). */
#ifndef BENCH_ROWS_TIMING_H
#define BENCH_ROWS_TIMING_H

#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
