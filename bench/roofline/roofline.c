/* bench/roofline.sh's C program: the copy bandwidth, a hand-written loop and the C
 * reference imcl generated for the 7-point stencil (samples/sum7, constant
 * boundary), side by side in one run on N^3 doubles; best of REPS runs each. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sum7.h"

static double now(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* out = in: 16 bytes of traffic per point, the stencil's compulsory traffic. */
static void copy(const double *restrict in, double *restrict out, long n)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        out[i] = in[i];
}

/* The 7-point sum over the inner points (the boundary left out: an upper bound). */
static void hand(const double *restrict in, double *restrict out, int n)
{
    const long s = n, p = (long)n * n;
#pragma omp parallel for schedule(static)
    for (int z = 1; z < n - 1; z++)
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++) {
                long i = z * p + y * s + x;
                out[i] = in[i - 1] + in[i + 1] + in[i - s] + in[i + s] + in[i - p] + in[i + p] + in[i];
            }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256, reps = argc > 2 ? atoi(argv[2]) : 7;
    long N = (long)n * n * n;
    double *in = malloc((size_t)N * sizeof *in), *out = malloc((size_t)N * sizeof *out);
    if (!in || !out)
        return 1;
    for (long i = 0; i < N; i++) {
        in[i] = (double)(i % 97);
        out[i] = 0;
    }
    double best[3] = {1e30, 1e30, 1e30};
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 3; k++) {
            double t = now();
            if (k == 0)
                copy(in, out, N);
            else if (k == 1)
                hand(in, out, n);
            else if (sum7(in, n, n, n, out, n, n, n) != sum7_OK)
                return 1;
            t = now() - t;
            if (t < best[k])
                best[k] = t;
        }
    /* copy GB/s, then GStencil/s of the copy roofline, the hand loop and imcl's C */
    printf("%.3f %.4f %.4f %.4f\n", 16.0 * (double)N / best[0] * 1e-9, (double)N / best[0] * 1e-9,
           (double)N / best[1] * 1e-9, (double)N / best[2] * 1e-9);
    free(in);
    free(out);
    return 0;
}
