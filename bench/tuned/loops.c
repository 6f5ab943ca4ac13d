/* bench/tuned/loops.c: hand-written C loops for the stencils of bench/tuned.sh,
 * independent of imcl, for comparison with the tuned OpenCL kernels.
 *
 *   loops KERNEL N REPS        KERNEL: sum7 sum27 (N^3 doubles) sobel blur5 (N^2 floats)
 *
 * The input is stored with a padding of the stencil's radius (zeros for sum7 and
 * sum27: the constant boundary; copies of the edge for sobel and blur5: the clamped
 * boundary), filled before timing, so the timed loop has no boundary test. Parallel
 * over the outermost dimension with OpenMP (OMP_NUM_THREADS). Prints one line:
 * "<min ms> <median ms> <checksum>". Build: gcc -O3 -fopenmp -std=c11 loops.c -lm */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double val(long i) { return (double)((i * 2654435761u) % 1000) / 1000.0; }

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    const char *k = argv[1];
    long n = atol(argv[2]);
    int reps = atoi(argv[3]);
    int three = !strcmp(k, "sum7") || !strcmp(k, "sum27");
    long r = !strcmp(k, "blur5") ? 2 : 1, s = n + 2 * r;
    double *t = malloc(reps * sizeof *t), sum = 0;
    if (three) {
        double *in = calloc(s * s * s, sizeof *in), *out = calloc(n * n * n, sizeof *out);
        for (long z = 0; z < n; z++)
            for (long y = 0; y < n; y++)
                for (long x = 0; x < n; x++)
                    in[((z + 1) * s + y + 1) * s + x + 1] = val((z * n + y) * n + x);
        int is7 = !strcmp(k, "sum7");
        for (int q = 0; q < reps; q++) {
            double t0 = omp_get_wtime();
#pragma omp parallel for
            for (long z = 0; z < n; z++)
                for (long y = 0; y < n; y++) {
                    const double *c = in + ((z + 1) * s + y + 1) * s + 1;
                    double *o = out + (z * n + y) * n;
                    if (is7)
                        for (long x = 0; x < n; x++)
                            o[x] = c[x - s * s] + c[x - s] + c[x - 1] + c[x] + c[x + 1] + c[x + s] + c[x + s * s];
                    else
                        for (long x = 0; x < n; x++) {
                            double a = 0;
                            for (long dz = -1; dz <= 1; dz++)
                                for (long dy = -1; dy <= 1; dy++)
                                    for (long dx = -1; dx <= 1; dx++)
                                        a += c[x + (dz * s + dy) * s + dx];
                            o[x] = a;
                        }
                }
            t[q] = (omp_get_wtime() - t0) * 1e3;
        }
        for (long i = 0; i < n * n * n; i++)
            sum += out[i];
    } else {
        float *in = malloc(s * s * sizeof *in), *out = calloc(n * n, sizeof *out), m[5][5];
        for (long y = 0; y < s; y++)
            for (long x = 0; x < s; x++) {
                long cy = y - r < 0 ? 0 : y - r >= n ? n - 1 : y - r;
                long cx = x - r < 0 ? 0 : x - r >= n ? n - 1 : x - r;
                in[y * s + x] = (float)val(cy * n + cx);
            }
        for (int i = 0; i < 25; i++)
            m[i / 5][i % 5] = (float)val(i + 7);
        int sob = !strcmp(k, "sobel");
        for (int q = 0; q < reps; q++) {
            double t0 = omp_get_wtime();
#pragma omp parallel for
            for (long y = 0; y < n; y++) {
                const float *c = in + (y + r) * s + r;
                float *o = out + y * n;
                if (sob)
                    for (long x = 0; x < n; x++) {
                        float gx = -c[x - 1 - s] + c[x + 1 - s] - 2.0f * c[x - 1] + 2.0f * c[x + 1]
                                 - c[x - 1 + s] + c[x + 1 + s];
                        float gy = -c[x - 1 - s] - 2.0f * c[x - s] - c[x + 1 - s]
                                 + c[x - 1 + s] + 2.0f * c[x + s] + c[x + 1 + s];
                        o[x] = sqrtf(gx * gx + gy * gy);
                    }
                else
                    for (long x = 0; x < n; x++) {
                        float a = 0.0f;
                        for (int i = -2; i <= 2; i++)
                            for (int j = -2; j <= 2; j++)
                                a += m[i + 2][j + 2] * c[x + i + j * s];
                        o[x] = a;
                    }
            }
            t[q] = (omp_get_wtime() - t0) * 1e3;
        }
        for (long i = 0; i < n * n; i++)
            sum += out[i];
    }
    double mn = t[0];
    for (int q = 1; q < reps; q++)
        mn = t[q] < mn ? t[q] : mn;
    qsort(t, reps, sizeof *t, cmp);
    printf("%.4f %.4f %.6g\n", mn, t[reps / 2], sum);
    return 0;
}
