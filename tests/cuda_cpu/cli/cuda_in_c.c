/* CUDA in a file named .c, built with -x cu (tests/cuda_cpu). */
#include <stdio.h>

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }

int main(void)
{
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc((void **)&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
    return 0;
}
