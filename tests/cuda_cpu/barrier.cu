/* __syncthreads, thread and block indices, __shared__ poisoning (tests/cuda_cpu).
 *   barrier          the checks below; exit 0
 *   -DMISSING_BARRIER, argument "up": the rotation kernel without its barrier, each
 *     thread reading what thread t+1 wrote; argument "both": t+1 and t-1. The case
 *     requires a failure (exit 1) wherever the order of IMCL_EMU_ORDER exposes it. */
#include "common.h"

/* every index a thread sees, 12 ints per thread, by global linear thread id */
__global__ void indices(int *out)
{
    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int *o = out + 12 * (b * blockDim.x * blockDim.y * blockDim.z + t);
    o[0] = threadIdx.x, o[1] = threadIdx.y, o[2] = threadIdx.z;
    o[3] = blockIdx.x, o[4] = blockIdx.y, o[5] = blockIdx.z;
    o[6] = blockDim.x, o[7] = blockDim.y, o[8] = blockDim.z;
    o[9] = gridDim.x, o[10] = gridDim.y, o[11] = gridDim.z;
}

/* rounds of: write s[t], barrier, read neighbours, barrier */
__global__ void rotate(int *out, int rounds, int both)
{
    __shared__ int s[256];
    const int n = blockDim.x, t = threadIdx.x;
    int v = t * 7 + 1000 * blockIdx.x;
    for (int r = 0; r < rounds; r++) {
        s[t] = v;
#ifndef MISSING_BARRIER
        __syncthreads();
#endif
        v = s[(t + 1) % n] + (both ? s[(t + n - 1) % n] : 0);
        __syncthreads();
    }
    out[blockIdx.x * n + t] = v;
}

/* the upper half of the block returns before the barrier: the barrier waits only for
 * the threads still running */
__global__ void early_exit(int *out)
{
    __shared__ float s[64];
    const int t = threadIdx.x;
    if (t >= 32)
        return;
    s[t] = 2.0f * t;
    __syncthreads();
    out[blockIdx.x * 32 + t] = (int)s[31 - t];
}

/* what a block sees in shared memory before writing it: poison, not the last block's */
__global__ void fresh_shared(int *out, float *fout)
{
    __shared__ int s[4];
    __shared__ float f;
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s[blockIdx.x % 4];
        fout[blockIdx.x] = f;
        s[blockIdx.x % 4] = 42;
        f = 1.0f;
    }
}

static int host_rotate(int n, int b, int t, int rounds, int both)
{
    int *v = (int *)malloc(sizeof(int) * n), *w = (int *)malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        v[i] = i * 7 + 1000 * b;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++)
            w[i] = v[(i + 1) % n] + (both ? v[(i + n - 1) % n] : 0);
        memcpy(v, w, sizeof(int) * n);
    }
    const int x = v[t];
    free(v);
    free(w);
    return x;
}

static int run_rotate(int n, int blocks, int rounds, int both)
{
    int *d;
    OK(cudaMalloc((void **)&d, sizeof(int) * n * blocks));
    rotate<<<blocks, n>>>(d, rounds, both);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    int *h = (int *)malloc(sizeof(int) * n * blocks);
    OK(cudaMemcpy(h, d, sizeof(int) * n * blocks, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++)
            bad += h[b * n + t] != host_rotate(n, b, t, rounds, both);
    CHECK(bad == 0, "rotate n=%d rounds=%d both=%d: %d of %d values wrong", n, rounds, both, bad, n * blocks);
    free(h);
    OK(cudaFree(d));
    return bad;
}

int main(int argc, char **argv)
{
#ifdef MISSING_BARRIER
    if (argc != 2)
        return 2;
    run_rotate(96, 3, 1, strcmp(argv[1], "both") == 0);
    return finish("barrier (missing)");
#else
    (void)argc;
    (void)argv;
    /* indices over a 3x2x2 grid of 5x3x2 blocks */
    const dim3 grid(3, 2, 2), block(5, 3, 2);
    const int threads = 3 * 2 * 2 * 5 * 3 * 2;
    int *d, *h = (int *)malloc(sizeof(int) * 12 * threads);
    OK(cudaMalloc((void **)&d, sizeof(int) * 12 * threads));
    indices<<<grid, block>>>(d);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof(int) * 12 * threads, cudaMemcpyDeviceToHost));
    for (int bz = 0; bz < 2; bz++)
        for (int by = 0; by < 2; by++)
            for (int bx = 0; bx < 3; bx++)
                for (int tz = 0; tz < 2; tz++)
                    for (int ty = 0; ty < 3; ty++)
                        for (int tx = 0; tx < 5; tx++) {
                            const int b = bx + 3 * (by + 2 * bz), t = tx + 5 * (ty + 3 * tz);
                            const int *o = h + 12 * (b * 30 + t);
                            const int want[12] = {tx, ty, tz, bx, by, bz, 5, 3, 2, 3, 2, 2};
                            CHECK(memcmp(o, want, sizeof want) == 0, "indices of thread (%d,%d,%d) block (%d,%d,%d)",
                                  tx, ty, tz, bx, by, bz);
                        }
    OK(cudaFree(d));
    free(h);

    /* barriers in a loop, several warps, one partial warp, a 1-thread block */
    run_rotate(96, 3, 5, 1);
    run_rotate(45, 2, 4, 0);
    run_rotate(1, 2, 3, 1);
    run_rotate(256, 1, 2, 1);

    /* threads that returned do not hold the barrier */
    OK(cudaMalloc((void **)&d, sizeof(int) * 64));
    early_exit<<<2, 64>>>(d);
    OK(cudaGetLastError());
    int e[64];
    OK(cudaMemcpy(e, d, sizeof e, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        CHECK(e[i] == 2 * (31 - i % 32), "early_exit[%d] = %d", i, e[i]);
    OK(cudaFree(d));

#ifdef IMCL_NVCC_CPU
    /* on the emulator, device memory and shared memory start as 0xFF bytes (NaN, -1);
     * undefined on a GPU */
    int *di;
    float *df;
    OK(cudaMalloc((void **)&di, sizeof(int) * 8));
    OK(cudaMalloc((void **)&df, sizeof(float) * 8));
    int hi[8];
    float hf[8];
    OK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        CHECK(hi[i] == -1, "fresh cudaMalloc memory [%d] = %d, expected 0xFF bytes", i, hi[i]);
    fresh_shared<<<8, 32>>>(di, df);
    OK(cudaGetLastError());
    OK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++) {
        CHECK(hi[i] == -1, "block %d read %d from fresh shared memory, expected -1", i, hi[i]);
        CHECK(hf[i] != hf[i], "block %d read %g from a fresh shared float, expected NaN", i, hf[i]);
    }
    OK(cudaFree(di));
    OK(cudaFree(df));
#endif
    return finish("barrier");
#endif
}
