/* The device's copy bandwidth (bench/gpu/sum7.c, scripts/gpu-check.sh): the best of
 * `reps` device-to-device copies of `bytes`, timed with events, in GB/s counting the
 * bytes read and written. Returns a negative number when CUDA fails. */
#include <cuda_runtime.h>

extern "C" double copy_bandwidth_gbs(size_t bytes, int reps)
{
    void *a = NULL, *b = NULL;
    cudaEvent_t start, stop;
    double best = -1.0;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess ||
        cudaMemset(a, 1, bytes) != cudaSuccess || cudaEventCreate(&start) != cudaSuccess) {
        cudaFree(a);
        cudaFree(b);
        return -1.0;
    }
    if (cudaEventCreate(&stop) == cudaSuccess) {
        for (int r = 0; r < reps; r++) {
            float ms = 0.0f;
            if (cudaEventRecord(start) != cudaSuccess ||
                cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess ||
                cudaEventRecord(stop) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
                cudaEventElapsedTime(&ms, start, stop) != cudaSuccess) {
                best = -1.0;
                break;
            }
            const double gbs = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
            if (gbs > best)
                best = gbs;
        }
        cudaEventDestroy(stop);
    }
    cudaEventDestroy(start);
    cudaFree(a);
    cudaFree(b);
    return best;
}
