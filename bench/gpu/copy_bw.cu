/* The device's copy bandwidth and the report line of the GPU benchmarks (bench.h): the
 * copies are timed with events. */
#include <cstdio>

#include <cuda_runtime.h>

#include "bench.h"

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

extern "C" int bench_report(const char *what, const char *unit, double points, double bytes_per_point,
                            double best_ms, size_t copy_bytes, int reps, int bad)
{
    const double copy = copy_bandwidth_gbs(copy_bytes, reps);
    const double rate = points / (best_ms * 1e-3) / 1e9, eff = bytes_per_point * rate;
    printf("%s: %.4f ms, %.3f %s/s, %.1f GB/s effective, copy %.1f GB/s, %.1f%% of copy, %s\n", what, best_ms,
           rate, unit, eff, copy, copy > 0 ? 100.0 * eff / copy : 0.0, bad ? "WRONG" : "checked");
    return bad || copy <= 0;
}
