/* Shared by the emulator tests (the .cu files of tests/cuda_cpu): a check that counts failures and
 * the CUDA call wrapper. These tests are plain CUDA; the cases of tests/cuda_cpu build them with
 * scripts/nvcc-cpu and run them, and compile them with nvcc. */
#ifndef CUDA_CPU_COMMON_H
#define CUDA_CPU_COMMON_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                                                      \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            if (failures < 20) {                                                                               \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                      \
                fprintf(stderr, __VA_ARGS__);                                                                  \
                fputc('\n', stderr);                                                                           \
            }                                                                                                  \
            failures++;                                                                                        \
        }                                                                                                      \
    } while (0)

/* A CUDA call that must succeed. */
#define OK(call)                                                                                              \
    do {                                                                                                       \
        const cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));             \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

/* A CUDA call that must fail with exactly `code`, which cudaGetLastError then returns
 * (and resets). */
#define FAILS(code, call)                                                                                     \
    do {                                                                                                       \
        const cudaError_t e_ = (call);                                                                         \
        CHECK(e_ == (code), "%s returned %d (%s), expected %d", #call, (int)e_, cudaGetErrorString(e_),        \
              (int)(code));                                                                                    \
        const cudaError_t l_ = cudaGetLastError();                                                             \
        CHECK(l_ == (code), "after %s, cudaGetLastError returned %d", #call, (int)l_);                         \
    } while (0)

static int finish(const char *name)
{
    if (failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

#endif
