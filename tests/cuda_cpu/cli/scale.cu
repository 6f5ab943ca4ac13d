/* nvcc-cpu's command line (tests/cuda_cpu): a kernel behind a C function, built
 * with main.c in one command or in steps. SCALE comes from -D, offset.h from -I. */
#include <cuda_runtime.h>

#include "offset.h"

__global__ void scale_kernel(int *v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * SCALE + OFFSET;
}

extern "C" int scale(int *v, int n)
{
    int *d;
    if (cudaMalloc((void **)&d, n * sizeof(int)) != cudaSuccess)
        return 1;
    cudaMemcpy(d, v, n * sizeof(int), cudaMemcpyHostToDevice);
    scale_kernel<<<(n + 31) / 32, 32>>>(d, n);
    const cudaError_t e = cudaGetLastError();
    cudaMemcpy(v, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e != cudaSuccess;
}
