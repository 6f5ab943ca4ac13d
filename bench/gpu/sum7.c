/* The 7-point double stencil (samples/sum7) on the CUDA device through its plan
 * (scripts/gpu-check.sh): sum7 N [REPS] prints the best kernel time of REPS launches
 * on an N^3 grid, GStencil/s, the effective bandwidth (8 bytes read and 8 written per
 * point) and its fraction of the device's copy bandwidth (copy_bw.cu). The output is
 * checked against a C loop at a few hundred points. Build: imcl -b cuda --prefix
 * cuda_ -o OUT samples/sum7/sum7.imcl, then nvcc -c OUT/sum7.cu, OUT/imcl_runtime_cuda.cu
 * and copy_bw.cu and link with this file (-I OUT). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#include "sum7.h"


static double at(const double *a, int n, int x, int y, int z)
{
    return x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= n ? 0.0 : a[((size_t)z * n + y) * n + x];
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 256, reps = argc > 2 ? atoi(argv[2]) : 10;
    const size_t points = (size_t)n * n * n;
    double *in = malloc(points * sizeof *in), *out = malloc(points * sizeof *out);
    if (n < 1 || reps < 1 || !in || !out)
        return 2;
    for (size_t i = 0; i < points; i++)
        in[i] = (double)(i * 2654435761u % 1000) / 7.0;
    cuda_sum7_plan *p = NULL;
    int e = cuda_sum7_plan_create(&p, n, n, n, n, n, n);
    if (e == 0)
        e = cuda_sum7_plan_upload_input(p, in);
    double best = 1e30;
    for (int r = 0; r < reps && e == 0; r++) {
        e = cuda_sum7_plan_launch(p);
        if (e == 0 && cuda_sum7_plan_kernel_ms(p) < best)
            best = cuda_sum7_plan_kernel_ms(p);
    }
    if (e == 0)
        e = cuda_sum7_plan_download_output(p, out);
    cuda_sum7_plan_destroy(p);
    if (e != 0) {
        fprintf(stderr, "sum7: %s\n", cuda_sum7_strerror(e));
        return 1;
    }
    int bad = 0;
    for (int k = 0; k < 500; k++) {
        const int x = (int)((k * 7919u) % n), y = (int)((k * 104729u) % n), z = (int)((k * 1299709u) % n);
        const double want = at(in, n, x - 1, y, z) + at(in, n, x + 1, y, z) + at(in, n, x, y - 1, z) +
                            at(in, n, x, y + 1, z) + at(in, n, x, y, z - 1) + at(in, n, x, y, z + 1) +
                            at(in, n, x, y, z);
        bad += fabs(out[((size_t)z * n + y) * n + x] - want) > 1e-12 * fabs(want) + 1e-12;
    }
    char what[64];
    snprintf(what, sizeof what, "sum7 %d^3", n);
    free(in);
    free(out);
    return bench_report(what, "GStencil", (double)points, 16.0, best, points * sizeof(double), reps, bad);
}
