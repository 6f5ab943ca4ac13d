/* The 5x5 float blur (samples/blur5, clamped edges) on the CUDA device through its plan
 * (scripts/gpu-check.sh), the 2D counterpart of sum7.c: blur5 N [REPS] prints the best
 * kernel time of REPS launches on an N x N image, GPixel/s, the effective bandwidth (4
 * bytes read and 4 written per pixel) and its fraction of the device's copy bandwidth
 * (copy_bw.cu). The output is checked against a C loop at a few hundred pixels. Build:
 * imcl -b cuda --prefix cuda_ -o OUT samples/blur5/blur5.imcl, then nvcc OUT/blur5.cu
 * OUT/imcl_runtime_cuda.cu copy_bw.cu blur5.c -I OUT. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#include "blur5.h"


static int clamp(int v, int n)
{
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 8192, reps = argc > 2 ? atoi(argv[2]) : 20;
    const size_t pixels = (size_t)n * n;
    float *in = malloc(pixels * sizeof *in), *out = malloc(pixels * sizeof *out), mask[25];
    if (n < 1 || reps < 1 || !in || !out)
        return 2;
    for (size_t i = 0; i < pixels; i++)
        in[i] = (float)(i * 2654435761u % 1000) / 64.0f;
    for (int i = 0; i < 25; i++)
        mask[i] = (float)(i % 7 + 1) / 32.0f;
    cuda_blur5_plan *p = NULL;
    int e = cuda_blur5_plan_create(&p, n, n, n, n);
    if (e == 0)
        e = cuda_blur5_plan_upload_in(p, in);
    if (e == 0)
        e = cuda_blur5_plan_upload_mask(p, mask);
    double best = 1e30;
    for (int r = 0; r < reps && e == 0; r++) {
        e = cuda_blur5_plan_launch(p);
        if (e == 0 && cuda_blur5_plan_kernel_ms(p) < best)
            best = cuda_blur5_plan_kernel_ms(p);
    }
    if (e == 0)
        e = cuda_blur5_plan_download_out(p, out);
    cuda_blur5_plan_destroy(p);
    if (e != 0) {
        fprintf(stderr, "blur5: %s\n", cuda_blur5_strerror(e));
        return 1;
    }
    int bad = 0;
    for (int k = 0; k < 500; k++) {
        /* the image's x is the fastest index; mask[i + 2][j + 2] weighs in(x + i, y + j) */
        const int x = (int)((k * 7919u) % n), y = (int)((k * 104729u) % n);
        double want = 0.0;
        for (int i = -2; i <= 2; i++)
            for (int j = -2; j <= 2; j++)
                want += (double)mask[(i + 2) * 5 + j + 2] * in[(size_t)clamp(y + j, n) * n + clamp(x + i, n)];
        bad += fabs(out[(size_t)y * n + x] - want) > 1e-4 * fabs(want) + 1e-4;
    }
    char what[64];
    snprintf(what, sizeof what, "blur5 %d^2", n);
    free(in);
    free(out);
    return bench_report(what, "GPixel", (double)pixels, 8.0, best, pixels * sizeof(float), reps, bad);
}
