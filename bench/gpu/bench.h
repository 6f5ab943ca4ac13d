/* What the GPU benchmarks (bench/gpu/sum7.c, blur5.c, batch.c; scripts/gpu-check.sh) share,
 * in copy_bw.cu. */
#ifndef BENCH_GPU_H
#define BENCH_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The device's copy bandwidth: the best of `reps` device-to-device copies of `bytes`,
 * in GB/s counting the bytes read and written; negative when CUDA fails. */
double copy_bandwidth_gbs(size_t bytes, int reps);

/* Prints "WHAT: T ms, R UNIT/s, B GB/s effective, copy C GB/s, F% of copy, checked"
 * for `points` computed in `best_ms` moving `bytes_per_point` each, beside the copy
 * bandwidth of `copy_bytes` (best of `reps`); "WRONG" instead of "checked" when `bad`.
 * Returns the program's status: 0, or 1 when bad or the copy failed. */
int bench_report(const char *what, const char *unit, double points, double bytes_per_point,
                 double best_ms, size_t copy_bytes, int reps, int bad);

#ifdef __cplusplus
}
#endif

#endif
