/* miniAMR's 7-point stencil (samples/miniamr/stencil7.imcl) on a batch of blocks resident
 * on the CUDA device (scripts/gpu-check.sh): batch N BLOCKS [REPS [reverse]] makes one batch plan
 * for BLOCKS blocks of N^3 cells (miniAMR's ghost layer around each), uploads them once,
 * and prints the best kernel time of REPS launches of all blocks (one launch per
 * variable, as miniAMR's stencil phase), GStencil/s, the effective bandwidth (8 bytes
 * read and 8 written per cell) and its fraction of the device's copy bandwidth
 * (copy_bw.cu). The output is checked against a C loop at a few thousand cells and
 * every cell of the last block, the ghost cells of work are checked untouched. With
 * `reverse` the plan computes the blocks in the order of a list (plan_select), the last
 * first, and every cell of block 0, the last the launches reach, is checked.
 * Build: imcl -b cuda --prefix cuda_ -o OUT samples/miniamr/stencil7.imcl, then
 * nvcc OUT/stencil7.cu OUT/imcl_runtime_cuda.cu copy_bw.cu batch.c -I OUT. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#include "stencil7.h"


int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 16, blocks = argc > 2 ? atoi(argv[2]) : 1024,
              reps = argc > 3 ? atoi(argv[3]) : 20;
    const int reverse = argc > 4 && strcmp(argv[4], "reverse") == 0;
    const int s = n + 2; /* storage edge: the ghost layer on both sides */
    const size_t block = (size_t)s * s * s, total = block * (size_t)blocks;
    double *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
    if (n < 1 || blocks < 1 || reps < 1 || !in || !out)
        return 2;
    for (size_t i = 0; i < total; i++) {
        in[i] = (double)(i * 2654435761u % 1000) / 7.0;
        out[i] = -1.0;
    }
    cuda_stencil7_plan *p = NULL;
    int e = cuda_stencil7_plan_create_batch(&p, blocks, n, n, n, n, n, n);
    if (e == 0)
        e = cuda_stencil7_plan_upload_array(p, in);
    if (e == 0)
        e = cuda_stencil7_plan_upload_work(p, out);
    int *list = malloc(sizeof *list * (size_t)blocks);
    for (int b = 0; reverse && list && b < blocks; b++)
        list[b] = blocks - 1 - b;
    if (e == 0 && reverse)
        e = list ? cuda_stencil7_plan_select(p, blocks, list) : 3;
    free(list);
    double best = 1e30;
    for (int r = 0; r < reps && e == 0; r++) {
        e = cuda_stencil7_plan_launch_batch(p, blocks);
        if (e == 0 && cuda_stencil7_plan_kernel_ms(p) < best)
            best = cuda_stencil7_plan_kernel_ms(p);
    }
    if (e == 0)
        e = cuda_stencil7_plan_download_work(p, out);
    cuda_stencil7_plan_destroy(p);
    if (e != 0) {
        fprintf(stderr, "batch: %s\n", cuda_stencil7_strerror(e));
        return 1;
    }
    int bad = 0;
    /* 4000 cells drawn from all blocks, then every cell of the block computed last (by the
     * last of the launches a batch past the grid's z limit takes) */
    const size_t last = reverse ? 0 : (size_t)blocks - 1;
    for (size_t k = 0; k < 4000 + block; k++) {
        /* storage coordinates 0..s-1: ghost cells included, they must stay -1 */
        const size_t b = k < 4000 ? (size_t)((k * 7919u) % (unsigned)blocks) : last;
        const size_t c = k - 4000; /* the cell of the last block */
        const int x = k < 4000 ? (int)((k * 104729u) % s) : (int)(c % s);
        const int y = k < 4000 ? (int)((k * 1299709u) % s) : (int)(c / s % s);
        const int z = k < 4000 ? (int)((k * 15485863u) % s) : (int)(c / s / s);
        const double *a = in + b * block;
#define A(dz, dy, dx) a[((size_t)(z + (dz)) * s + (y + (dy))) * s + (x + (dx))]
        const int ghost = x == 0 || y == 0 || z == 0 || x == s - 1 || y == s - 1 || z == s - 1;
        const double want = ghost ? -1.0
                                  : (A(-1, 0, 0) + A(0, -1, 0) + A(0, 0, -1) + A(0, 0, 0) + A(0, 0, 1) +
                                     A(0, 1, 0) + A(1, 0, 0)) / 7.0;
#undef A
        const double got = out[b * block + ((size_t)z * s + y) * s + x];
        bad += fabs(got - want) > 1e-12 * fabs(want) + 1e-12;
    }
    char what[64];
    snprintf(what, sizeof what, "batch %d x %d^3", blocks, n);
    free(in);
    free(out);
    return bench_report(what, "GStencil", (double)n * n * n * blocks, 16.0, best, total * sizeof(double), reps,
                        bad);
}
