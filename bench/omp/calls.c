/* Calls sum7's C reference (one-shot) REPS times on an N^3 grid and prints the mean time
 * of a call in ms: the measure of bench/omp_busy.sh. usage: calls N REPS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sum7.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const int n = atoi(argv[1]), reps = atoi(argv[2]);
    const size_t count = (size_t)n * n * n;
    double *in = malloc(count * sizeof *in), *out = malloc(count * sizeof *out);
    if (!in || !out)
        return 1;
    for (size_t i = 0; i < count; i++)
        in[i] = (double)(i % 17);
    const double t0 = now_ms();
    for (int r = 0; r < reps; r++)
        if (sum7(in, n, n, n, out, n, n, n) != sum7_OK)
            return 1;
    printf("%.4f\n", (now_ms() - t0) / reps);
    free(in);
    free(out);
    return 0;
}
